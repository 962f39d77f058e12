/**
 * The benchmark of the bugs issue, one command: `npm run bench`.
 * Starts Tracker (built, as a separate process) on a fresh MariaDB database, generates the reference data shape
 * (~2,000 bugs in one product; the bug read has 13 comments, 2 cc, flags, keywords, see_also, dependencies and an
 * alias; the comments read is of a bug with 100 comments), then loads it with wrk (2 threads, 8 connections) several
 * times per scenario, after a warm-up run that is not counted (the first seconds of a path include its compilation),
 * and prints the medians. Each read is also sent to a bare baseline server (bench/baseline.ts:
 * Fastify + mysql2, one prepared statement, the same bytes) and reported as a ratio to it (issue 13). Also: the
 * service's cold start on the existing database, and its RSS after the runs and after reading every bug in turn
 * (BENCH_BUGS=100000 for the 100,000 distinct bugs).
 * The medians are also appended as a row of bench/runs.csv (every run's figures; bench/RESULTS.md says how to compare).
 * BENCH_DATABASE_URL (default mysql://root@127.0.0.1:3306/tracker_bench) is dropped and re-created.
 * Options: BENCH_RUNS (default 3), BENCH_SECONDS (default 10), BENCH_WARMUP_SECONDS (default 10), BENCH_BUGS (default 2000).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { ALTERNATING_UPDATE, BENCH_API_KEY as API_KEY, benchService, generateReferenceData, median, startBaseline, wrk, type WrkFigures } from './support.js';

const PORT = Number(process.env.BENCH_PORT ?? 3917);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
// A fresh process takes 10–15 s of load to reach its steady speed on a slow machine (V8 tiering up a request's
// whole path): a 2 s warm-up measured that climb (bench/runs.csv, sixth entry).
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const BUGS = Number(process.env.BENCH_BUGS ?? 2000);
const BASELINE_PORT = Number(process.env.BENCH_BASELINE_PORT ?? PORT + 1);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/tracker_bench';
const { api, recreateDatabase, startServer, stopServer } = benchService({ port: PORT, databaseUrl: DATABASE_URL });

/** A Lua `request` for wrk: a JSON body with the method. */
const jsonRequest = (method: string, body: string) =>
  `wrk.method = "${method}"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[${body}]]`;


/**
 * The same update spread over the bugs first…last in turn, so that requests do not wait for one another's row
 * lock: what an instance does when its clients work on different bugs.
 */
const distinctUpdates = (first: number, last: number, auth: string) => eachBugInTurn(first, last, [
  'counter = (counter or 0) + 1',
  'local odd = counter % 2 == 1',
  `local body = string.format('{"status":"%s","cc":{"%s":["dev2@example.com"]},"comment":{"body":"load %d"}}',`,
  '  odd and "IN_PROGRESS" or "CONFIRMED", odd and "add" or "remove", counter)',
  `return wrk.format("PUT", "/rest/bug/" .. current .. "?${auth}", {["Content-Type"] = "application/json"}, body)`,
]);

/** Resident memory of a process, MB (Linux). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** wrk's request function reading bugs first…last in turn. */
const distinctReads = (first: number, last: number, auth: string) =>
  eachBugInTurn(first, last, [`return wrk.format("GET", "/rest/bug/" .. current .. "?${auth}")`]);

/** A wrk script stepping through bugs first…last in turn, the two threads starting half-way apart; `request` is
 * the body of its request function for bug `current`. */
function eachBugInTurn(first: number, last: number, request: string[]): string {
  return [
    `local first, last = ${first}, ${last}`,
    'local threads = 0',
    'setup = function(thread) thread:set("start", first + math.floor((last - first) * threads / 2)); threads = threads + 1 end',
    'init = function(args) current = start end',
    'request = function()',
    '  current = current + 1',
    '  if current > last then current = first end',
    ...request.map((line) => `  ${line}`),
    'end',
  ].join('\n');
}

/** One measured run of `url`, reported as it ends. */
async function measured(name: string, url: string, lua = ''): Promise<WrkFigures> {
  const figures = await wrk(url, SECONDS, lua);
  process.stderr.write(`  ${name}: ${figures.rps.toFixed(0)} req/s, p99 ${figures.p99} ms, errors ${figures.errors}\n`);
  return figures;
}

function medianFigures(figures: readonly WrkFigures[]): WrkFigures {
  return {
    rps: median(figures.map((f) => f.rps)), p50: median(figures.map((f) => f.p50)), p95: median(figures.map((f) => f.p95)),
    p99: median(figures.map((f) => f.p99)), errors: figures.reduce((n, f) => n + f.errors, 0),
  };
}

