import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { ADMIN_API_KEY } from '../support/test-app.js';
import { buildService, servicePort, startService } from '../support/service-process.js';
import { DEFAULT_BUG } from './bug-fixtures.js';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { openDataSource } from '../../src/database/open-data-source.js';
import { ENTITIES } from '../../src/entities.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { Comment } from '../../src/comment/entities/comment.entity.js';
import { QueuedMail } from '../../src/mail/entities/queued-mail.entity.js';

/**
 * kill -9 of the service while it writes, then a restart (issue 12, fault tests): the built service runs as a
 * process of its own (`npm run build` first: this file builds it), bugs are filed as fast as it takes them, the
 * process is killed without warning, and the restarted service must show no half-written bug, every acknowledged
 * bug, and an outbox whose every committed mail is delivered (its .eml file written) or still queued — never lost.
 */
describe('kill -9 during writes, then restart', () => {
  let database: TestDatabase;
  let dataDir: string;
  let service: ChildProcess | undefined;
  let check: DataSource | undefined;
  const base = `http://127.0.0.1:${servicePort()}/rest`;

  beforeAll(buildService);
  beforeEach(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-crash-'));
  });
  afterEach(async () => {
    service?.kill('SIGKILL');
    await check?.destroy();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () => startService({ DATABASE_URL: database.url, TRACKER_DATA_DIR: dataDir });

  it('leaves no half-written bug, loses no acknowledged one, and loses no committed mail', async () => {
    service = await start();
    const watcher = await fetch(`${base}/user?Tracker_api_key=${ADMIN_API_KEY}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'watcher@example.com', full_name: 'Watcher', password: 'watcher-password-1' }),
    });
    expect(watcher.status).toBe(200);
    const acknowledged: number[] = [];
    let killed = false;
    const writer = async () => {
      while (!killed) {
        const res = await fetch(`${base}/bug?Tracker_api_key=${ADMIN_API_KEY}`, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...DEFAULT_BUG, summary: 'written while killed', description: 'the description, comment 0', cc: ['watcher@example.com'] }),
        }).catch(() => undefined);
        if (res?.ok) acknowledged.push(((await res.json()) as { id: number }).id);
      }
    };
    const writers = [writer(), writer(), writer(), writer()];
    await sleep(1_500);
    service.kill('SIGKILL');
    killed = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(0);

    service = await start();
    check = await openDataSource(dataSourceOptions(database.url, ENTITIES));
    const bugs = await check.getRepository(Bug).find({ select: { id: true } });
    const stored = new Set(bugs.map((bug) => bug.id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    // Whole bugs only: each has its description.
    const described = new Set((await check.getRepository(Comment).find({ select: { bugId: true } })).map((comment) => comment.bugId));
    expect([...stored].filter((id) => !described.has(id))).toEqual([]);

    // The outbox: give the restarted service a moment to deliver what was pending; leased rows wait for their lease.
    await sleep(1_000);
    const mail = await check.getRepository(QueuedMail).find();
    const files = new Set(fs.existsSync(path.join(dataDir, 'mail')) ? fs.readdirSync(path.join(dataDir, 'mail')).filter((f) => f.endsWith('.eml')) : []);
    const delivered = (row: QueuedMail) => [...files].some((file) => file.endsWith(`-${row.id}.eml`));
    expect(mail.filter((row) => row.sentAt !== null && !delivered(row)).map((row) => row.id)).toEqual([]);
    // every file is a committed mail
    const ids = new Set(mail.map((row) => String(row.id)));
    expect([...files].filter((file) => !ids.has(/-(\d+)\.eml$/.exec(file)![1]))).toEqual([]);
    expect(mail.length).toBeGreaterThanOrEqual(acknowledged.length);
  });
});
