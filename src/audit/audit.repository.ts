import { Injectable } from '@nestjs/common';
import { type Row, type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { companionJoin, companionRows } from '../database/companion.js';
import type { CompanionStatement } from '../common/http/companion-read.js';
import { AuditLogEntry } from './entities/audit-log-entry.entity.js';
import { ChangeMark } from './entities/change-mark.entity.js';

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

/** The row of change_marks that counts committed writes of settings tables (ChangeMark). */
const SETTINGS = 'settings';

/**
 * The settings mark, as a SQL expression to read beside other columns (caller resolution, the loaded-bug stamp): it
 * moves with every committed transaction that wrote a table not marked @ActivityTable (ChangeMarkSubscriber), so the
 * catalogue's reads (products, fields, workflow …) can be kept while it stays the same (KeptReads), even while bugs
 * are being filed. A counter row moved inside the writing transaction: its row lock orders the moves as the commits.
 * `quote` is the dialect's identifier quoting (`Sql.quote`): the expression is embedded in other modules' reads.
 */
export function settingsMarkSql(quote: (identifier: string) => string): string {
  return `(SELECT ${quote('version')} FROM ${quote('change_marks')} WHERE ${quote('name')} = '${SETTINGS}')`;
}

/** The audit_log table (written inside each write's transaction, read for the last audit time) and the settings mark. */
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

  /**
   * The settings mark, for a request that has no credential to read it with (an anonymous caller); with a companion
   * read, its rows in the same statement (companionJoin).
   */
  async settingsMark(sql: ReadSql, companion?: CompanionStatement): Promise<{ mark: number; companionRows: Row[] }> {
    const q = sql.quote;
    const join = companionJoin(companion);
    // Based on the mark's own row, not a one-row derived table: a sixth less for MariaDB on every anonymous request.
    const rows = await sql.all<Row>(
      `SELECT ${join.columns}${q('m.version')} AS ${q('settings')} FROM ${q('change_marks')} m ${join.join} WHERE ${q('m.name')} = '${SETTINGS}'`,
      join.params,
    );
    // Installed by the SettingsMark migration and never deleted: without it no answer could be trusted as current.
    if (!rows.length) throw new Error(`change_marks has no '${SETTINGS}' row: the database's install data is incomplete`);
    return { mark: Number(rows[0].settings), companionRows: companionRows(rows) };
  }

  /** Moves the settings mark, in the transaction that changed settings. */
  async moveSettingsMark(tx: Sql): Promise<void> {
    await tx.repository(ChangeMark).increment({ name: SETTINGS }, 'version', 1);
  }
}
