import { Injectable } from '@nestjs/common';
import { In, LessThan, MoreThanOrEqual } from 'typeorm';
import { type Sql, type ReadSql } from '../../database/sql.js';
import { insertRows } from '../../database/entity-rows.js';
import { BugLastVisit } from '../entities/bug-last-visit.entity.js';

/** bug_user_last_visit: when each user last visited each bug. Every method takes the handle: db.read or a tx. */
@Injectable()
export class LastVisitRepository {
  /** The user's visits of these bugs at or after `since` (DB format). */
  visits(sql: ReadSql, userId: number, bugIds: readonly number[], since: string): Promise<BugLastVisit[]> {
    if (!bugIds.length) return Promise.resolve([]);
    return sql.repository(BugLastVisit).find({ where: { userId, bugId: In([...bugIds]), lastVisitTs: MoreThanOrEqual(since) } });
  }

  /** Sets the user's visit of these bugs to `at` (one row per user and bug). */
  async record(tx: Sql, userId: number, bugIds: readonly number[], at: string): Promise<void> {
    const repository = tx.repository(BugLastVisit);
    const known = new Set((await repository.find({ select: { bugId: true }, where: { userId, bugId: In([...bugIds]) } })).map((v) => v.bugId));
    if (known.size) await repository.update({ userId, bugId: In([...known]) }, { lastVisitTs: at });
    await insertRows(repository, bugIds.filter((bugId) => !known.has(bugId)).map((bugId) => ({ userId, bugId, lastVisitTs: at })));
  }

  /** Drops the user's visits older than `before` (last_visit_keep_days). */
  async forget(tx: Sql, userId: number, before: string): Promise<void> {
    await tx.repository(BugLastVisit).delete({ userId, lastVisitTs: LessThan(before) });
  }
}
