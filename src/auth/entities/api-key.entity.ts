import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, DateTimeColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('api_keys')
@ActivityTable()
@Index('uq_api_keys_key_hash', ['keyHash'], { unique: true })
@Index('ix_api_keys_user_id', ['userId'])
export class ApiKey {
  @IdColumn()
  id: number;

  @IntColumn()
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @StringColumn(64)
  keyHash: string;

  @StringColumn(255, { default: '' })
  description: string;

  @BoolColumn(false)
  revoked: boolean;

  @DateTimeColumn()
  creationTs: string;

  @DateTimeColumn({ nullable: true })
  lastUsed: string | null;
}
