/**
 * The Search Bugs benchmark (issue 11), one command: `npm run bench:search`.
 * 1. Starts Tracker (built, a separate process) on a fresh MariaDB database, creates the catalogue through the API
 *    (a product of ~2,000 bugs, 19 more products, 50 users), stops it, writes the bugs in bulk through the bug
 *    entities' repositories (multi-row INSERTs, no API calls), and starts it again (so no kept value predates them).
 * 2. Phase "2,000": `GET /rest/bug?product=X&limit=50` (50 full bugs, 8 connections), the issue's reference shape.
 * 3. Phase "100,000": ~98,000 more bugs over 20 products, 5 statuses, 50 assignees and reporters, every 10th with
 *    an alias; then the indexed criteria (product + status, assignee, creator, alias, id list, last_change_time) with
 *    limit=50, a summary substring, and count_only on a product.
 * The load generator is wrk (C; it takes less CPU from the service than a Node one): `wrk -t2 -c8`, several runs per
 * scenario; medians of requests/s, p50 and p95 latency are printed as a Markdown table, then the EXPLAIN of the main
 * query shapes (the statements built by the search repository, for an anonymous caller, as the requests are).
 * 4. Phase "paging" (issue 44): one search over all the bugs (last_change_time, order by id, 100 bugs a page), page 1
 *    and page 1,000 reached by `next` cursors (keyset), against page 1,000 by `offset` (an OFFSET scan).
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/tracker_bench_search) is dropped and re-created.
 * Options: BENCH_RUNS (default 3), BENCH_SECONDS (default 10), BENCH_TOTAL_BUGS (default 100000), BENCH_PAGING_ONLY=1
 * (phase "paging" alone, after writing the bugs).
 */
