import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Row, Sql, ReadSql } from '../database/sql.js';
import type { CompanionStatement } from '../common/http/companion-read.js';
import { AuditRepository, type AuditEntry } from './audit.repository.js';

export { settingsMarkSql, type AuditEntry } from './audit.repository.js';

/** The audit log: every create/update of an administrative object writes here, inside the write's transaction. */
@Injectable()
export class AuditService {
  private settingsMovesCommitted = 0;

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

  /**
   * The settings mark (settingsMarkSql) read on its own, for a request without a credential to read it with; with a
   * companion read, its rows in the same statement (CallerResolverService).
   */
  settingsMark(companion?: CompanionStatement): Promise<{ mark: number; companionRows: Row[] }> {
    return this.auditLog.settingsMark(this.db.read, companion);
  }

  /** Moves the settings mark (ChangeMarkSubscriber, for a transaction that wrote settings). */
  moveSettingsMark(tx: Sql): Promise<void> {
    return this.auditLog.moveSettingsMark(tx);
  }

  /** Called by ChangeMarkSubscriber once a transaction of this instance that moved the settings mark committed. */
  settingsMoveCommitted(): void {
    this.settingsMovesCommitted++;
  }

  /**
   * How many moves of the settings mark this instance has committed: a mark read before the count last changed may
   * be stale, though no read of the mark says so yet (a presumed caller is not presumed under it: PresumedCaller).
   */
  settingsMovesCommittedHere(): number {
    return this.settingsMovesCommitted;
  }
}
