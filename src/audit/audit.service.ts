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
