import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('tags')
@ActivityTable()
@Index('uq_tags_user_id_name', ['userId', 'name'], { unique: true })
export class Tag {
  @IdColumn()
  id: number;

  @IntColumn()
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @StringColumn(64)
  name: string;
}
