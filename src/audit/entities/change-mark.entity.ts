import { Entity } from 'typeorm';
import { IntColumn, StringColumn } from '../../database/columns.js';
import { ActivityTable } from '../../database/activity-table.js';

/**
 * Named counters that move with a kind of change (ChangeMarkSubscriber). One row, `settings`, counts the committed
 * transactions that wrote a settings table (any table not marked @ActivityTable): the catalogue modules keep
 * their reads while it stays the same (and kept bugs, with their revision). A counter has no window to miss: its
 * UPDATE is serialised by the row lock, and settings change rarely.
 */
@Entity('change_marks')
@ActivityTable()
export class ChangeMark {
  @StringColumn(32, { primary: true })
  name: string;

  @IntColumn({ default: 0 })
  version: number;
}
