import type { SqlValue, ReadSql } from '../database/sql.js';
import { concatSql, likeEscape } from '../database/dialect.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { ColumnMatcher } from '../bug/bug.types.js';
import type { BaseTest } from './search-criteria.js';
import type { ValueType } from './search-fields.js';

/**
 * The SQL of a base test of `values` (any of them) on a column expression of the given type, which the table's
 * owner supplies; dates arrive as DB text, booleans as 0/1. `label` names the field in errors. Case: text columns
 * carry case-insensitive collations (MariaDB utf8mb4_unicode_ci, SQLite NOCASE), LIKE is case-insensitive on both.
 */
export function matcher(sql: ReadSql, base: BaseTest, values: readonly SqlValue[], type: ValueType, label: string): ColumnMatcher {
  const any = (one: (column: string) => string, bound: (v: SqlValue) => SqlValue = (v) => v): ColumnMatcher => (column) =>
    values.length
      ? { sql: values.length === 1 ? one(column) : `(${values.map(() => one(column)).join(' OR ')})`, params: values.map(bound) }
      : { sql: '1 = 0', params: [] };
  const mysql = sql.dialect === 'mysql';
  const like = mysql ? 'LIKE ?' : "LIKE ? ESCAPE '\\'";
  switch (base) {
    case 'in':
      return (column) => (values.length
        ? { sql: `${column}${type === 'text' && !mysql ? ' COLLATE NOCASE' : ''} IN ${sql.in(values)}`, params: [...values] }
        : { sql: '1 = 0', params: [] });
    case 'substring':
      return any((c) => `${c} ${like}`, (v) => `%${likeEscape(String(v))}%`);
    case 'casesubstring':
      return any((c) => (mysql ? `INSTR(CAST(${c} AS BINARY), CAST(? AS BINARY)) > 0` : `INSTR(${c}, ?) > 0`));
    case 'regexp':
      if (!mysql) throw TrackerError.of(Errors.REGEXP_UNSUPPORTED, { field: label });
      return any((c) => `${c} REGEXP ?`);
    case 'word':
      // A word is delimited by spaces or the ends of the text.
      return any((c) => `${concatSql(sql.dialect, "' '", c, "' '")} ${like}`, (v) => `% ${likeEscape(String(v))} %`);
    case 'lessthan': return any((c) => `${c} < ?`);
    case 'lessthaneq': return any((c) => `${c} <= ?`);
    case 'greaterthan': return any((c) => `${c} > ?`);
    case 'greaterthaneq': return any((c) => `${c} >= ?`);
    case 'isempty':
      if (type === 'text') return (c) => ({ sql: `COALESCE(${c}, '') = ''`, params: [] });
      if (type === 'number' || type === 'bool') return (c) => ({ sql: `COALESCE(${c}, 0) = 0`, params: [] });
      return (c) => ({ sql: `${c} IS NULL`, params: [] });
  }
}

/** `column IN (ids)`: ids another module's service resolved (none: nothing matches). */
export function idsMatcher(sql: ReadSql, ids: readonly number[]): ColumnMatcher {
  return (column) => (ids.length ? { sql: `${column} IN ${sql.in(ids)}`, params: [...ids] } : { sql: '1 = 0', params: [] });
}
