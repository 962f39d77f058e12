/**
 * Overload (issue 40, "overload degrades fairly"): `npm run bench:overload`. For each database (SQLite, then MariaDB)
 * it starts the built service on a fresh database, files BENCH_BUGS bugs (2,000) through the API, restarts it (nothing
 * kept), warms it up with 8 connections for BENCH_WARMUP_SECONDS (5), then sends BENCH_CONNECTIONS (200) connections
 * of reads and searches for BENCH_SECONDS (20) with wrk: three requests in four are Get Bug of a different bug each
 * time, one in four a Search Bugs of 50 full bugs (a page of the product, or a word of the summaries), all with an
 * API key. It prints, per database: the answers (200, 503, other), the latency of the 200s and of every answer
 * (p50, p99, max: timed by the script from the moment wrk writes the request, so that an answer later than wrk's
 * timeout still counts), the 503s without Retry-After, the answers later than the timeout, and wrk's own timeout
 * count ("cut": wrk counts a request again at each 2 s check while it is late).
 * Options: BENCH_DATABASES (sqlite,mysql), BENCH_DATABASE_URL (mysql://root@127.0.0.1:3306/tracker_bench_overload,
 * dropped and re-created), BENCH_SQLITE_FILE (in the system's temporary folder), BENCH_PORT (3947),
 * BENCH_TIMEOUT_SECONDS (10), BENCH_SERVICE_ENV (variables for the service, e.g. `TRACKER_MAX_IN_FLIGHT=0`).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BENCH_API_KEY as API_KEY, benchService, inBatches } from './support.js';

const PORT = Number(process.env.BENCH_PORT ?? 3947);
const BUGS = Number(process.env.BENCH_BUGS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const TIMEOUT_SECONDS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 10);
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,mysql').split(',').map((name) => name.trim()).filter(Boolean);
const SERVICE_ENV = Object.fromEntries((process.env.BENCH_SERVICE_ENV ?? '').split(/\s+/).filter(Boolean).map((pair) => {
  const at = pair.indexOf('=');
  return [pair.slice(0, at), pair.slice(at + 1)];
}));
const PRODUCT = 'OverloadProduct';
const WORDS = ['crash', 'slow', 'render', 'layout', 'memory', 'leak', 'network', 'timeout', 'editor', 'toolbar'];

function databaseUrl(name: string): string {
  if (name === 'sqlite') return `sqlite:${process.env.BENCH_SQLITE_FILE ?? path.join(os.tmpdir(), `tracker-bench-overload-${PORT}.sqlite`)}`;
  if (name === 'mysql') return process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/tracker_bench_overload';
  throw new Error(`BENCH_DATABASES names sqlite and mysql, not '${name}'`);
}

/** The bugs the load reads and searches; returns the first and last id. */
async function generate(api: ReturnType<typeof benchService>['api']): Promise<{ first: number; last: number }> {
  await api('POST', '/product', { name: PRODUCT, description: 'Overload product', version: '1.0', is_open: true });
  await api('POST', '/component', { product: PRODUCT, name: 'Core', description: 'Core component', default_assignee: 'admin@example.com' });
  const base = { product: PRODUCT, component: 'Core', version: '1.0', op_sys: 'Linux', platform: 'PC', priority: 'Normal', severity: 'normal' };
  const ids = await inBatches(BUGS, 8, async (i) => (await api('POST', '/bug', {
    ...base, summary: `Overload bug ${i}: ${WORDS[i % WORDS.length]} in ${WORDS[(i * 7) % WORDS.length]}`, description: `Description of bug ${i}`,
  })).id as number);
  return { first: Math.min(...ids), last: Math.max(...ids) };
}

/**
 * wrk's script: the mix of requests, each carrying the time it was written in X-Request-Id (the service sends it
 * back), and its answer timed and counted by status in `response`; `done` prints the figures of all threads.
 */
