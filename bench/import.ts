/**
 * The import benchmark (issue 42): `npm run bench:import`.
 * 1. Loads the Bugzilla 5.0.6 fixture (test/fixtures/bugzilla-5.0.6, or BUGZILLA_FIXTURE) into a scratch
 *    MariaDB database and copies its bugs BENCH_COPIES times (default 326: ~100,000 bugs), each copy with its
 *    comments, history, attachments and their contents, flags, CC, keywords, dependencies, see-also, groups, custom
 *    values, aliases, comment tags and last visits, ids shifted.
 * 2. Imports it into BENCH_TARGET_URL (default a fresh SQLite file under the system's temporary folder; a MariaDB
 *    URL is dropped and re-created) and prints the time, the rows per second and the largest resident memory seen
 *    during the bugs' pages (bounded memory: it must not grow with the number of bugs). With `node --expose-gc`,
 *    the heap is measured after a collection at each page.
 * 3. Changes BENCH_DELTA_BUGS bugs in the source (default 100, spread over the copies: a comment added and delta_ts
 *    moved, as Bugzilla does) and times the delta import (`--since-last`) that brings them over.
 * BENCH_SOURCE_SERVER (default mysql://root@127.0.0.1:3306) holds the scratch database, dropped at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { importBugzilla } from '../src/import/bugzilla-importer.js';
import { BUGZILLA_FIXTURE, loadBugzillaFixture } from './bugzilla-fixture.js';

const FIXTURE = BUGZILLA_FIXTURE;
const COPIES = Number(process.env.BENCH_COPIES ?? 326);
const SERVER = process.env.BENCH_SOURCE_SERVER ?? 'mysql://root@127.0.0.1:3306';
const SOURCE = `bench_bugzilla_${process.pid}`;
const DELTA_BUGS = Number(process.env.BENCH_DELTA_BUGS ?? 100);

/** Per table: the columns shifted by (copy × the step) in each copy, and the text columns made unique. */
const COPIED: Record<string, { shift: Record<string, number>; unique?: string[] }> = {
  bugs: { shift: { bug_id: 1000 } },
  longdescs: { shift: { comment_id: 10_000, bug_id: 1000 } },
  longdescs_tags: { shift: { id: 1000, comment_id: 10_000 } },
  bugs_activity: { shift: { id: 10_000, bug_id: 1000, attach_id: 1000, comment_id: 10_000 } },
  attachments: { shift: { attach_id: 1000, bug_id: 1000 } },
  attach_data: { shift: { id: 1000 } },
  flags: { shift: { id: 1000, bug_id: 1000, attach_id: 1000 } },
  cc: { shift: { bug_id: 1000 } },
  keywords: { shift: { bug_id: 1000 } },
  dependencies: { shift: { blocked: 1000, dependson: 1000 } },
  duplicates: { shift: { dupe: 1000, dupe_of: 1000 } },
  bug_see_also: { shift: { id: 1000, bug_id: 1000 } },
  bug_group_map: { shift: { bug_id: 1000 } },
  bug_cf_platforms: { shift: { bug_id: 1000 } },
  bugs_aliases: { shift: { bug_id: 1000 }, unique: ['alias'] },
  bug_user_last_visit: { shift: { id: 1000, bug_id: 1000 } },
};

