import type { EntityManager } from 'typeorm';
import { Sql, type SqlValue } from '../../src/database/sql.js';
import { Caller, type ParameterSnapshot } from '../../src/common/caller.js';

/** A MySQL handle that records the statements it is given and answers no rows (the hot paths' quoting specs). */
export function recordingMysqlHandle(): { sql: Sql; statements: string[] } {
  const statements: string[] = [];
  const sql = new Sql({} as EntityManager, 'mysql', async (text: string, _params: SqlValue[]) => {
    statements.push(text);
    return [];
  });
  return { sql, statements };
}

const parameters = (values: Record<string, string>): ParameterSnapshot => ({
  get: (name) => values[name] ?? '',
  bool: (name) => values[name] === '1',
  int: (name) => Number(values[name] ?? 0),
  all: () => values,
});

/** A member of group 3 ("red"), with or_groups and useqacontact on. */
export const member = new Caller(
  { id: 7, login: 'dev@example.com', realName: '', email: 'dev@example.com' },
  { memberOf: new Map([[3, 'red']]), canBless: new Set(), canSee: new Set() },
  parameters({ or_groups: '1', useqacontact: '1' }),
);

/** Identifiers written bare where a table or an `alias.column` is named: every one must be quoted. */
export function unquotedIdentifiers(statement: string): string[] {
  const withoutStrings = statement.replace(/'[^']*'/g, "''");
  const tables = [...withoutStrings.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)\b/g)].map((m) => m[1]);
  const columns = [...withoutStrings.matchAll(/(?<![`\w])([a-z_]+)\.([a-z_]+)\b/g)].map((m) => m[0]);
  return [...tables, ...columns];
}
