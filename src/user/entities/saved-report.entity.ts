import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import type { User } from './user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('saved_reports')
@ActivityTable()
@Index('uq_saved_reports_user_id_name', ['userId', 'name'], { unique: true })
export class SavedReport {
  @IdColumn()
  id: number;

  @IntColumn()
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @StringColumn(64)
  name: string;

  @LongTextColumn()
  query: string;
}
