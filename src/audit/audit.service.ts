import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import { AuditRepository, type AuditEntry } from './audit.repository.js';

export type { AuditEntry } from './audit.repository.js';

/** The audit log: every create/update of an administrative object writes here, inside the write's transaction. */
@Injectable()
export class AuditService {
  constructor(private readonly db: Db, private readonly auditLog: AuditRepository) {}

  async record(tx: Sql, entry: AuditEntry): Promise<void> {
    await this.recordMany(tx, [entry]);
  }

  /** Many entries in one statement (a bug update records one row per changed field). */
  async recordMany(tx: Sql, entries: readonly AuditEntry[]): Promise<void> {
    await this.auditLog.insertMany(tx, entries);
  }

  /** Creation of an object: Bugzilla audits it as field `__create__` with the object's name as added value. */
  recordCreate(tx: Sql, entry: Omit<AuditEntry, 'field' | 'removed'>): Promise<void> {
    return this.record(tx, { ...entry, field: '__create__', removed: null });
  }

  /** The time (`YYYY-MM-DD hh:mm:ss` UTC) of the newest audit row of any of these classes, or of any class; null when none. */
  lastChangeTime(classes: readonly string[], sql: ReadSql = this.db.read): Promise<string | null> {
    return this.auditLog.lastTime(sql, classes);
  }
}
