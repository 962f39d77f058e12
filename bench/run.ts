/**
 * The benchmark of the bugs issue, one command: `npm run bench`.
 * Starts Tracker (built, as a separate process) on a fresh MariaDB database, generates the reference data shape
 * (~2,000 bugs in one product; the bug read has 13 comments, 2 cc, flags, keywords, see_also, dependencies and an
 * alias; the comments read is of a bug with 100 comments), then loads it with autocannon (8 connections) several times per scenario and prints the medians.
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/tracker_bench) is dropped and re-created.
 * Options: BENCH_RUNS (default 3), BENCH_SECONDS (default 10), BENCH_BUGS (default 2000).
 */
import autocannon from 'autocannon';
import { BENCH_API_KEY as API_KEY, benchService } from './support.js';

const PORT = Number(process.env.BENCH_PORT ?? 3917);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BUGS = Number(process.env.BENCH_BUGS ?? 2000);
const CONNECTIONS = 8;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/tracker_bench';
const { api, recreateDatabase, startServer } = benchService({ port: PORT, databaseUrl: DATABASE_URL });

async function inBatches<T>(count: number, parallel: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  }));
  return results;
}

/** The reference data shape; returns the ids of the richly populated bug that the read scenario fetches and of a bug with 100 comments. */
async function generate(): Promise<{ bugId: number; commentedBugId: number; product: string; component: string }> {
  const product = 'BenchProduct';
  const component = 'Core';
  await api('POST', '/product', { name: product, description: 'Benchmark product', version: '1.0', is_open: true });
  await api('POST', '/component', { product, name: component, description: 'Core component', default_assignee: 'admin@example.com' });
  await api('POST', '/keyword', { name: 'perf', description: 'performance' }).catch(() => undefined);
  await api('POST', '/keyword', { name: 'regression', description: 'regression' }).catch(() => undefined);
  await api('POST', '/flag_type', { name: 'review', description: 'review', target_type: 'bug', inclusions: [product] }).catch(() => undefined);
  for (const login of ['dev1@example.com', 'dev2@example.com']) {
    await api('POST', '/user', { email: login, full_name: login.split('@')[0], password: 'password-1' });
  }
  const base = { product, component, version: '1.0', op_sys: 'Linux', platform: 'PC', priority: 'Normal', severity: 'normal' };
  const ids = await inBatches(BUGS, 8, async (i) => (await api('POST', '/bug', { ...base, summary: `Benchmark bug ${i}`, description: `Description of bug ${i}` })).id as number);
  const bugId = ids[Math.floor(ids.length / 2)];
  await api('PUT', `/bug/${bugId}`, {
    alias: { add: ['bench-target'] },
    cc: { add: ['dev1@example.com', 'dev2@example.com'] },
    keywords: { add: ['perf', 'regression'] },
    see_also: { add: ['https://bugzilla.mozilla.org/show_bug.cgi?id=1'] },
    depends_on: { add: [ids[0], ids[1]] },
    blocks: { add: [ids[2]] },
    flags: [{ name: 'review', status: '?', requestee: 'dev1@example.com' }],
  });
  for (let i = 1; i <= 12; i++) await api('PUT', `/bug/${bugId}`, { comment: { body: `Comment ${i} on the benchmark bug` } });
  // The comments read: a bug of its own (the update scenario keeps commenting on bugId), its description and 99 comments.
  const commentedBugId = ids[ids.length - 1];
  await inBatches(99, 8, (i) => api('POST', `/bug/${commentedBugId}/comment`, { comment: `Comment ${i + 1} of a long discussion\n\nwith a second paragraph` }));
  return { bugId, commentedBugId, product, component };
}

interface Figures { requests: number; p99: number; errors: number }

async function load(name: string, options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
  const errors = result.errors + result.non2xx;
  process.stderr.write(`  ${name}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, errors ${errors}\n`);
  return { requests: result.requests.average, p99: result.latency.p99, errors };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  await recreateDatabase();
  const server = await startServer();
  try {
    process.stderr.write(`generating ${BUGS} bugs …\n`);
    const { bugId, commentedBugId, product, component } = await generate();
    const auth = `Bugzilla_api_key=${API_KEY}`;
    let counter = 0;
    const scenarios: Array<[string, () => autocannon.Options]> = [
      ['GET /rest/version', () => ({ url: `${BASE}/rest/version` })],
      ['GET /rest/bug/(id)', () => ({ url: `${BASE}/rest/bug/${bugId}?${auth}` })],
      ['GET /rest/bug/(id)/comment, 100 comments', () => ({ url: `${BASE}/rest/bug/${commentedBugId}/comment?${auth}` })],
      ['POST /rest/bug', () => ({
        url: `${BASE}/rest/bug?${auth}`, method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ product, component, version: '1.0', op_sys: 'Linux', platform: 'PC', summary: 'Load', description: 'Created under load' }),
      })],
      ['PUT /rest/bug/(id) status+cc+comment', () => ({
        url: `${BASE}/rest/bug/${bugId}?${auth}`, method: 'PUT', headers: { 'content-type': 'application/json' },
        setupRequest: (request: any) => {
          counter++;
          const status = counter % 2 ? 'IN_PROGRESS' : 'CONFIRMED';
          const cc = counter % 2 ? { add: ['dev2@example.com'] } : { remove: ['dev2@example.com'] };
          return { ...request, body: JSON.stringify({ status, cc, comment: { body: `load ${counter}` } }) };
        },
      })],
    ];
    const lines: string[] = [];
    for (const [name, options] of scenarios) {
      const runs: Figures[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await load(name, options()));
      lines.push(`| ${name} | ${median(runs.map((r) => r.requests)).toFixed(0)} | ${median(runs.map((r) => r.p99))} | ${runs.reduce((n, r) => n + r.errors, 0)} |`);
    }
    process.stdout.write(`\nMedians of ${RUNS} runs of ${SECONDS} s, ${CONNECTIONS} connections, ${BUGS} bugs, ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}\n\n`);
    process.stdout.write('| scenario | requests/s | p99 latency (ms) | errors |\n|---|---|---|---|\n');
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    server.kill();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
