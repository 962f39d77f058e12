import { Injectable } from '@nestjs/common';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import type { ActivityEntry } from './bug.types.js';
import { BugActivity } from './entities/bug-activity.entity.js';

/** One history row as Bug history reads it. */
export interface ActivityRow {
  id: number;
  bugId: number;
  userId: number;
  attachmentId: number | null;
  commentId: number | null;
  changedAt: string;
  fieldName: string;
  removed: string | null;
  added: string | null;
}

/** Bug history (bug_activity). */
@Injectable()
export class BugHistoryRepository {
  /** Writes history rows, in the caller's transaction. */
  async add(tx: Sql, entries: readonly ActivityEntry[]): Promise<void> {
    await insertRows(tx.repository(BugActivity), entries.map((e) => ({
      bugId: e.bugId,
      attachmentId: e.attachmentId ?? null,
      commentId: e.commentId ?? null,
      userId: e.userId,
      changedAt: e.at,
      fieldName: e.field,
      removed: e.removed,
      added: e.added,
    })));
  }

  /**
   * The history of the bugs, oldest first, as Bugzilla's get_activity orders it (time, then comment: the rows of no
   * comment first), then as written; with `since`, only changes strictly after it.
   */
  async ofBugs(sql: ReadSql, bugIds: readonly number[], since?: string): Promise<ActivityRow[]> {
    if (!bugIds.length) return [];
    const query = sql.repository(BugActivity).createQueryBuilder('a')
      .select('a.id', 'id')
      .addSelect('a.bugId', 'bugId')
      .addSelect('a.userId', 'userId')
      .addSelect('a.attachmentId', 'attachmentId')
      .addSelect('a.commentId', 'commentId')
      .addSelect('a.changedAt', 'changedAt')
      .addSelect('a.fieldName', 'fieldName')
      .addSelect('a.removed', 'removed')
      .addSelect('a.added', 'added')
      .where('a.bugId IN (:...bugIds)', { bugIds })
      .orderBy('a.changedAt')
      .addOrderBy('a.commentId')
      .addOrderBy('a.id');
    if (since) query.andWhere('a.changedAt > :since', { since });
    return query.getRawMany<ActivityRow>();
  }
}
