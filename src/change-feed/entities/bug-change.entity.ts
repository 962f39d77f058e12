import { Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import { ActivityTable } from '../../database/activity-table.js';

/**
 * One change of one bug (issue 44), written in the change's own transaction: its generated id is the change
 * number the feed (GET /rest/changes) pages by. Rows older than the retained window are pruned.
 */
@Entity('bug_changes')
@ActivityTable()
@Index('ix_bug_changes_changed_at', ['changedAt'])
export class BugChange {
  @IdColumn()
  id: number;

  @IntColumn()
  bugId: number;

  /** The kinds of this change, comma-separated: create, update, comment, attachment, flag, access (CHANGE_KINDS). */
  @StringColumn(64)
  kinds: string;

  /** The writing request's timestamp (its instance's clock), DB format. */
  @DateTimeColumn()
  changedAt: string;
}
