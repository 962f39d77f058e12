import { Injectable } from '@nestjs/common';
import { LessThan } from 'typeorm';
import { insertRows, type NewRow } from '../database/entity-rows.js';
import type { ReadSql, Sql } from '../database/sql.js';
import { BugChange } from './entities/bug-change.entity.js';

export type ChangeRow = Pick<BugChange, 'id' | 'bugId' | 'kinds' | 'changedAt'>;

/** A change to number: its bug (a new bug's id may still be held in the database), kinds and time. */
export type NewChange = NewRow<Omit<BugChange, 'id'>>;

/** The change feed's table (bug_changes): the only place that names it. */
@Injectable()
export class ChangeFeedRepository {
  async add(tx: Sql, rows: readonly NewChange[]): Promise<void> {
    await insertRows(tx.repository(BugChange), rows);
  }

  /** The rows numbered `missing` or above `after`, by number: at most `limit`. */
  page(sql: ReadSql, after: number, missing: readonly number[], limit: number): Promise<ChangeRow[]> {
    const query = sql.repository(BugChange).createQueryBuilder('c')
      .select(['c.id', 'c.bugId', 'c.kinds', 'c.changedAt'])
      .where('c.id > :after', { after });
    if (missing.length) query.orWhere('c.id IN (:...missing)', { missing: [...missing] });
    return query.orderBy('c.id', 'ASC').limit(limit).getMany();
  }

  /** The `count` newest rows, newest first. */
  newest(sql: ReadSql, count: number): Promise<ChangeRow[]> {
    return sql.repository(BugChange).find({ select: { id: true, bugId: true, kinds: true, changedAt: true }, order: { id: 'DESC' }, take: count });
  }

  /** The lowest number still kept, or null when none is. */
  async lowest(sql: ReadSql): Promise<number | null> {
    const [row] = await sql.repository(BugChange).find({ select: { id: true }, order: { id: 'ASC' }, take: 1 });
    return row?.id ?? null;
  }

  /** Removes the rows written before `before` (DB format). */
  async prune(tx: Sql, before: string): Promise<void> {
    await tx.repository(BugChange).delete({ changedAt: LessThan(before) });
  }
}
