import { Injectable } from '@nestjs/common';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { AuditLogEntry } from './entities/audit-log-entry.entity.js';

/** One audit row as the services write it. */
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

/** The audit_log table: written inside each write's transaction, read for the last audit time. */
@Injectable()
export class AuditRepository {
  /** Many rows in one statement. */
  async insertMany(tx: Sql, entries: readonly AuditEntry[]): Promise<void> {
    const rows = entries.map((entry) => ({
      userId: entry.userId,
      class: entry.className,
      objectId: entry.objectId,
      field: entry.field,
      removed: entry.removed ?? null,
      added: entry.added ?? null,
      atTime: entry.at,
    }));
    await insertRows(tx.repository(AuditLogEntry), rows);
  }

  /** The time of the newest row of any of these classes (of any class when none is given), or null. */
  async lastTime(sql: ReadSql, classes: readonly string[]): Promise<string | null> {
    const query = sql.repository(AuditLogEntry).createQueryBuilder('audit').select('MAX(audit.atTime)', 'at');
    if (classes.length) query.where('audit.class IN (:...classes)', { classes });
    const row = await query.getRawOne<{ at: string | null }>();
    return row?.at ?? null;
  }
}