async function runs(name: string, url: string, lua = ''): Promise<WrkFigures> {
  if (WARMUP_SECONDS > 0) await wrk(url, WARMUP_SECONDS, lua);
  const figures: WrkFigures[] = [];
  for (let run = 0; run < RUNS; run++) figures.push(await measured(name, url, lua));
  return medianFigures(figures);
}

/**
 * A read and its baseline in turn (service, baseline, service …), so that the machine's slow spells (a shared VM's
 * neighbours: the same baseline has answered 7,000–24,000 requests/s here) weigh on both alike; the ratio is the
 * median of each pair's.
 */
async function pairedRuns(name: string, serviceUrl: string, baselineUrl: string): Promise<{ service: WrkFigures; bare: WrkFigures; ratio: number }> {
  if (WARMUP_SECONDS > 0) {
    await wrk(serviceUrl, WARMUP_SECONDS);
    await wrk(baselineUrl, WARMUP_SECONDS);
  }
  const service: WrkFigures[] = [];
  const bare: WrkFigures[] = [];
  for (let run = 0; run < RUNS; run++) {
    service.push(await measured(name, serviceUrl));
    bare.push(await measured(`${name} (baseline)`, baselineUrl));
  }
  return { service: medianFigures(service), bare: medianFigures(bare), ratio: median(service.map((f, i) => f.rps / bare[i].rps)) };
}

/** bench/runs.csv's columns, in its order; a run fills those it measures. */
const RUNS_CSV_COLUMNS = [
  'date', 'entry', 'commit', 'run', 'tool', 'baseline_version_rps', 'version_rps', 'version_pct', 'get_bug_key_rps', 'get_bug_key_pct',
  'get_bug_anon_pct', 'comments_pct', 'post_rps', 'post_pct_of_baseline', 'put_one_bug_rps', 'put_one_bug_pct_of_baseline',
  'put_distinct_rps', 'distinct_reads_rps', 'rss_after_runs_mb', 'rss_after_every_bug_mb', 'cold_start_ms', 'notes',
] as const;
type RunsCsvRow = Partial<Record<(typeof RUNS_CSV_COLUMNS)[number], string | number>>;

/** Appends this run's medians to bench/runs.csv (run from the repository's root, as `npm run bench` is). */
function appendToRunsCsv(row: RunsCsvRow): void {
  let commit = '';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // Not a git checkout: the row goes without its commit.
  }
  const cells = { date: new Date().toISOString().slice(0, 10), commit, run: 'median', tool: 'wrk', ...row };
  const line = RUNS_CSV_COLUMNS.map((column) => {
    const text = String(cells[column] ?? '');
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }).join(',');
  fs.appendFileSync('bench/runs.csv', `${line}\n`);
}

