/** What the benchmarks share: the API client, a fresh database, and the built service as a process of its own. */
import { spawn, type ChildProcess } from 'node:child_process';
import mysql from 'mysql2/promise';

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

  /** Drops and re-creates the bench database. */
  async function recreateDatabase(): Promise<void> {
    const url = new URL(databaseUrl);
    const name = url.pathname.slice(1);
    url.pathname = '/';
    const connection = await mysql.createConnection(url.toString());
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await connection.end();
  }

  /** Starts the built service and resolves once it answers. */
  async function startServer(): Promise<ChildProcess> {
    const server = spawn(process.execPath, ['dist/src/main.js'], {
      env: { ...process.env, TZ: 'UTC', PORT: String(port), DATABASE_URL: databaseUrl, TRACKER_ADMIN_API_KEY: BENCH_API_KEY, TRACKER_ADMIN_PASSWORD: 'bench-password', TRACKER_MAIL_URL: 'off', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; i < 150; i++) {
      try {
        if ((await fetch(`${base}/rest/version`)).ok) return server;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 200));
    }
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
