import fs from 'node:fs';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { BUGZILLA_FIXTURE, databaseUrl, dropDatabase, loadBugzillaFixture, runMariadbClient } from '../../bench/bugzilla-fixture.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { runCli, EXIT_ERROR, EXIT_OK } from '../../src/cli/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { inProcessDescribe } from '../support/in-process.js';
import { Db } from '../../src/database/db.service.js';
import { User } from '../../src/user/entities/user.entity.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { UserService } from '../../src/user/user.service.js';
import { importBugzilla } from '../../src/import/bugzilla-importer.js';
import { runImportCommand } from '../../src/import/import-command.js';

/**
 * Issue 42: the Bugzilla 5.0.6 fixture (test/fixtures/bugzilla-5.0.6, README.md there) is loaded into a
 * scratch MariaDB database, imported into a fresh Tracker database of the dialect under test, and Tracker's REST
 * answers for every bug and the globals are compared with the answers Bugzilla itself gave (answers.json.gz).
 * Only the orders the fixture's README calls unstable are normalised; every other difference is listed below, one by
 * one, with its reason.
 */
const FIXTURE = BUGZILLA_FIXTURE;
const ADMIN_KEY = 'xAdminApiKeyForOracle0000000000000000001';
const SOURCE_SERVER = process.env.TEST_SOURCE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306';

type Json = any;
interface Recorded {
  status: number;
  body: Json;
}

/**
 * The differences between Tracker's answers and Bugzilla's, each a path (bug answers: kind.field) and the decision or
 * spec that makes it. They are Tracker's presentation, not the import.
 */
const KNOWN_DIFFERENCES: Record<string, string> = {
  // decisions.md, Bugs ("deadline is sent to everyone, its value only to time trackers"): 5.0.6 gives the value to all.
  'anonymous.deadline': 'deadline hidden from callers who are not time trackers (decisions.md)',
  // The spec's Attachment table types them boolean (service-spec.md); 5.0.6's REST gives 1/0 (decisions.md, Attachments).
  'attachments.is_patch': 'boolean as the spec types it, where Bugzilla gives 1/0',
  'attachments.is_obsolete': 'boolean as the spec types it, where Bugzilla gives 1/0',
  'attachments.is_private': 'boolean as the spec types it, where Bugzilla gives 1/0',
};

/** Tables of the source an import reads (checksummed before and after it). */
const SOURCE_TABLES = ['profiles', 'user_api_keys', 'groups', 'user_group_map', 'products', 'components', 'fielddefs', 'bugs', 'longdescs', 'attachments', 'attach_data', 'flags', 'bugs_activity', 'cc'];

/** The key of KNOWN_DIFFERENCES for a path: its kind (first name) and field (last name). */
const differenceKey = (at: string) => `${at.split('.')[0]}.${at.slice(at.lastIndexOf('.') + 1).replace(/\[\]$/, '')}`;

/** Bugzilla's history, its entries by (when, who) — the README: Bugzilla starts a new entry whenever the user changes. */
function historyByOperation(history: Json[]): Map<string, Json[]> {
  const operations = new Map<string, Json[]>();
  for (const entry of history) {
    const key = `${entry.when} ${entry.who}`;
    operations.set(key, [...(operations.get(key) ?? []), ...entry.changes]);
  }
  return operations;
}

const sortedChanges = (changes: Json[]) => [...changes].map((c) => JSON.stringify([c.field_name, c.removed, c.added, c.attachment_id ?? null])).sort();

