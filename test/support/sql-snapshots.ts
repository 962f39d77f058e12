import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { diff } from 'jest-diff';
import { sentStatements } from './round-trips.js';
import { testDialect } from './test-database.js';

/**
 * SQL snapshots: the statements a hot path sends, committed beside the repositories that write them
 * (`src/<module>/sql/<path>.<dialect>.sql`), so that a change of a query shows in review as a diff of that file.
 * A test records them (`recordSql`) and compares them with the file (`expectSqlSnapshot`); UPDATE_SQL_SNAPSHOTS=1
 * writes the file instead. Values are `?` wherever the service binds them, so a file does not depend on ids, keys or
 * times; what the service writes into the text itself (a list's length, a constant) stays.
 */

/** The statements of one round trip to the database (MySQL: one query, maybe several statements; SQLite: one). */
export type RoundTrip = string;

const ROOT = path.resolve(import.meta.dirname, '../..');
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';

/** Every statement better-sqlite3 runs, by its text (bound values stay `?`), while `recording` is set. */
let recording: ((sql: string) => void) | undefined;
{
  // The prototype of better-sqlite3's statements, reached through a statement of an in-memory database of its own
  // (the package has no types: only that is declared here).
  type Database = { prepare(sql: string): object; close(): void };
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Database;
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('VALUES (1)')) as Record<'run' | 'get' | 'all' | 'iterate', (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = statement[method];
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      recording?.(this.source);
      return original.apply(this, args);
    };
  }
}

/**
 * The round trips the service made while `work` ran, as the service wrote their SQL (values bound as `?`). Left out:
 * the mail worker's (it claims and marks rows of mail_queue on its own schedule; a request only inserts them).
 */
export async function recordSql(work: () => Promise<unknown>): Promise<RoundTrip[]> {
  const request = (sql: string) => !/mail_queue/.test(sql) || /INSERT INTO [`"]mail_queue[`"]/.test(sql);
  if (testDialect() === 'mysql') return (await sentStatements(work)).filter(request).map(withoutData);
  const sent: string[] = [];
  recording = (sql) => {
    if (request(sql)) sent.push(withoutData(sql));
  };
  try {
    await work();
  } finally {
    recording = undefined;
  }
  return sent;
}

/**
 * `sql` without what depends on the data a test file made before: a list of values in `IN (…)` (how many groups the
 * caller is in, how many attachments a bug has) as `IN (?...)`, and the ids TypeORM writes into the text itself
 * instead of binding them (on SQLite: in a list, or compared with an id column) as `?`.
 */
function withoutData(sql: string): string {
  return sql
    .replace(/\b(IN|VALUES) ?\(([^()]*)\)/g, (_list, keyword: string, items: string) =>
      `${keyword} (${items.split(', ').map((item) => (/^\d+$/.test(item) ? '?' : item)).join(', ')})`)
    .replace(/\bIN \(\?(?:, \?)*\)/g, 'IN (?...)')
    .replace(/("(?:\w+_)?id") = \d+\b/g, '$1 = ?');
}

/** The steps of a path that is recorded in turns, each under a heading saying what it is. */
export type SqlSections = Readonly<Record<string, readonly RoundTrip[]>>;

/**
 * Compares `roundTrips` (or the `SqlSections` of a path recorded in turns) with the committed snapshot
 * `src/<name>.<dialect>.sql` (e.g. `bug/sql/get-bug`), failing with the difference; with UPDATE_SQL_SNAPSHOTS=1 writes
 * it instead. `about` says what the path is.
 */
export function expectSqlSnapshot(name: string, about: string, roundTrips: readonly RoundTrip[] | SqlSections): void {
  const dialect = testDialect();
  const file = path.join(ROOT, 'src', `${name}.${dialect}.sql`);
  const relative = path.relative(ROOT, file);
  const actual = snapshotText(about, roundTrips);
  if (UPDATE) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  const expected = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (actual === expected) return;
  throw new Error(
    `${relative} does not match the statements sent (${expected ? 'changed' : 'no such file'}). If the change is meant, `
    + `write the file again with UPDATE_SQL_SNAPSHOTS=1 (its header says how) and commit it.\n\n`
    + diff(expected, actual, { aAnnotation: 'Committed', bAnnotation: 'Sent', expand: false, contextLines: 3 }),
  );
}

function snapshotText(about: string, recorded: readonly RoundTrip[] | SqlSections): string {
  const testFile = path.relative(ROOT, expect.getState().testPath ?? '');
  const dialect = testDialect();
  const header = [
    `-- ${about}: the statements the service sends, ${dialect === 'mysql' ? 'one block per round trip to MariaDB/MySQL' : 'one block per statement SQLite runs'}.`,
    `-- Written by ${testFile}, "${expect.getState().currentTestName}". After a meant change, write it again with:`,
    `--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=${dialect}${dialect === 'mysql' ? ' TEST_DATABASE_URL=mysql://root@127.0.0.1:3306' : ''} \\`,
    `--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns ${path.basename(testFile)}`,
  ];
  const blocks = (roundTrips: readonly RoundTrip[]) =>
    roundTrips.map((sql, index) => `-- ${dialect === 'mysql' ? 'round trip' : 'statement'} ${index + 1}\n${sql.trim()};\n`).join('\n');
  const body = isSections(recorded)
    ? Object.entries(recorded).map(([heading, roundTrips]) => `-- ==== ${heading}\n\n${blocks(roundTrips)}`).join('\n')
    : blocks(recorded);
  return `${header.join('\n')}\n\n${numberedInOrder(body)}`;
}

function isSections(recorded: readonly RoundTrip[] | SqlSections): recorded is SqlSections {
  return !Array.isArray(recorded);
}

/** `text` with its savepoints numbered from 1 in the order they appear (the service numbers them across the process). */
function numberedInOrder(text: string): string {
  const numbers = new Map<string, number>();
  return text.replace(/\btracker_step_\d+\b/g, (name) => {
    if (!numbers.has(name)) numbers.set(name, numbers.size + 1);
    return `tracker_step_${numbers.get(name)}`;
  });
}
