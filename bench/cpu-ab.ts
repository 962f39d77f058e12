/**
 * Two builds compared by what a request costs, not by how many requests a second they answer: `npm run bench:ab --
 * <other checkout>` (after a build of both; the other checkout is, for instance, `git worktree add --detach
 * ../before <commit>` with its own `npx tsc -p tsconfig.build.json`). Requests per second on a shared machine move
 * by half within minutes with the neighbours' load; the CPU time the service process spends per request
 * (utime + stime in /proc/<pid>/stat, over a wrk run) barely does, so two builds can be told apart while other work
 * runs. Both services run side by side, each on a database of its own on the same server, with the same data (a
 * bug as Get Bug's scenario of bench/run.ts reads it, a bug with 100 comments, 200 bugs); each round loads each
 * scenario on one build and then the other, the order alternating between rounds, and the table gives the median
 * per build and scenario, also of the database server's CPU per request when BENCH_MYSQLD_PID names its process (a
 * server of the bench's own: with other clients its CPU means nothing).
 * Options: BENCH_AB_ROUNDS (6), BENCH_SECONDS (5), BENCH_DATABASE_URL's server (the databases tracker_ab_this and
 * tracker_ab_other are dropped and re-created).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ALTERNATING_UPDATE, BENCH_API_KEY as API_KEY, SERVICE_ENV, SERVICE_NODE_OPTIONS, generateReferenceData, median, waitUntilAnswering } from './support.js';
import mysql from 'mysql2/promise';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SERVER_URL = new URL(process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/tracker_bench');
const MYSQLD_PID = process.env.BENCH_MYSQLD_PID ? Number(process.env.BENCH_MYSQLD_PID) : undefined;
const CLOCK_TICK_US = 1e6 / 100;

interface Build {
  name: 'this' | 'other';
  dir: string;
  port: number;
  service?: ChildProcess;
  bugId?: number;
  commentedBugId?: number;
}

/** CPU time a process has used so far, in clock ticks (utime + stime). */
function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function api(build: Build, method: string, apiPath: string, body?: unknown): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${build.port}/rest${apiPath}?Bugzilla_api_key=${API_KEY}`, {
    method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: any = await response.json();
  if (json?.error) throw new Error(`${build.name}: ${method} ${apiPath}: ${json.code} ${json.message}`);
  return json;
}

async function start(build: Build): Promise<void> {
  const database = `tracker_ab_${build.name}`;
  const server = new URL(SERVER_URL);
  server.pathname = '/';
  const connection = await mysql.createConnection(server.toString());
  await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
  server.pathname = `/${database}`;
  build.service = spawn(process.execPath, [...SERVICE_NODE_OPTIONS, 'dist/src/main.js'], {
    cwd: build.dir, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...SERVICE_ENV, TZ: 'UTC', PORT: String(build.port), DATABASE_URL: server.toString(), TRACKER_ADMIN_API_KEY: API_KEY, TRACKER_ADMIN_PASSWORD: 'bench-password', TRACKER_MAIL_URL: 'off', LOG_LEVEL: 'warn' },
  });
  if (!(await waitUntilAnswering(`http://127.0.0.1:${build.port}/rest/version`))) throw new Error(`${build.name}: the service did not start`);
  const { bugId, commentedBugId } = await generateReferenceData((method, apiPath, body) => api(build, method, apiPath, body), 200);
  build.bugId = bugId;
  build.commentedBugId = commentedBugId;
}

function scenarios(build: Build): Array<[name: string, path: string, lua: string]> {
  const auth = `Bugzilla_api_key=${API_KEY}`;
  const create = JSON.stringify({ product: 'BenchProduct', component: 'Core', version: '1.0', op_sys: 'Linux', platform: 'PC', summary: 'Load', description: 'Created under load' });
  return [
    ['GET /rest/version', '/rest/version', ''],
    ['GET /rest/bug/(id), API key', `/rest/bug/${build.bugId}?${auth}`, ''],
    ['GET /rest/bug/(id), anonymous', `/rest/bug/${build.bugId}`, ''],
    ['GET /rest/bug/(id)/comment, 100 comments', `/rest/bug/${build.commentedBugId}/comment?${auth}`, ''],
    ['POST /rest/bug', `/rest/bug?${auth}`, `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[${create}]]`],
    ['PUT one bug, status+cc+comment', `/rest/bug/${build.bugId}?${auth}`, ALTERNATING_UPDATE],
  ];
}

