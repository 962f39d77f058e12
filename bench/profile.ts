/**
 * Where the time goes (issue 13): `npm run bench:profile`. Starts the built service under V8's CPU profiler on a
 * fresh MariaDB database (BENCH_DATABASE_URL, default mysql://root@127.0.0.1:3306/tracker_bench_profile) with 200
 * bugs, loads Get Bug (API key, a kept bug), the baseline server on the same URL (bench/baseline.ts, the same
 * bytes after one statement) and then Create Bug with wrk for BENCH_SECONDS (default 10) each, in a process of its
 * own per scenario, and splits the CPU time the process spent by phase of the request: the service's
 * own code by module, and the libraries (Fastify, Nest, TypeORM, mysql2, pino), node's own (sockets, HTTP) and the
 * garbage collector. Also the SQL statements one warm request sends (from the test suite's count: see RESULTS.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { BENCH_API_KEY as API_KEY, benchService, startBaseline, wrk } from './support.js';

const PORT = Number(process.env.BENCH_PORT ?? 3927);
const BASE = `http://127.0.0.1:${PORT}`;
const BASELINE_PORT = PORT + 1;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/tracker_bench_profile';
const { api, recreateDatabase, startServer, stopServer } = benchService({ port: PORT, databaseUrl: DATABASE_URL });

/** The phases, first match wins: a pattern on the script's path (or V8's own names for what is not a script). */
const PHASES: Array<[string, RegExp]> = [
  ['(idle: waiting for the database or the network)', /^\(idle\)$/],
  ['(garbage collector)', /^\(garbage collector\)$/],
  ['caller and guards (credentials, kept caller, access rules)', /\/dist\/src\/(auth|common\/guards|common\/caller|ratelimit)\//],
  ['request parameters and input', /\/dist\/src\/common\/http\/(request-params|input|dto)/],
  ['load (stamps, kept bugs, rows, relations)', /\/dist\/src\/(bug\/bug-loader|bug\/loaded-bug|bug\/bug-visibility|bug\/bug\.repository|bug-write\/custom-values)/],
  ['present (bugs as the API shows them)', /\/dist\/src\/bug\/(bug\.presenter|bug\.service|bug\.fields)/],
  ['select fields (include/exclude)', /\/dist\/src\/common\/fields\//],
  ['serialise and send (JSON, ETag, output formats)', /\/dist\/src\/common\/http\//],
  ['write rules (create, update, flags, history)', /\/dist\/src\/bug(-write|-search)?\//],
  ['mail, webhooks, audit (outboxes and marks)', /\/dist\/src\/(mail|webhook|audit)\//],
  ['database layer (Sql, transactions)', /\/dist\/src\/database\//],
  ['the rest of the service (catalogue, users, comments …)', /\/dist\/src\//],
  ['mysql2 (driver, protocol, parsing rows)', /node_modules\/mysql2\//],
  ['TypeORM (query builder, entity mapping, transactions)', /node_modules\/typeorm\//],
  ['Fastify (routing, hooks, reply)', /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-json-stringify)\//],
  ['Nest (pipeline: guards, interceptors, handlers)', /node_modules\/(@nestjs|rxjs|reflect-metadata)\//],
  ['logging (pino)', /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream)/],
  ['other libraries', /node_modules\//],
  ['V8 outside any script ((program): compiling, the HTTP parser, native callbacks)', /^\(program\)$/],
];

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}

/** Node's own modules, grouped by what they do for a request. */
function nodePart(url: string): string {
  const module = /^node:(?:internal\/)?([^/]+)/.exec(url)?.[1] ?? '';
  if (/^(stream_base_commons|net|streams?|dns|tcp_wrap)$/.test(module)) return 'node: sockets (writes and reads to clients and the database)';
  if (/^_?http/.test(module)) return 'node: HTTP (parser glue, outgoing messages)';
  if (/^(process|timers|events|async_hooks|perf|linkedlist|task_queues)$/.test(module)) return 'node: events, ticks and timers';
  if (module === 'crypto') return 'node: crypto (key digests, ETags)';
  return 'node: other';
}
const SPECIAL_FRAMES = new Set(['(idle)', '(garbage collector)', '(program)', '(root)']);

/**
 * Self time per phase (ms) of a V8 .cpuprofile. A builtin without a script of its own (JSON.stringify, a hash, a
 * regular expression …) counts for the code that called it: its nearest ancestor with a script.
 */
function timeByPhase(file: string, window: { lastMs: number; tailMs: number }): Map<string, number> {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; endTime: number };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const subjectOf = (node: ProfileNode): string => {
    const { url, functionName } = node.callFrame;
    if (url) return url;
    if (SPECIAL_FRAMES.has(functionName)) return functionName;
    const parent = parentOf.get(node.id);
    return parent === undefined ? '(program)' : subjectOf(byId.get(parent)!);
  };
  const phaseOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const subject = subjectOf(node);
    phaseOf.set(node.id, PHASES.find(([, pattern]) => pattern.test(subject))?.[0] ?? nodePart(subject));
  }
  // Only the samples of the measured run: the profile also covers start-up (loading modules) and shutdown.
  const until = profile.endTime - window.tailMs * 1000;
  const from = until - window.lastMs * 1000;
  const times = new Map<string, number>();
  let at = profile.endTime - profile.timeDeltas.reduce((n, d) => n + d, 0);
  profile.samples.forEach((nodeId, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > until) return;
    const phase = phaseOf.get(nodeId)!;
    times.set(phase, (times.get(phase) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return times;
}

/** The process `start` starts (the service unless told) under the profiler, loaded with wrk on `url`. */
async function profiled(
  name: string, url: string, lua: string, start: (profiler: string[]) => Promise<ChildProcess> = startServer,
): Promise<{ rps: number; times: Map<string, number> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-profile-'));
  const server = await start(['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  await wrk(url, 2, lua); // warm: kept values, JIT
  const figures = await wrk(url, SECONDS, lua);
  const loadEnded = performance.now();
  await stopServer(server);
  const tailMs = performance.now() - loadEnded;
  const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${name}: no profile written`);
  const times = timeByPhase(path.join(dir, file), { lastMs: SECONDS * 1000, tailMs });
  fs.rmSync(dir, { recursive: true, force: true });
  return { rps: figures.rps, times };
}

function table(name: string, rps: number, times: Map<string, number>): string {
  const busy = [...times].filter(([phase]) => !phase.startsWith('(idle')).reduce((n, [, ms]) => n + ms, 0);
  const rows = [...times].filter(([phase]) => !phase.startsWith('(idle')).sort((a, b) => b[1] - a[1])
    .map(([phase, ms]) => `| ${phase} | ${(ms / busy * 100).toFixed(1)}% |`);
  const idle = times.get(PHASES[0][0]) ?? 0;
  return [
    `### ${name}: ${rps.toFixed(0)} requests/s under the profiler; the service's thread was busy ${(busy / (busy + idle) * 100).toFixed(0)}% of the time`,
    '',
    '| phase | share of the busy time |',
    '|---|---|',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  await recreateDatabase();
  const server = await startServer();
  const product = 'ProfileProduct';
  await api('POST', '/product', { name: product, description: 'Profile product', version: '1.0', is_open: true });
  await api('POST', '/component', { product, name: 'Core', description: 'Core component', default_assignee: 'admin@example.com' });
  const base = { product, component: 'Core', version: '1.0', op_sys: 'Linux', platform: 'PC', summary: 'Profiled bug', description: 'Profiled' };
  let bugId = 0;
  for (let i = 0; i < 200; i++) bugId = (await api('POST', '/bug', base)).id;
  await api('PUT', `/bug/${bugId}`, { cc: { add: ['admin@example.com'] }, comment: { body: 'a comment' } });
  await stopServer(server);

  const auth = `Bugzilla_api_key=${API_KEY}`;
  const readPath = `/rest/bug/${bugId}?${auth}`;
  const read = await profiled('Get Bug', `${BASE}${readPath}`, '');
  // The baseline (bench/baseline.ts) on the same bytes, for what the same work costs without the service.
  const baseline = await profiled('baseline', `http://127.0.0.1:${BASELINE_PORT}${readPath}`, '', async (profiler) => {
    const service = await startServer();
    try {
      return await startBaseline({ serviceBase: BASE, urls: [readPath], port: BASELINE_PORT, databaseUrl: DATABASE_URL, nodeOptions: profiler });
    } finally {
      await stopServer(service);
    }
  });
  const create = await profiled('Create Bug', `${BASE}/rest/bug?${auth}`, [
    'wrk.method = "POST"',
    `wrk.body = ${JSON.stringify(JSON.stringify(base))}`,
    'wrk.headers["Content-Type"] = "application/json"',
  ].join('\n'));
  process.stdout.write(`\nCPU profile (V8 --cpu-prof) of the built service, wrk -t2 -c8, ${SECONDS} s per scenario, ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}\n\n`);
  process.stdout.write(`${table('GET /rest/bug/(id), API key, kept bug', read.rps, read.times)}\n\n`);
  process.stdout.write(`${table('The same URL from the baseline server (bench/baseline.ts: one statement, the same bytes)', baseline.rps, baseline.times)}\n\n`);
  process.stdout.write(`${table('POST /rest/bug', create.rps, create.times)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
