import type { Row, SqlValue } from './sql.js';

/** A subquery and its bound values. */
export interface SqlFragment {
  sql: string;
  params: SqlValue[];
}

/**
 * The join that brings a companion read's rows (see common/http/companion-read.ts) beside the one row of a
 * statement: `SELECT ${columns}<the statement's own columns> FROM <base> ${join}` gives one row per companion row, or
 * one row whose companion columns are all null when it found none. Its parameters come before the statement's WHERE.
 * The companion's columns come first: should one ever share a name with the statement's own (the drivers keep the
 * last of two), the credential's value wins, never the companion's.
 */
export function companionJoin(companion: SqlFragment | undefined): { columns: string; join: string; params: SqlValue[] } {
  if (!companion) return { columns: '', join: '', params: [] };
  return { columns: 'c.*, ', join: `LEFT JOIN (${companion.sql}) c ON 1 = 1`, params: companion.params };
}

/** The companion's own rows of such a statement: its `c_…` columns, leaving out the row of nulls an empty join gives. */
export function companionRows(rows: readonly Row[]): Row[] {
  const own = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([name]) => name.startsWith('c_'))));
  return own.filter((row) => Object.values(row).some((value) => value !== null));
}
