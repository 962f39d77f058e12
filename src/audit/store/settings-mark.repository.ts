import { Injectable } from '@nestjs/common';
import type { Row, Sql, ReadSql } from '../../database/sql.js';
import { companionJoin, companionRows } from '../../database/companion.js';
import type { CompanionStatement } from '../../common/http/companion-read.js';
import { ChangeMark } from '../entities/change-mark.entity.js';

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

/** The settings mark's row of change_marks: read (with a companion read) and moved. */
@Injectable()
export class SettingsMarkRepository {
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