async function multiply(connection: mysql.Connection): Promise<void> {
  await connection.query('SET FOREIGN_KEY_CHECKS = 0');
  for (const [table, { shift, unique = [] }] of Object.entries(COPIED)) {
    const [columns] = await connection.query('SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION', [SOURCE, table]);
    const names = (columns as Array<{ name: string }>).map((c) => c.name);
    const list = names.map((n) => mysql.escapeId(n)).join(', ');
    const started = Date.now();
    // Copies in batches of 20, so that one statement stays a reasonable size.
    for (let from = 1; from < COPIES; from += 20) {
      const copies = Array.from({ length: Math.min(20, COPIES - from) }, (_, i) => from + i);
      const selects = copies.map((copy) => {
        const values = names.map((n) => (shift[n] !== undefined ? `${mysql.escapeId(n)} + ${shift[n] * copy}` : unique.includes(n) ? `CONCAT(${mysql.escapeId(n)}, '-${copy}')` : mysql.escapeId(n)));
        return `SELECT ${values.join(', ')} FROM ${mysql.escapeId(table)} WHERE ${mysql.escapeId(Object.keys(shift)[0])} < ${Object.values(shift)[0]}`;
      });
      await connection.query(`INSERT INTO ${mysql.escapeId(table)} (${list}) ${selects.join(' UNION ALL ')}`);
    }
    process.stdout.write(`  ${table}: ×${COPIES} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

/**
 * Changes DELTA_BUGS bugs spread over the copies as a Bugzilla user would: a comment added, delta_ts moved to now
 * (after the import's reading, so that --since-last finds them and no other bug).
 */
async function changeBugs(connection: mysql.Connection): Promise<void> {
  const [rows] = await connection.query('SELECT bug_id FROM bugs ORDER BY bug_id');
  const ids = (rows as Array<{ bug_id: number }>).map((r) => r.bug_id);
  const step = Math.max(1, Math.floor(ids.length / DELTA_BUGS));
  const changed = ids.filter((_, i) => i % step === 0).slice(0, DELTA_BUGS);
  await connection.query(
    `INSERT INTO longdescs (bug_id, who, bug_when, thetext) SELECT bug_id, reporter, NOW(), 'changed for the delta import benchmark' FROM bugs WHERE bug_id IN (?)`,
    [changed],
  );
  await connection.query('UPDATE bugs SET delta_ts = NOW() WHERE bug_id IN (?)', [changed]);
}

async function main(): Promise<void> {
  const target = process.env.BENCH_TARGET_URL ?? `sqlite:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-')), 'tracker.sqlite')}`;
  if (!target.startsWith('sqlite:')) {
    const location = new URL(target);
    const admin = await mysql.createConnection({ uri: `${location.protocol}//${location.username}${location.password ? `:${location.password}` : ''}@${location.host}` });
    const name = location.pathname.slice(1);
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
  }
  process.stdout.write(`Loading the fixture into ${SOURCE} and copying it ×${COPIES}…\n`);
  await loadBugzillaFixture(SERVER, SOURCE);
  const sourceUrl = `${SERVER.replace(/\/$/, '')}/${SOURCE}`;
  const connection = await mysql.createConnection(sourceUrl);
  try {
    await multiply(connection);
    const params = JSON.parse(fs.readFileSync(`${FIXTURE}/bugzilla-5.0.6-params.json`, 'utf8')) as Record<string, unknown>;
    let peak = 0;
    let peakHeap = 0;
    const gc = (globalThis as { gc?: () => void }).gc;
    let lastLine = 0;
    const started = Date.now();
    const summary = await importBugzilla({
      from: sourceUrl,
      to: target,
      params,
      progress: (stage, done, total) => {
        gc?.();
        peak = Math.max(peak, process.memoryUsage().rss);
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
        if (Date.now() - lastLine > 5000 || done === total) {
          lastLine = Date.now();
          process.stdout.write(`  ${stage} ${done}/${total}, ${((Date.now() - started) / 1000).toFixed(0)} s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB\n`);
        }
      },
    });
    const rows = Object.values(summary.counts).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `\nImported ${summary.counts.bugs} bugs, ${summary.counts.comments} comments, ${summary.counts['history entries']} history rows, ` +
        `${summary.counts.attachments} attachments into ${target.split(':')[0]}: ${summary.seconds.toFixed(1)} s, ` +
        `${(rows / summary.seconds).toFixed(0)} rows/s, ${(summary.counts.bugs / summary.seconds).toFixed(0)} bugs/s, largest rss ${(peak / 2 ** 20).toFixed(0)} MiB, heap ${(peakHeap / 2 ** 20).toFixed(0)} MiB${gc ? ' (after a GC at each page)' : ''}\n`,
    );
    await changeBugs(connection);
    const delta = await importBugzilla({ from: sourceUrl, to: target, params, sinceLast: true });
    process.stdout.write(
      `Delta import (--since-last) of ${DELTA_BUGS} changed bugs: ${delta.seconds.toFixed(2)} s (${delta.counts.bugs} bugs, ${delta.counts.comments} comments written again)\n`,
    );
  } finally {
    await connection.query(`DROP DATABASE IF EXISTS \`${SOURCE}\``);
    await connection.end();
  }
}

await main();