function loadScript(first: number, last: number): string {
  const auth = `Bugzilla_api_key=${API_KEY}`;
  const searches = [
    ...Array.from({ length: 10 }, (_, page) => `/rest/bug?product=${PRODUCT}&limit=50&offset=${page * 50}&${auth}`),
    ...WORDS.map((word) => `/rest/bug?summary=${word}&limit=50&${auth}`),
  ];
  return `
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } tracker_timespec;
int clock_gettime(int clock, tracker_timespec *time);
]]
local clock = ffi.new("tracker_timespec")
local function now_us()
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.tv_sec) * 1000000 + math.floor(tonumber(clock.tv_nsec) / 1000)
end
local first, last = ${first}, ${last}
local searches = { ${searches.map((url) => `"${url}"`).join(', ')} }
local threads = {}
setup = function(thread)
  thread:set("number", #threads)
  table.insert(threads, thread)
end
init = function(args)
  counter = number * 7919
  ok, shed, other, bare503, late = {}, {}, 0, 0, 0
end
request = function()
  counter = counter + 1
  local path
  if counter % 4 == 0 then
    path = searches[(math.floor(counter / 4) % #searches) + 1]
  else
    path = "/rest/bug/" .. (first + counter % (last - first + 1)) .. "?${auth}"
  end
  return wrk.format("GET", path, { ["X-Request-Id"] = "t" .. now_us() })
end
response = function(status, headers, body)
  local sent = headers["X-Request-Id"] or headers["x-request-id"]
  local ms = sent and (now_us() - tonumber(string.sub(sent, 2))) / 1000 or -1
  if ms > ${TIMEOUT_SECONDS * 1000} then late = late + 1 end
  if status == 200 then
    ok[#ok + 1] = ms
  elseif status == 503 then
    shed[#shed + 1] = ms
    if not (headers["Retry-After"] or headers["retry-after"]) then bare503 = bare503 + 1 end
  else
    other = other + 1
  end
end
local function percentile(sorted, p)
  if #sorted == 0 then return 0 end
  return sorted[math.max(1, math.ceil(#sorted * p / 100))]
end
done = function(summary, latency, requests)
  local oks, sheds, all, others, bare, lates = {}, {}, {}, 0, 0, 0
  for _, thread in ipairs(threads) do
    for _, ms in ipairs(thread:get("ok")) do oks[#oks + 1] = ms; all[#all + 1] = ms end
    for _, ms in ipairs(thread:get("shed")) do sheds[#sheds + 1] = ms; all[#all + 1] = ms end
    others = others + thread:get("other")
    bare = bare + thread:get("bare503")
    lates = lates + thread:get("late")
  end
  table.sort(oks); table.sort(sheds); table.sort(all)
  io.write(string.format("OVERLOAD ok=%d shed=%d other=%d bare503=%d late=%d cut=%d seconds=%.1f ok_p50=%.1f ok_p99=%.1f ok_max=%.1f shed_p99=%.1f all_p50=%.1f all_p99=%.1f\\n",
    #oks, #sheds, others, bare, lates, summary.errors.timeout, summary.duration / 1000000,
    percentile(oks, 50), percentile(oks, 99), percentile(oks, 100), percentile(sheds, 99), percentile(all, 50), percentile(all, 99)))
end
`;
}

interface OverloadFigures {
  ok: number; shed: number; other: number; bare503: number; late: number; cut: number; seconds: number;
  okP50: number; okP99: number; okMax: number; shedP99: number; allP50: number; allP99: number;
}

async function runWrk(url: string, connections: number, seconds: number, script: string): Promise<OverloadFigures> {
  const file = path.join(os.tmpdir(), `tracker-bench-overload-${process.pid}-${connections}.lua`);
  fs.writeFileSync(file, script);
  try {
    const { stdout } = await promisify(execFile)('/usr/bin/wrk', [
      '-t2', `-c${connections}`, `-d${seconds}s`, `--timeout`, `${TIMEOUT_SECONDS}s`, '-s', file, url,
    ], { maxBuffer: 1 << 20 });
    const line = /OVERLOAD (.*)/.exec(stdout)?.[1];
    if (!line) throw new Error(`wrk printed no figures:\n${stdout}`);
    const value = (name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? NaN);
    return {
      ok: value('ok'), shed: value('shed'), other: value('other'), bare503: value('bare503'), late: value('late'), cut: value('cut'),
      seconds: value('seconds'), okP50: value('ok_p50'), okP99: value('ok_p99'), okMax: value('ok_max'), shedP99: value('shed_p99'),
      allP50: value('all_p50'), allP99: value('all_p99'),
    };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function overload(database: string): Promise<string> {
  const url = databaseUrl(database);
  const { api, recreateDatabase, startServer, stopServer } = benchService({ port: PORT, databaseUrl: url });
  await recreateDatabase();
  let server = await startServer([], SERVICE_ENV);
  try {
    process.stderr.write(`${database}: filing ${BUGS} bugs …\n`);
    const { first, last } = await generate(api);
    await stopServer(server);
    server = await startServer([], SERVICE_ENV);
    const script = loadScript(first, last);
    const base = `http://127.0.0.1:${PORT}/`;
    if (WARMUP_SECONDS > 0) await runWrk(base, 8, WARMUP_SECONDS, script);
    const f = await runWrk(base, CONNECTIONS, SECONDS, script);
    process.stderr.write(`${database}: ${JSON.stringify(f)}\n`);
    const rate = (n: number) => (n / f.seconds).toFixed(0);
    return `| ${database} | ${rate(f.ok)} | ${f.okP50.toFixed(0)} | ${f.okP99.toFixed(0)} | ${f.okMax.toFixed(0)} | ${f.shed} (${rate(f.shed)}/s) | ${f.shedP99.toFixed(0)} | ${f.allP50.toFixed(0)} / ${f.allP99.toFixed(0)} | ${f.late} / ${f.cut} | ${f.other + f.bare503} |`;
  } finally {
    await stopServer(server);
  }
}

async function main(): Promise<void> {
  const lines: string[] = [];
  for (const database of DATABASES) lines.push(await overload(database));
  const settings = Object.entries(SERVICE_ENV).map(([name, value]) => `${name}=${value}`).join(' ') || 'the defaults';
  process.stdout.write(`\nwrk -t2 -c${CONNECTIONS}, ${SECONDS} s (after ${WARMUP_SECONDS} s at -c8), timeout ${TIMEOUT_SECONDS} s; 3 in 4 Get Bug of a different bug, 1 in 4 Search Bugs of 50 full bugs; ${BUGS} bugs; service with ${settings}; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n\n`);
  process.stdout.write('| database | 200/s | p50 of 200s (ms) | p99 of 200s | max of 200s | 503s | p99 of 503s | p50 / p99 of all answers | answers later than the timeout / wrk\'s cut count | other errors, 503s without Retry-After |\n|---|---|---|---|---|---|---|---|---|---|\n');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
