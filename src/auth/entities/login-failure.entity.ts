import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('login_failures')
@ActivityTable()
@Index('ix_login_failures_user_id_ip_addr_login_time', ['userId', 'ipAddr', 'loginTime'])
export class LoginFailure {
  @IdColumn()
  id: number;

  @IntColumn()
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @StringColumn(64)
  ipAddr: string;

  @DateTimeColumn()
  loginTime: string;
}
