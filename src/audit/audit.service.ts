import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';

export interface AuditEntry {
  userId: number | null;
  /** The audited class, `Tracker::Product` style (GET /rest/last_audit_time filters on it). */
  className: string;
  objectId: number;
  field: string;
  removed?: string | null;
  added?: string | null;
  /** The request's one timestamp, `YYYY-MM-DD hh:mm:ss` UTC. */
  at: string;
}

/**
 * The audit mark, as a SQL expression to read beside other columns: it moves with every committed audited change,
 * so values read from the database can be kept while it stays the same (MarkedCache, LoadedBugCache). It is the
 * newest id together with the number of rows among the newest 100 ids: a transaction that took its audit id
 * before another one committed still moves the mark when it commits (the newest id alone would not). Only a
 * transaction outlived by more than 100 later audit rows could go unseen — and then only until the next audited
 * change, which on a database that busy comes at once.
 */
export const AUDIT_MARK_SQL =
  '(SELECT COALESCE(MAX(id), 0) * 128 + COUNT(*) FROM audit_log WHERE id > (SELECT COALESCE(MAX(id), 0) - 100 FROM audit_log))';

/** The audit log: every create/update of an administrative object writes here, inside the write's transaction. */
@Injectable()
export class AuditService {
  async record(tx: Sql, entry: AuditEntry): Promise<void> {
    await this.recordMany(tx, [entry]);
  }

  /** Many entries in one statement (a bug update records one row per changed field). */
  async recordMany(tx: Sql, entries: readonly AuditEntry[]): Promise<void> {
    await tx.insertMany('audit_log', entries.map((entry) => ({
      user_id: entry.userId,
      class: entry.className,
      object_id: entry.objectId,
      field: entry.field,
      removed: entry.removed ?? null,
      added: entry.added ?? null,
      at_time: entry.at,
    })));
  }

  /** Creation of an object: Bugzilla audits it as field `__create__` with the object's name as added value. */
  recordCreate(tx: Sql, entry: Omit<AuditEntry, 'field' | 'removed'>): Promise<void> {
    return this.record(tx, { ...entry, field: '__create__', removed: null });
  }
}
