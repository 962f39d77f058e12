import type { Sql } from '../database/sql.js';

/**
 * Quotes a table or column name, or an `alias.column`, in the handle's dialect, for the hand-written SQL of the hot
 * paths (MySQL 8 reserves `groups`, `rank`, `system` …): `q('b.id')` is `` `b`.`id` `` on MySQL, `"b"."id"` on SQLite.
 */
export function quoter(sql: Pick<Sql, 'quote'>): (name: string) => string {
  return (name) => name.split('.').map((part) => sql.quote(part)).join('.');
}
