import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('login_tokens')
@ActivityTable()
@Index('uq_login_tokens_token_hash', ['tokenHash'], { unique: true })
@Index('ix_login_tokens_user_id', ['userId'])
@Index('ix_login_tokens_last_used', ['lastUsed'])
export class LoginToken {
  @IdColumn()
  id: number;

  @IntColumn()
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @StringColumn(64)
  tokenHash: string;

  @StringColumn(64, { nullable: true })
  ipAddr: string | null;

  @DateTimeColumn()
  lastUsed: string;
}