async function main(): Promise<void> {
  await recreateDatabase();
  let server = await startServer();
  let baseline: ChildProcess | undefined;
  try {
    process.stderr.write(`generating ${BUGS} bugs …\n`);
    const { bugId, commentedBugId, product, component, firstId, lastId } = await generateReferenceData(api, BUGS);
    // Cold start: the built service, from process start to its first answer, on the existing database.
    await stopServer(server);
    const started = performance.now();
    server = await startServer();
    const coldStartMs = performance.now() - started;

    const auth = `Bugzilla_api_key=${API_KEY}`;
    const reads: Array<[string, string]> = [
      ['GET /rest/version', '/rest/version'],
      ['GET /rest/bug/(id), API key', `/rest/bug/${bugId}?${auth}`],
      ['GET /rest/bug/(id), anonymous', `/rest/bug/${bugId}`],
      ['GET /rest/bug/(id)/comment, 100 comments', `/rest/bug/${commentedBugId}/comment?${auth}`],
    ];
    baseline = await startBaseline({ serviceBase: BASE, urls: reads.map(([, url]) => url), port: BASELINE_PORT, databaseUrl: DATABASE_URL });
    const lines: string[] = [];
    let versionBaseline = 0;
    const ratios: number[] = [];
    const serviceRps: number[] = [];
    for (const [name, url] of reads) {
      const { service, bare, ratio } = await pairedRuns(name, `${BASE}${url}`, `http://127.0.0.1:${BASELINE_PORT}${url}`);
      if (url === '/rest/version') versionBaseline = bare.rps;
      ratios.push(ratio);
      serviceRps.push(service.rps);
      lines.push(`| ${name} | ${service.rps.toFixed(0)} | ${service.p99.toFixed(1)} | ${bare.rps.toFixed(0)} | ${(ratio * 100).toFixed(0)}% | ${service.errors} |`);
    }
    const create = JSON.stringify({ product, component, version: '1.0', op_sys: 'Linux', platform: 'PC', summary: 'Load', description: 'Created under load' });
    const writes: Array<[string, string, string]> = [
      ['POST /rest/bug', `${BASE}/rest/bug?${auth}`, jsonRequest('POST', create)],
      ['PUT /rest/bug/(id) status+cc+comment', `${BASE}/rest/bug/${bugId}?${auth}`, ALTERNATING_UPDATE],
      ['PUT /rest/bug/(id) status+cc+comment, a different bug each request', `${BASE}/rest/bug/${firstId}?${auth}`, distinctUpdates(firstId, lastId, auth)],
    ];
    const writeRps: number[] = [];
    for (const [name, url, lua] of writes) {
      const figures = await runs(name, url, lua);
      writeRps.push(figures.rps);
      // A write has no baseline of its own: its share of the version read's baseline says how fast it is for the machine.
      lines.push(`| ${name} | ${figures.rps.toFixed(0)} | ${figures.p99.toFixed(1)} | (version) ${versionBaseline.toFixed(0)} | ${((100 * figures.rps) / versionBaseline).toFixed(1)}% | ${figures.errors} |`);
    }
    const rss = rssMb(server.pid!);
    // Every bug read once or more, each a different one (the kept bugs fill up to their bounds): RSS after it.
    const distinctSeconds = Math.max(SECONDS, Math.ceil((lastId - firstId + 1) / 1000));
    const distinct = await wrk(`${BASE}/rest/bug/${firstId}?${auth}`, distinctSeconds, distinctReads(firstId, lastId, auth));
    const rssDistinct = rssMb(server.pid!);
    lines.push(`| GET /rest/bug/(id), API key, each of the ${lastId - firstId + 1} bugs in turn (${distinctSeconds} s, one run) | ${distinct.rps.toFixed(0)} | ${distinct.p99.toFixed(1)} | — | — | ${distinct.errors} |`);
    process.stdout.write(`\nwrk -t2 -c8, medians of ${RUNS} runs of ${SECONDS} s after ${WARMUP_SECONDS} s of warm-up (reads: service and baseline in turn, the ratio the median of each pair's), ${BUGS} bugs, ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n\n`);
    process.stdout.write('| scenario | requests/s | p99 (ms) | baseline requests/s | ratio | errors |\n|---|---|---|---|---|---|\n');
    process.stdout.write(`${lines.join('\n')}\n\nRSS of the service after the runs: ${rss.toFixed(0)} MB; after reading every bug: ${rssDistinct.toFixed(0)} MB. Cold start to first answer: ${coldStartMs.toFixed(0)} ms.\n`);
    const pct = (value: number) => (100 * value).toFixed(0);
    const share = (rps: number) => ((100 * rps) / versionBaseline).toFixed(1);
    appendToRunsCsv({
      baseline_version_rps: versionBaseline.toFixed(0), version_rps: serviceRps[0].toFixed(0), version_pct: pct(ratios[0]),
      get_bug_key_rps: serviceRps[1].toFixed(0), get_bug_key_pct: pct(ratios[1]), get_bug_anon_pct: pct(ratios[2]), comments_pct: pct(ratios[3]),
      post_rps: writeRps[0].toFixed(0), post_pct_of_baseline: share(writeRps[0]), put_one_bug_rps: writeRps[1].toFixed(0),
      put_one_bug_pct_of_baseline: share(writeRps[1]), put_distinct_rps: writeRps[2].toFixed(0), distinct_reads_rps: distinct.rps.toFixed(0),
      rss_after_runs_mb: rss.toFixed(0), rss_after_every_bug_mb: rssDistinct.toFixed(0), cold_start_ms: coldStartMs.toFixed(0),
      notes: `${BUGS} bugs, ${RUNS} runs of ${SECONDS} s; load ${os.loadavg()[0].toFixed(1)}`,
    });
    process.stdout.write(`Writes: ratio to the version read's baseline. Issue 13's machine answered ~28,000 version reads/s bare; its targets of 2,000 (POST) and 1,200 (PUT of one bug) were 7.1% and 4.3% of it.\n`);
  } finally {
    baseline?.kill();
    server.kill();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
