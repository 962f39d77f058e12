import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { ADMIN_API_KEY } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { buildService, ROOT, servicePort, startService } from '../support/service-process.js';
import { describeWhen, onDialect } from '../support/conditions.js';

/**
 * What a newcomer meets when starting the built service (issue 41): a setup problem is one clear line on stderr and
 * exit code 2, fast; and bug mail has a From header with the default settings.
 */

/** Runs the built service until it exits by itself: its exit code, its output, how long it took. */
async function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, TZ: 'UTC', HOST: '127.0.0.1', TRACKER_ADMIN_PASSWORD: 'service-password-1', TRACKER_MAIL_URL: 'off', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output, ms: Date.now() - started };
}

const onServer = describeWhen(onDialect('mysql', 'only a database server has a database that can be missing'));

describe('start-up problems: one line and exit code 2', () => {
  beforeAll(buildService);

  it('a busy port: no "successfully started", no stack trace, exit 2', async () => {
    const holder = net.createServer();
    const port = servicePort() + 5;
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-busy-port-'));
    try {
      const run = await runUntilExit({ PORT: String(port), DATABASE_URL: `sqlite:${path.join(dataDir, 'tracker.sqlite')}` });
      expect({ code: run.code, output: run.output }).toEqual({
        code: 2,
        output: `Port ${port} on 127.0.0.1 is already in use: stop what holds it or set PORT to another port.\n`,
      });
    } finally {
      holder.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  onServer('a MariaDB/MySQL database that does not exist', () => {
    const server = process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306';
    const name = `tracker_missing_${process.pid}`;
    const url = `${server.replace(/\/+$/, '')}/${name}`;
    afterAll(async () => {
      const connection = await mysql.createConnection(server);
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    });

    it('stops at once with the statement that creates it and the option, exit 2', async () => {
      const run = await runUntilExit({ PORT: String(servicePort() + 6), DATABASE_URL: url });
      expect({ code: run.code, output: run.output }).toEqual({
        code: 2,
        output:
          `The database '${name}' does not exist on ${new URL(server).host}: create it (CREATE DATABASE \`${name}\` CHARACTER SET ` +
          'utf8mb4 COLLATE utf8mb4_unicode_ci) or start with TRACKER_CREATE_DATABASE=1.\n',
      });
      expect(run.ms).toBeLessThan(10_000);
    });

    it('TRACKER_CREATE_DATABASE=1 creates it and the service starts on it (migrated: ready)', async () => {
      const port = servicePort() + 7;
      const service = await startService({ PORT: String(port), DATABASE_URL: url, TRACKER_CREATE_DATABASE: '1', TRACKER_MAIL_URL: 'off' });
      try {
        expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
      } finally {
        await stop(service);
      }
    });
  });
});

async function stop(service: ChildProcess): Promise<void> {
  const exited = once(service, 'exit');
  service.kill('SIGTERM');
  await exited;
}

describe('bug mail with the default settings (no TRACKER_URLBASE, mailfrom bugzilla-daemon)', () => {
  let database: TestDatabase;
  let service: ChildProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-mail-from-'));
  const port = servicePort() + 8;
  const api = (method: string, route: string, body: unknown) =>
    fetch(`http://127.0.0.1:${port}/rest/${route}`, { method, headers: { 'content-type': 'application/json', 'x-bugzilla-api-key': ADMIN_API_KEY }, body: JSON.stringify(body) }).then((res) => res.json());

  beforeAll(async () => {
    buildService();
    database = await createTestDatabase();
    service = await startService({ DATABASE_URL: database.url, PORT: String(port), TRACKER_DATA_DIR: dataDir, TRACKER_MAIL_URL: '', TRACKER_URLBASE: '' });
  });
  afterAll(async () => {
    await stop(service);
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('comes From bugzilla-daemon at the host name, as a local MTA qualifies it', async () => {
    expect(await api('POST', 'user', { email: 'watcher@example.com', password: 'watcher-password' })).toEqual({ id: expect.any(Number) });
    const bug = await api('POST', 'bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'mail from', description: 'x', cc: ['watcher@example.com'] });
    expect(bug).toEqual({ id: expect.any(Number) });
    const dir = path.join(dataDir, 'mail');
    let raw = '';
    for (let i = 0; i < 100 && !raw; i++) {
      const file = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.eml')) : undefined;
      if (file) raw = fs.readFileSync(path.join(dir, file), 'utf8');
      else await sleep(100);
    }
    expect(raw).toContain('To: watcher@example.com');
    expect(raw).toContain(`\nFrom: bugzilla-daemon@${os.hostname()}\n`);
  });
});