/** One wrk run (-t2 -c8): how many requests it sent and how many were not 2xx. */
async function wrkRequests(url: string, seconds: number, lua: string): Promise<{ requests: number; failed: number }> {
  const script = path.join(os.tmpdir(), `tracker-ab-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  fs.writeFileSync(script, lua);
  try {
    const { stdout } = await promisify(execFile)('/usr/bin/wrk', ['-t2', '-c8', `-d${seconds}s`, '-s', script, url]);
    return { requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0), failed: Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0) };
  } finally {
    fs.rmSync(script, { force: true });
  }
}

async function main(): Promise<void> {
  const other = process.argv[2];
  if (!other || !fs.existsSync(path.join(other, 'dist/src/main.js'))) throw new Error('usage: npm run bench:ab -- <other checkout, built>');
  const builds: Build[] = [{ name: 'this', dir: process.cwd(), port: 4101 }, { name: 'other', dir: path.resolve(other), port: 4102 }];
  const costs = new Map<string, Record<Build['name'], { service: number[]; database: number[] }>>();
  try {
    for (const build of builds) await start(build);
    for (const build of builds) for (const [, url, lua] of scenarios(build)) await wrkRequests(`http://127.0.0.1:${build.port}${url}`, SECONDS, lua);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (let scenario = 0; scenario < scenarios(builds[0]).length; scenario++) {
        for (const build of order) {
          const [name, url, lua] = scenarios(build)[scenario];
          const pid = build.service!.pid!;
          const [service0, database0] = [cpuTicks(pid), MYSQLD_PID ? cpuTicks(MYSQLD_PID) : 0];
          const { requests, failed } = await wrkRequests(`http://127.0.0.1:${build.port}${url}`, SECONDS, lua);
          if (failed) throw new Error(`${build.name}: ${name}: ${failed} answers were not 2xx`);
          const perRequest = (ticks: number) => (ticks * CLOCK_TICK_US) / requests;
          const entry = costs.get(name) ?? { this: { service: [], database: [] }, other: { service: [], database: [] } };
          entry[build.name].service.push(perRequest(cpuTicks(pid) - service0));
          if (MYSQLD_PID) entry[build.name].database.push(perRequest(cpuTicks(MYSQLD_PID) - database0));
          costs.set(name, entry);
          process.stderr.write(`round ${round + 1} ${build.name}: ${name}: ${perRequest(cpuTicks(pid) - service0).toFixed(0)} µs of service CPU per request (${requests} requests)\n`);
        }
      }
    }
    const rss = (build: Build) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${build.service!.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    process.stdout.write(`\nCPU per request, medians of ${ROUNDS} rounds of ${SECONDS} s (wrk -t2 -c8); this: ${builds[0].dir}, other: ${builds[1].dir}; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n\n`);
    process.stdout.write('| scenario | other: service µs | this: service µs | this vs other | other: database µs | this: database µs |\n|---|---|---|---|---|---|\n');
    for (const [name, entry] of costs) {
      const [before, after] = [median(entry.other.service), median(entry.this.service)];
      const database = (values: number[]) => (values.length ? median(values).toFixed(0) : '—');
      process.stdout.write(`| ${name} | ${before.toFixed(0)} | ${after.toFixed(0)} | ${(100 * (after / before - 1)).toFixed(1)}% | ${database(entry.other.database)} | ${database(entry.this.database)} |\n`);
    }
    process.stdout.write(`\nRSS after the rounds: other ${rss(builds[1]).toFixed(0)} MB, this ${rss(builds[0]).toFixed(0)} MB.\n`);
  } finally {
    for (const build of builds) build.service?.kill();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
