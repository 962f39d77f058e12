import type { CompanionStatement } from '../common/http/companion-read.js';
import type { Row, SqlValue } from './sql.js';

/**
 * The join that brings a companion read's rows (see common/http/companion-read.ts) beside the one row of a
 * statement: `SELECT ${columns}<the statement's own columns> FROM <base> ${join} WHERE …` gives one row per companion
 * row, or one row whose companion columns are all null when it found none. Its parameters come before the statement's
 * own (whose select list must bind none). The companion's columns come first: should one ever share a name with the
 * statement's own (the drivers keep the last of two), the credential's value wins, never the companion's.
 */
export function companionJoin(companion: CompanionStatement | undefined): { columns: string; join: string; params: SqlValue[] } {
  if (!companion) return { columns: '', join: '', params: [] };
  return {
    columns: `${companion.columns}, `,
    join: `LEFT JOIN ${companion.table} ON ${companion.on}`,
    params: [...companion.columnParams, ...companion.onParams],
  };
}

/** The companion's own rows of such a statement: its `c_…` columns, leaving out the row of nulls an empty join gives. */
export function companionRows(rows: readonly Row[]): Row[] {
  const found: Row[] = [];
  for (const row of rows) {
    const own: Row = {};
    let any = false;
    for (const name in row) {
      if (!name.startsWith('c_')) continue;
      own[name] = row[name];
      any ||= row[name] !== null;
    }
    if (any) found.push(own);
  }
  return found;
}