import { benchService, median, wrk, type WrkFigures } from './support.js';
import type { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { openDataSource } from '../src/database/open-data-source.js';
import { dialectOf } from '../src/database/dialect.js';
import { Sql } from '../src/database/sql.js';
import { insertRows } from '../src/database/entity-rows.js';
import { ENTITIES } from '../src/entities.js';
import { Bug } from '../src/bug/entities/bug.entity.js';
import { BugAlias } from '../src/bug/entities/bug-alias.entity.js';
import { Caller, type ParameterSnapshot } from '../src/common/caller.js';
import { BugCriteriaRepository } from '../src/bug/bug-criteria.repository.js';
import { idsMatcher, matcher } from '../src/bug-search/search-matchers.js';
import { BugVisibilityRepository } from '../src/bug/store/bug-visibility.repository.js';
import type { SqlCondition } from '../src/bug/store/bug-visibility.repository.js';

const PORT = Number(process.env.BENCH_PORT ?? 3918);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TOTAL = Number(process.env.BENCH_TOTAL_BUGS ?? 100000);
const FIRST = 2000;
const PRODUCTS = 20;
const USERS = 50;
const STATUSES = ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED', 'VERIFIED'];
const PAGING_ONLY = process.env.BENCH_PAGING_ONLY === '1';
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/tracker_bench_search';
const { api, recreateDatabase, startServer, stopServer } = benchService({ port: PORT, databaseUrl: DATABASE_URL });
const WORDS = ['crash', 'slow', 'render', 'layout', 'memory', 'leak', 'network', 'timeout', 'editor', 'toolbar', 'printing', 'scroll'];

interface Catalogue {
  products: Array<{ id: number; name: string; componentId: number }>;
  userIds: number[];
}

/** Products, components and users through the API (the service's own rules). */
async function createCatalogue(): Promise<Catalogue> {
  const products: Catalogue['products'] = [];
  for (let p = 0; p < PRODUCTS; p++) {
    const name = `Bench${p}`;
    const id = (await api('POST', '/product', { name, description: `Benchmark product ${p}`, version: '1.0', is_open: true })).id as number;
    const componentId = (await api('POST', '/component', { product: name, name: 'Core', description: 'Core component', default_assignee: 'admin@example.com' })).id as number;
    products.push({ id, name, componentId });
  }
  const userIds: number[] = [];
  for (let u = 0; u < USERS; u++) userIds.push((await api('POST', '/user', { email: `user${u}@example.com`, full_name: `User ${u}`, password: 'password-1' })).id as number);
  return { products, userIds };
}

const stamp = (base: number, offsetSeconds: number): string => new Date(base + offsetSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** Bugs `from`..`to`-1 in bulk (500 rows per INSERT) through the Bug and BugAlias repositories. */
async function writeBugs(db: DataSource, catalogue: Catalogue, from: number, to: number, onlyFirstProduct: boolean): Promise<void> {
  const start = Date.UTC(2020, 0, 1);
  for (let chunk = from; chunk < to; chunk += 5000) {
    const rows: Array<Partial<Bug>> = [];
    for (let i = chunk; i < Math.min(chunk + 5000, to); i++) {
      const product = catalogue.products[onlyFirstProduct ? 0 : i % PRODUCTS];
      // Not i % 5: products cycle by i % 20, and every product must hold every status.
      const status = STATUSES[Math.floor(i / PRODUCTS) % STATUSES.length];
      rows.push({
        summary: `Bench bug ${i}: ${WORDS[i % WORDS.length]} in ${WORDS[(i * 7) % WORDS.length]} ${i % 97 === 0 ? 'zebrafish' : ''}`.trim(),
        status, resolution: status === 'RESOLVED' || status === 'VERIFIED' ? 'FIXED' : '',
        productId: product.id, componentId: product.componentId, version: '1.0', targetMilestone: '---', opSys: 'Linux', platform: 'PC',
        priority: 'Normal', severity: 'normal', reporterId: catalogue.userIds[(i * 3) % USERS], assignedToId: catalogue.userIds[i % USERS],
        qaContactId: null, url: '', whiteboard: '', isConfirmed: true, isCreatorAccessible: true, isCcAccessible: true,
        estimatedTime: 0, remainingTime: 0, deadline: null, creationTime: stamp(start, i * 60), lastChangeTime: stamp(start, i * 60 + 30),
      });
    }
    // A fresh database with no other bugs: bug number i has id i + 1.
    const aliasRows = rows.flatMap((_, k) => ((chunk + k) % 10 === 0 ? [{ bugId: chunk + k + 1, alias: `bench-${chunk + k}` }] : []));
    // A write outside a transaction is refused (WriteOutsideTransaction): each chunk is one.
    await db.transaction(async (manager) => {
      await insertRows(manager.getRepository(Bug), rows);
      await insertRows(manager.getRepository(BugAlias), aliasRows);
    });
  }
}


async function measure(scenarios: Array<[name: string, query: string, shown?: string]>): Promise<string[]> {
  const lines: string[] = [];
  for (const [name, query, shown = query] of scenarios) {
    const url = `${BASE}/rest/bug?${query}`;
    const check = await (await fetch(url)).json() as { bugs?: unknown[]; bug_count?: number; error?: boolean; message?: string };
    if (check.error) throw new Error(`${name}: ${check.message}`);
    const answered = check.bugs ? `${check.bugs.length} bugs` : `count ${check.bug_count}`;
    const runs: WrkFigures[] = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(await wrk(url, SECONDS));
      process.stderr.write(`  ${name}: ${runs[i].rps.toFixed(0)} req/s, p50 ${runs[i].p50} ms, p95 ${runs[i].p95} ms\n`);
    }
    lines.push(`| ${name} | \`${shown}\` | ${answered} | ${median(runs.map((r) => r.rps)).toFixed(0)} | ${median(runs.map((r) => r.p50)).toFixed(1)} | ${median(runs.map((r) => r.p95)).toFixed(1)} | ${runs.reduce((n, r) => n + r.errors, 0)} |`);
  }
  return lines;
}

/** The query of page `page` (from 1) of a search paged by cursor: the first page's, then each answer's `next`. */
async function cursorPage(query: string, page: number): Promise<string> {
  let paged = query;
  for (let n = 1; n < page; n++) {
    const answer = await (await fetch(`${BASE}/rest/bug?${paged}`)).json() as { next?: string };
    if (!answer.next) throw new Error(`the search has fewer than ${page} pages`);
    paged = `${query}&cursor=${encodeURIComponent(answer.next)}`;
  }
  return paged;
}

/** Phase "paging": a mirror's one search over every bug, 100 a page, at its start and at page 1,000. */
async function measurePaging(): Promise<string[]> {
  const all = `last_change_time=2019-12-31T00:00:00Z&order=bug_id&limit=100&include_fields=id,summary,status,last_change_time`;
  const last = Math.min(1000, Math.floor(TOTAL / 100));
  return [
    '', `Phase paging (issue 44): ${TOTAL} bugs, one search over all of them, 100 a page; same settings.`, '',
    '| scenario | query | answer | requests/s | p50 (ms) | p95 (ms) | errors |', '|---|---|---|---|---|---|---|',
    ...await measure([
      ['cursor, page 1', all],
      [`cursor, page ${last}`, await cursorPage(all, last), `${all}&cursor=<page ${last - 1}'s next>`],
      [`offset, page ${last}`, `${all}&offset=${(last - 1) * 100}`],
    ]),
  ];
}

const anonymousParameters: ParameterSnapshot = { get: () => '', bool: () => false, int: () => 0, all: () => ({}) };

/** EXPLAIN of the statements Search Bugs builds for these shapes (anonymous caller, as the load). */
async function explain(db: DataSource, catalogue: Catalogue, userId: number): Promise<string[]> {
  const sql = new Sql(db.manager, dialectOf(db));
  const search = new BugCriteriaRepository();
  const visible = new BugVisibilityRepository().predicate(sql, Caller.anonymous(anonymousParameters));
  const where = (condition: SqlCondition): SqlCondition => ({ sql: `${condition.sql} AND ${visible.sql}`, params: [...condition.params, ...visible.params] });
  const text = (base: Parameters<typeof matcher>[1], values: string[]) => matcher(sql, base, values, 'text', 'bench');
  const ids = (values: number[]) => idsMatcher(sql, values);
  const shapes: Array<[string, SqlCondition]> = [
    ['product', search.onBug(sql, 'product_id', ids([catalogue.products[0].id]))],
    ['product + status', { sql: `(${search.onBug(sql, 'product_id', ids([catalogue.products[3].id])).sql} AND ${search.onBug(sql, 'status', text('in', ['CONFIRMED'])).sql})`, params: [catalogue.products[3].id, 'CONFIRMED'] }],
    ['assignee', search.onBug(sql, 'assigned_to_id', ids([userId]))],
    ['alias', search.related(sql, 'aliases', text('in', ['bench-5000']))],
    ['last_change_time', search.onBug(sql, 'last_change_time', matcher(sql, 'greaterthaneq', [stamp(Date.UTC(2020, 0, 1), (TOTAL - 3000) * 60)], 'datetime', 'delta_ts'))],
    ['summary substring', search.onBug(sql, 'summary', text('substring', ['zebrafish']))],
  ];
  const lines: string[] = [];
  for (const [name, condition] of shapes) {
    const full = where(condition);
    const q = sql.quote;
    const statement = `SELECT ${q('b.id')} FROM ${q('bugs')} b WHERE ${full.sql} ORDER BY ${q('b.id')} LIMIT 50 OFFSET 0`;
    const rows = await db.query<Array<Record<string, unknown>>>(`EXPLAIN ${statement}`, full.params);
    lines.push(`-- ${name}`, statement, ...rows.map((r) => `   ${['id', 'select_type', 'table', 'type', 'key', 'rows', 'Extra'].map((k) => `${k}=${String(r[k] ?? '')}`).join(' ')}`), '');
  }
  const count = where(search.onBug(sql, 'product_id', ids([catalogue.products[5].id])));
  const rows = await db.query<Array<Record<string, unknown>>>(`EXPLAIN SELECT COUNT(*) FROM ${sql.quote('bugs')} b WHERE ${count.sql}`, count.params);
  lines.push('-- count_only on a product', ...rows.map((r) => `   ${['id', 'select_type', 'table', 'type', 'key', 'rows', 'Extra'].map((k) => `${k}=${String(r[k] ?? '')}`).join(' ')}`));
  return lines;
}

async function main(): Promise<void> {
  await recreateDatabase();
  let server = await startServer();
  const catalogue = await createCatalogue();
  await stopServer(server);
  const db = await openDataSource(dataSourceOptions(DATABASE_URL, ENTITIES));
  const out: string[] = [];
  try {
    process.stderr.write(`writing ${FIRST} bugs in ${catalogue.products[0].name} …\n`);
    await writeBugs(db, catalogue, 0, FIRST, true);
    if (PAGING_ONLY) {
      await writeBugs(db, catalogue, FIRST, TOTAL, false);
      await db.query('ANALYZE TABLE `bugs`, `bug_aliases`');
      server = await startServer();
      try {
        out.push(...await measurePaging());
      } finally {
        await stopServer(server);
      }
      process.stdout.write(`${out.join('\n')}\n`);
      return;
    }
    server = await startServer();
    try {
      out.push(`Phase 1: ${FIRST} bugs in one product; wrk -t2 -c8, ${RUNS} runs of ${SECONDS} s, medians; anonymous caller.`, '',
        '| scenario | query | answer | requests/s | p50 (ms) | p95 (ms) | errors |', '|---|---|---|---|---|---|---|',
        ...await measure([['product, 50 full bugs', `product=${catalogue.products[0].name}&limit=50`]]));
    } finally {
      await stopServer(server);
    }
    process.stderr.write(`writing ${TOTAL - FIRST} more bugs …\n`);
    const started = Date.now();
    await writeBugs(db, catalogue, FIRST, TOTAL, false);
    process.stderr.write(`  written in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await db.query('ANALYZE TABLE `bugs`, `bug_aliases`');
    server = await startServer();
    try {
      const someIds = [17, 4242, 31337, 55555, 77777, 99001].filter((id) => id <= TOTAL).join(',');
      // The last 3,000 bugs changed at or after this moment.
      const recent = `${stamp(Date.UTC(2020, 0, 1), (TOTAL - 3000) * 60).replace(' ', 'T')}Z`;
      out.push('', `Phase 2: ${TOTAL} bugs over ${PRODUCTS} products; same settings.`, '',
        '| scenario | query | answer | requests/s | p50 (ms) | p95 (ms) | errors |', '|---|---|---|---|---|---|---|',
        ...await measure([
          ['product + status', `product=${catalogue.products[3].name}&status=CONFIRMED&limit=50`],
          ['assignee', `assigned_to=user13@example.com&limit=50`],
          ['creator', `creator=user7@example.com&limit=50`],
          ['alias', `alias=bench-5000`],
          ['id list', `id=${someIds}`],
          ['last_change_time', `last_change_time=${recent}&limit=50`],
          ['product, 50 full bugs', `product=${catalogue.products[0].name}&limit=50`],
          ['summary substring', `summary=zebrafish&limit=50`],
          ['count_only on a product', `product=${catalogue.products[5].name}&count_only=1`],
        ]), ...await measurePaging());
    } finally {
      await stopServer(server);
    }
    out.push('', 'EXPLAIN (MariaDB) of the main shapes, as the search repository builds them for an anonymous caller:', '', '```',
      ...await explain(db, catalogue, catalogue.userIds[13]), '```');
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await db.destroy();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
