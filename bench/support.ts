/** What the benchmarks share: the API client, a fresh database, the built service as a process of its own, wrk. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';

/** Node's options in the service's start command (package.json's start, the Dockerfile's CMD). */
export const SERVICE_NODE_OPTIONS = ['--max-semi-space-size=8', '--max-old-space-size=1024'];

/** The environment the service's start command sets besides (docs/performance.md, "Memory and start"). */
export const SERVICE_ENV = { MALLOC_ARENA_MAX: '2' };

export const BENCH_API_KEY = 'benchkeybenchkeybenchkeybenchkey0000';

export interface BenchTarget {
  port: number;
  databaseUrl: string;
}

export function benchService({ port, databaseUrl }: BenchTarget) {
  const base = `http://127.0.0.1:${port}`;

  /** A call as the administrator; a coded error throws. */
  async function api(method: string, apiPath: string, body?: unknown): Promise<any> {
    const response = await fetch(`${base}/rest${apiPath}${apiPath.includes('?') ? '&' : '?'}Bugzilla_api_key=${BENCH_API_KEY}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: any = await response.json();
    if (json?.error) throw new Error(`${method} ${apiPath}: ${json.code} ${json.message}`);
    return json;
  }

  /** Drops and re-creates the bench database (a SQLite file: removed, with its journal). */
  async function recreateDatabase(): Promise<void> {
    if (databaseUrl.startsWith('sqlite:')) {
      const file = databaseUrl.slice('sqlite:'.length);
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
      return;
    }
    const url = new URL(databaseUrl);
    const name = url.pathname.slice(1);
    url.pathname = '/';
    const connection = await mysql.createConnection(url.toString());
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await connection.end();
  }

  /**
   * Starts the built service as npm start does (with `nodeOptions` for node itself besides, and `env` over the
   * bench's environment) and resolves once it answers.
   */
  async function startServer(nodeOptions: readonly string[] = [], env: Record<string, string> = {}): Promise<ChildProcess> {
    const server = spawn(process.execPath, [...SERVICE_NODE_OPTIONS, ...nodeOptions, 'dist/src/main.js'], {
      env: { ...process.env, ...SERVICE_ENV, TZ: 'UTC', PORT: String(port), DATABASE_URL: databaseUrl, TRACKER_ADMIN_API_KEY: BENCH_API_KEY, TRACKER_ADMIN_PASSWORD: 'bench-password', TRACKER_MAIL_URL: 'off', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (await waitUntilAnswering(`${base}/rest/version`)) return server;
    server.kill();
    throw new Error('the server did not start');
  }

  async function stopServer(server: ChildProcess): Promise<void> {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill();
    await exited;
  }

  return { base, api, recreateDatabase, startServer, stopServer };
}

/**
 * The bare baseline server (bench/baseline.ts) on `port`, answering the bytes the service at `serviceBase` sends for
 * each of `urls` (captured now) after one statement; `nodeOptions` for node itself (a profiler).
 */
export async function startBaseline(options: { serviceBase: string; urls: readonly string[]; port: number; databaseUrl: string; nodeOptions?: readonly string[] }): Promise<ChildProcess> {
  const answers: Record<string, { contentType: string; body: string }> = {};
  for (const url of options.urls) {
    const response = await fetch(`${options.serviceBase}${url}`);
    answers[url] = { contentType: response.headers.get('content-type') ?? 'application/json', body: await response.text() };
  }
  const file = path.join(os.tmpdir(), `tracker-bench-answers-${process.pid}-${options.port}.json`);
  fs.writeFileSync(file, JSON.stringify(answers));
  const baseline = spawn(process.execPath, [...(options.nodeOptions ?? []), 'dist/bench/baseline.js'], {
    env: { ...process.env, BASELINE_PORT: String(options.port), BASELINE_DATABASE_URL: options.databaseUrl, BASELINE_ANSWERS: file },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (await waitUntilAnswering(`http://127.0.0.1:${options.port}${options.urls[0]}`)) return baseline;
  baseline.kill();
  throw new Error('the baseline server did not start');
}

/** Polls `url` every 20 ms for up to 30 s; true once it answers 2xx (a process started, to time its start). */
export async function waitUntilAnswering(url: string): Promise<boolean> {
  for (let i = 0; i < 1500; i++) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

export interface WrkFigures {
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

/**
 * One run of wrk (Debian package; C, so on two cores it takes less CPU from the service than a Node load generator):
 * 2 threads, 8 connections. `requestLua` sets the method, body and headers (wrk.method/wrk.body, or a `request`
 * function); a `done` hook reports the percentiles and the socket errors.
 */
export async function wrk(url: string, seconds: number, requestLua = ''): Promise<WrkFigures> {
  const script = path.join(os.tmpdir(), `tracker-bench-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  fs.writeFileSync(script, [
    requestLua,
    'done = function(summary, latency, requests)',
    '  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout',
    '  io.write(string.format("BENCH p50=%d p95=%d p99=%d errors=%d\\n", latency:percentile(50), latency:percentile(95), latency:percentile(99), errors))',
    'end',
  ].join('\n'));
  try {
    const { stdout } = await promisify(execFile)('/usr/bin/wrk', ['-t2', '-c8', `-d${seconds}s`, '-s', script, url], { maxBuffer: 1 << 20 });
    const figures = /BENCH p50=(\d+) p95=(\d+) p99=(\d+) errors=(\d+)/.exec(stdout);
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
    const ms = (index: number) => Number(figures?.[index] ?? 0) / 1000;
    return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0), p50: ms(1), p95: ms(2), p99: ms(3), errors: non2xx + Number(figures?.[4] ?? 0) };
  } finally {
    fs.rmSync(script, { force: true });
  }
}

/** `task(0)` … `task(count - 1)`, `parallel` at a time; their results in order. */
export async function inBatches<T>(count: number, parallel: number, task: (i: number) => Promise<T>): Promise<T[]> {
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

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** How a bench script calls the service's REST API (its path after /rest), as the bench's admin. */
export type BenchApi = (method: string, path: string, body?: unknown) => Promise<any>;

/**
 * The reference data shape: a product and component, `bugs` bugs, one of them richly populated (aliases, cc,
 * keywords, see_also, dependencies, a flag, 12 comments) for the read scenarios, and one with 100 comments.
 */
export async function generateReferenceData(api: BenchApi, bugs: number): Promise<{ bugId: number; commentedBugId: number; product: string; component: string; firstId: number; lastId: number }> {
  const product = 'BenchProduct';
  const component = 'Core';
  await api('POST', '/product', { name: product, description: 'Benchmark product', version: '1.0', is_open: true });
  await api('POST', '/component', { product, name: component, description: 'Core component', default_assignee: 'admin@example.com' });
  for (const keyword of ['perf', 'regression']) await api('POST', '/keyword', { name: keyword, description: keyword });
  await api('POST', '/flag_type', { name: 'review', description: 'review', target_type: 'bug', inclusions: [product] });
  for (const login of ['dev1@example.com', 'dev2@example.com']) {
    await api('POST', '/user', { email: login, full_name: login.split('@')[0], password: 'password-1' });
  }
  const base = { product, component, version: '1.0', op_sys: 'Linux', platform: 'PC', priority: 'Normal', severity: 'normal' };
  const ids = await inBatches(bugs, 8, async (i) => (await api('POST', '/bug', { ...base, summary: `Benchmark bug ${i}`, description: `Description of bug ${i}` })).id as number);
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
  return { bugId, commentedBugId, product, component, firstId: Math.min(...ids), lastId: Math.max(...ids) };
}

/** Update Bug alternating status and cc each request (per wrk thread), with a comment: always a real change. */
export const ALTERNATING_UPDATE = `
counter = 0
request = function()
  counter = counter + 1
  local odd = counter % 2 == 1
  local body = string.format('{"status":"%s","cc":{"%s":["dev2@example.com"]},"comment":{"body":"load %d"}}',
    odd and "IN_PROGRESS" or "CONFIRMED", odd and "add" or "remove", counter)
  return wrk.format("PUT", nil, {["Content-Type"] = "application/json"}, body)
end`;