inProcessDescribe('import-bugzilla: the Bugzilla 5.0.6 fixture', () => {
  const sourceName = `i42_bugzilla_${process.pid}_${randomBytes(3).toString('hex')}`;
  const sourceUrl = databaseUrl(SOURCE_SERVER, sourceName);
  let target: TestDatabase;
  let app: NestFastifyApplication;
  let base: string;
  let answers: { bugs: Record<string, Record<string, Recorded>>; global: Record<string, Json> };
  let importOutput = '';
  let importSeconds = 0;
  /** The source's checksums before and after the import: it is only read. */
  const sourceChecksums: string[] = [];
  const checksum = async () => {
    const connection = await mysql.createConnection(sourceUrl);
    const [rows] = await connection.query(`CHECKSUM TABLE ${SOURCE_TABLES.map((t) => `\`${t}\``).join(', ')}`);
    await connection.end();
    return JSON.stringify(rows);
  };

  const env = () => ({ DATABASE_URL: target.url, TRACKER_MAIL_URL: 'off', TRACKER_ADMIN_EMAIL: 'unused@example.com' });
  const tracker = async (...argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, env(), { out: (t) => void (out += t), err: (t) => void (err += t) });
    return { code, out, err };
  };
  const importArgs = ['import-bugzilla', '--from', '', '--params', `${FIXTURE}/bugzilla-5.0.6-params.json`];

  /** Starts the service on the target (again after an import: what it keeps is then out of date). */
  async function startApp(): Promise<void> {
    app = await createApp(loadConfig(env()), { logLevel: 'error' });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  }

  async function get(path: string, auth = true): Promise<Recorded> {
    const res = await fetch(`${base}/rest${path}`, { headers: auth ? { 'X-BUGZILLA-API-KEY': ADMIN_KEY } : {} });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    answers = JSON.parse(zlib.gunzipSync(fs.readFileSync(`${FIXTURE}/answers.json.gz`)).toString('utf8'));
    importArgs[2] = sourceUrl;
    [target] = await Promise.all([createTestDatabase(), loadBugzillaFixture(SOURCE_SERVER, sourceName)]);
    sourceChecksums.push(await checksum());
    const started = Date.now();
    const result = await tracker(...importArgs);
    importSeconds = (Date.now() - started) / 1000;
    importOutput = result.out + result.err;
    sourceChecksums.push(await checksum());
    if (result.code !== EXIT_OK) throw new Error(`the import failed: ${importOutput}`);
    await startApp();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await target?.drop();
    await dropDatabase(SOURCE_SERVER, sourceName);
  });

  it('imports every bug, comment, attachment and history row, and says so; the source is only read', () => {
    expect(sourceChecksums[1]).toBe(sourceChecksums[0]);
    expect(importOutput).toMatch(/^Imported from mysql:\/\/root@127\.0\.0\.1:3306\/i42_bugzilla_/);
    for (const line of ['users: 18', 'bugs: 307', 'comments: 1817', 'attachments: 102', 'attachment contents: 102', 'history entries: 2294', 'CC: 426', 'flags: 151']) {
      expect(importOutput).toContain(`  ${line}\n`);
    }
    // The fixture's 307 bugs take well under a second to write; the margin is for a shared machine.
    expect(importSeconds).toBeLessThan(30);
  });

  describe('on a second, freshly installed database', () => {
    let other: TestDatabase;
    let otherApp: NestFastifyApplication | undefined;
    const otherEnv = () => ({ DATABASE_URL: other.url, TRACKER_MAIL_URL: 'off', TRACKER_ADMIN_EMAIL: 'fresh@example.com', TRACKER_ADMIN_PASSWORD: 'fresh-password-1' });
    const rowsOf = async () => {
      const db = otherApp!.get(Db).read;
      return { users: await db.repository(User).count(), bugs: await db.repository(Bug).count(), admin: (await db.repository(User).findOneBy({ id: 1 }))?.loginName };
    };

    beforeAll(async () => {
      other = await createTestDatabase();
      // Installed by a first start of the service, then stopped: the state a new installation is in.
      otherApp = await createApp(loadConfig(otherEnv()), { logLevel: 'error' });
    });
    afterAll(async () => {
      await otherApp?.close();
      await other?.drop();
    });

    it('--check runs the whole import and writes nothing', async () => {
      let out = '';
      const code = await runCli([...importArgs, '--check'], otherEnv(), { out: (t) => void (out += t), err: () => undefined });
      expect(code).toBe(EXIT_OK);
      expect(out).toMatch(/^Check of the import from mysql:\/\/.*: it can be imported; nothing was written\.\n/);
      expect(out).toContain('  bugs: 307\n');
      expect(await rowsOf()).toEqual({ users: 1, bugs: 0, admin: 'fresh@example.com' });
    });

    it('shows its progress on a terminal (stderr), the summary on stdout', async () => {
      let out = '';
      let err = '';
      const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
      await runImportCommand({ from: sourceUrl, paramsFile: importArgs[4], check: true, databaseUrl: other.url, terminal: true }, io);
      expect(err).toContain('\rsettings: 1/1\n');
      expect(err).toContain('\rbugs: 307/307\n');
      expect(out).toContain('  comments: 1817\n');
      expect(await rowsOf()).toEqual({ users: 1, bugs: 0, admin: 'fresh@example.com' });
    });

    it('an import failing half-way (after the first page of bugs) leaves the database as it was', async () => {
      const failing = importBugzilla({
        from: sourceUrl,
        to: other.url,
        params: {},
        pageSize: 100,
        progress: (stage, done) => {
          if (stage === 'bugs' && done >= 100) throw new Error('interrupted');
        },
      });
      await expect(failing).rejects.toThrow('interrupted');
      expect(await rowsOf()).toEqual({ users: 1, bugs: 0, admin: 'fresh@example.com' });
    });

    it('--since-last refuses a database that holds no import', async () => {
      let err = '';
      expect(await runCli([...importArgs, '--since-last'], otherEnv(), { out: () => undefined, err: (t) => void (err += t) })).toBe(EXIT_ERROR);
      expect(err).toContain('this database holds no earlier import to continue');
    });

    it('refuses a database in use (more than the installed administrator)', async () => {
      await otherApp!.get(UserService).create({ email: 'second@example.com' }, { userId: null, now: new Date() });
      let err = '';
      expect(await runCli(importArgs, otherEnv(), { out: () => undefined, err: (t) => void (err += t) })).toBe(EXIT_ERROR);
      expect(err).toContain('The import cannot run: the target database is in use (2 users, 0 bugs, 1 products)');
      expect(await rowsOf()).toEqual({ users: 2, bugs: 0, admin: 'fresh@example.com' });
    });
  });

  it('refuses to run a second time, and leaves the database as it was', async () => {
    const again = await tracker(...importArgs);
    expect(again.code).toBe(EXIT_ERROR);
    expect(again.err).toMatch(/^error 32000: The import cannot run: this database already holds an import/);
    expect((await get('/bug/1')).status).toBe(200);
  });

  it('refuses a source that is not a Bugzilla database, and a URL that is no MySQL/MariaDB one', async () => {
    const server = new URL(SOURCE_SERVER);
    server.pathname = '/mysql';
    const refused = await tracker('import-bugzilla', '--from', server.toString(), '--params', importArgs[4]);
    expect(refused.code).toBe(EXIT_ERROR);
    expect(refused.err).toContain('The import cannot run: mysql is not a Bugzilla database');
    const wrongKind = await tracker('import-bugzilla', '--from', 'postgres://x@y/z', '--params', importArgs[4]);
    expect(wrongKind.code).toBe(EXIT_ERROR);
    expect(wrongKind.err).toContain('--from must be a mysql:// or mariadb:// URL');
  });

  /** Compares one kind of bug answer for every bug; returns the differences not listed in KNOWN_DIFFERENCES. */
  async function differences(kind: 'bug' | 'anonymous' | 'comments' | 'attachments', path: (id: string) => string, auth = true): Promise<string[]> {
    const found: string[] = [];
    const compare = (expected: Json, actual: Json, at: string): void => {
      if (expected && actual && typeof expected === 'object' && typeof actual === 'object' && Array.isArray(expected) === Array.isArray(actual)) {
        const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
        if (Array.isArray(expected) && expected.length !== actual.length) {
          found.push(`${at}: ${JSON.stringify(expected)} ≠ ${JSON.stringify(actual)}`);
          return;
        }
        for (const key of keys) {
          // Keyed by the site secret, so its value differs; whether it is there must not.
          if (key === 'update_token') {
            if (typeof expected[key] !== typeof actual[key]) found.push(`${at}.update_token: ${typeof expected[key]} ≠ ${typeof actual[key]}`);
            continue;
          }
          compare(expected[key], actual[key], Array.isArray(expected) ? `${at}[]` : `${at}.${key}`);
        }
        return;
      }
      if (expected === actual) return;
      if (KNOWN_DIFFERENCES[differenceKey(at)]) return;
      found.push(`${at}: ${JSON.stringify(expected)} ≠ ${JSON.stringify(actual)}`);
    };
    for (const [id, recorded] of Object.entries(answers.bugs)) {
      const actual = await get(path(id), auth);
      if (actual.status !== recorded[kind].status) found.push(`${kind} ${id}: status ${recorded[kind].status} ≠ ${actual.status}`);
      compare(recorded[kind].body, actual.body, kind);
    }
    return found;
  }

  it('answers Get Bug (include_fields=_all) for every bug as Bugzilla did', async () => {
    expect(await differences('bug', (id) => `/bug/${id}?include_fields=_all`)).toEqual([]);
  }, 60_000);

  it('answers an anonymous Get Bug for every bug as Bugzilla did (50 refused: restricted)', async () => {
    expect(Object.values(answers.bugs).filter((b) => b.anonymous.status !== 200)).toHaveLength(50);
    expect(await differences('anonymous', (id) => `/bug/${id}`, false)).toEqual([]);
  }, 60_000);

  it("answers every bug's comments as Bugzilla did: private ones, tags, work time, attachment and duplicate notices", async () => {
    expect(await differences('comments', (id) => `/bug/${id}/comment`)).toEqual([]);
  }, 60_000);

  it("answers every bug's attachments, with their data and flags, as Bugzilla did", async () => {
    expect(await differences('attachments', (id) => `/bug/${id}/attachment`)).toEqual([]);
  }, 60_000);

  it("answers every bug's history with Bugzilla's changes, grouped by user and second, one field's rows joined", async () => {
    const found: string[] = [];
    for (const [id, recorded] of Object.entries(answers.bugs)) {
      const actual = await get(`/bug/${id}/history`);
      expect(actual.status).toBe(recorded.history.status);
      const [expectedBug] = recorded.history.body.bugs;
      const [actualBug] = actual.body.bugs;
      expect({ id: actualBug.id, alias: actualBug.alias }).toEqual({ id: expectedBug.id, alias: expectedBug.alias });
      const expected = historyByOperation(expectedBug.history);
      const got = historyByOperation(actualBug.history);
      expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [operation, changes] of expected) {
        if (JSON.stringify(sortedChanges(got.get(operation) ?? [])) !== JSON.stringify(sortedChanges(changes))) found.push(`bug ${id} at ${operation}`);
      }
    }
    expect(found).toEqual([]);
  }, 60_000);

  /** Members Tracker adds where Bugzilla has none (paths with every list index written `[]`), and why. */
  const ADDED_BY_TRACKER: Record<string, string> = {
    'products.products[].group_controls': "Tracker adds each product's group controls (Bugzilla 5.0 has no such field; decisions.md, group_controls)",
    'fields.fields[].values[].is_active': 'Tracker adds is_active to the values of global select fields',
    'groups.groups[].icon_url': 'Tracker gives icon_url null where Bugzilla leaves it out (the seed lists it; decisions.md, Get Group)',
  };
  /** Lists whose order Bugzilla does not keep (README of the fixture: users, products), or Tracker keeps otherwise. */
  const UNORDERED = new Set([
    'products.products', 'users.users', 'groups.groups[].membership', 'classifications.classifications[].products',
    // Bugzilla lists milestones by sort key and value only (Milestone's LIST_ORDER): its ties come in MySQL's order.
    'fields.fields[target_milestone].values',
    // Difference: Bugzilla lists groups system groups first, then by name in MySQL's collation (`_` after letters);
    // Tracker by name.
    'groups.groups', 'users.users[].groups',
  ]);
  const canonical = (value: Json): string => JSON.stringify(value, (_key, v: Json) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v));

  function globalDifferences(expected: Json, actual: Json, at: string, found: string[]): void {
    if (expected === undefined && ADDED_BY_TRACKER[at.replace(/\[[^\]]*\]/g, '[]')]) return;
    if (Array.isArray(expected) && Array.isArray(actual)) {
      if (expected.length !== actual.length) {
        found.push(`${at}: ${expected.length} entries ≠ ${actual.length}`);
        return;
      }
      const order = (list: Json[]) => (UNORDERED.has(at) ? [...list].sort((a, b) => canonical(a).localeCompare(canonical(b))) : list);
      const [mine, theirs] = [order(expected), order(actual)];
      mine.forEach((item: Json, i: number) => globalDifferences(item, theirs[i], at.endsWith('fields.fields') ? `${at.slice(0, -1)}s[${item.name}]` : `${at}[]`, found));
      return;
    }
    if (expected && actual && typeof expected === 'object' && typeof actual === 'object') {
      for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) globalDifferences(expected[key], actual[key], `${at}.${key}`, found);
      return;
    }
    if (expected !== actual) found.push(`${at}: ${JSON.stringify(expected)} ≠ ${JSON.stringify(actual)}`);
  }

  it('answers the globals as Bugzilla did: products, classifications, fields, users, groups, flag types, time zone, extensions', async () => {
    const routes: Record<string, string> = {
      products: '/product?type=accessible&include_fields=_all',
      classifications: '/classification/Unclassified',
      fields: '/field/bug',
      // Difference: Tracker's user match has no `*` wildcard; `@` matches every login as `*` does.
      users: '/user?match=@&include_disabled=1',
      groups: '/group?membership=1',
      timezone: '/timezone',
      extensions: '/extensions',
    };
    const found: string[] = [];
    for (const [name, path] of Object.entries(routes)) {
      const actual = await get(path);
      expect({ name, status: actual.status }).toEqual({ name, status: answers.global[name].status });
      globalDifferences(answers.global[name].body, actual.body, name, found);
    }
    expect((await get('/product_accessible')).body.ids.sort()).toEqual([...answers.global.product_ids].sort());
    for (const [product, expected] of Object.entries(answers.global.flag_types)) globalDifferences(expected, (await get(`/flag_type/${product}`)).body, `flag_types.${product}`, found);
    expect(found).toEqual([]);
  });

  it("keeps Bugzilla's value of every parameter Tracker has; the others are named in the summary, left out", async () => {
    const expected: Record<string, string> = answers.global.parameters.body.parameters;
    const actual: Record<string, string> = (await get('/parameters')).body.parameters;
    for (const [name, value] of Object.entries(actual)) expect({ name, value }).toEqual({ name, value: expected[name] });
    const leftOut = Object.keys(expected).filter((name) => !(name in actual)).sort();
    expect(importOutput).toContain(`  parameters Tracker does not have (left out): ${leftOut.join(', ')}\n`);
  });

  it("logs in with the users' Bugzilla passwords, then with the same password rehashed; a disabled account stays refused", async () => {
    for (const [login, password] of [['admin@example.com', 'Admin-pass1!'], ['alice@example.com', 'Alice-pass1!'], ['dana.dev@example.com', 'dana-dev-Pw1!']]) {
      for (let time = 0; time < 2; time++) {
        const res = await fetch(`${base}/rest/login?${new URLSearchParams({ login, password }).toString()}`);
        expect({ login, time, status: res.status }).toEqual({ login, time, status: 200 });
      }
      const wrong = await fetch(`${base}/rest/login?${new URLSearchParams({ login, password: `${password}x` }).toString()}`);
      expect(wrong.status).not.toBe(200);
    }
    const admin = await app.get(Db).read.repository(User).findOneByOrFail({ id: 1 });
    expect(admin.cryptpassword).toMatch(/^scrypt\$/);
    const disabled = await (await fetch(`${base}/rest/login?${new URLSearchParams({ login: 'quinn@example.org', password: 'quinn-Pw1!' }).toString()}`)).json();
    expect(disabled).toMatchObject({ error: true, code: 301 });
  });

  it('accepts the administrator API key (stored as its digest)', async () => {
    const whoami = await get('/whoami');
    expect(whoami).toMatchObject({ status: 200, body: { id: 1, name: 'admin@example.com' } });
  });
  // Last: it changes the source and the target the tests above compare.
  it('--since-last brings the changes made in Bugzilla since the import (changed, new and deleted bugs, new users), then refuses once Tracker changed a bug; new rows continue after the highest ids', async () => {
    await runMariadbClient(SOURCE_SERVER, sourceName, fs.createReadStream(new URL('./import-bugzilla-delta.sql', import.meta.url)));
    await app.close();
    const delta = await tracker(...importArgs, '--since-last');
    expect(delta.err).toBe('');
    expect(delta.out).toMatch(/^Imported from mysql:\/\/.* \(the changes since the last import\)/);
    expect(delta.out).toContain('  bugs deleted: 1\n');
    expect(delta.out).toContain('  bugs: 2\n');
    await startApp();

    expect((await get('/bug/2')).body.bugs[0].summary).toBe('Retitled in Bugzilla after the import');
    const comments = (await get('/bug/2/comment')).body.bugs['2'].comments;
    expect(comments.at(-1)).toMatchObject({ text: 'A comment made in Bugzilla after the import', creator: 'alice@example.com' });
    expect(comments).toHaveLength(answers.bugs['2'].comments.body.bugs['2'].comments.length + 1);
    expect((await get('/bug/308')).body.bugs[0]).toMatchObject({ id: 308, summary: 'Filed in Bugzilla after the import' });
    expect((await get('/bug/307')).body).toMatchObject({ error: true, code: 101 });
    expect((await get('/user?names=late@example.com')).body.users[0]).toMatchObject({ name: 'late@example.com', real_name: 'Late Comer' });
    // An unchanged bug is as it was.
    expect((await get('/bug/5/comment')).body).toEqual(answers.bugs['5'].comments.body);

    // Long comments: the import's INSERTs stay under the server's max_allowed_packet (16 MiB on MariaDB).
    await runMariadbClient(SOURCE_SERVER, sourceName, fs.createReadStream(new URL('./import-bugzilla-large.sql', import.meta.url)));
    await app.close();
    const large = await tracker(...importArgs, '--since-last');
    expect(large.err).toBe('');
    await startApp();
    const texts = (await get('/bug/2/comment')).body.bugs['2'].comments.slice(-3).map((c: Json) => [c.text.length, c.text[0]]);
    expect(texts).toEqual([[6291456, 'a'], [6291456, 'b'], [6291456, 'c']]);

    const changed = await fetch(`${base}/rest/bug/1`, { method: 'PUT', headers: { 'X-BUGZILLA-API-KEY': ADMIN_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify({ summary: 'Changed in Tracker' }) });
    expect(changed.status).toBe(200);
    const refused = await tracker(...importArgs, '--since-last');
    expect(refused.code).toBe(EXIT_ERROR);
    expect(refused.err).toContain('bugs were changed or filed in Tracker since the import (1)');

    // The sequences continue after the highest imported ids (308, filed in Bugzilla, is the highest bug).
    const post = async (path: string, body: object) =>
      (await fetch(`${base}/rest${path}`, { method: 'POST', headers: { 'X-BUGZILLA-API-KEY': ADMIN_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
    expect(await post('/bug', { product: 'Widget', component: 'Gears', version: '1.0', summary: 'Filed in Tracker', description: 'First', op_sys: 'Linux', platform: 'PC' })).toEqual({ id: 309 });
    // 1,817 comments in the fixture, 5 more in Bugzilla after the import (delta and large .sql), then the description.
    expect(await post('/bug/309/comment', { comment: 'Second' })).toEqual({ id: 1824 });
    expect(await post('/user', { email: 'newcomer@example.com' })).toEqual({ id: 20 });
  });
});
