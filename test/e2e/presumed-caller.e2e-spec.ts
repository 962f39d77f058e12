import { ADMIN_API_KEY, startTestApp, withoutKeptWriteChecks, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed } from '../support/in-process.js';
import { inProcess, itWhen, needsFastPaths, onDialect } from '../support/conditions.js';
import { expectSqlSnapshot, recordSql } from '../support/sql-snapshots.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { ApiKey } from '../../src/auth/entities/api-key.entity.js';
import { DEFAULT_BUG } from './bug-fixtures.js';
import { Db } from '../../src/database/db.service.js';
import { CredentialCheckRepository } from '../../src/auth/store/credential-check.repository.js';
import { SettingsMarkService } from '../../src/audit/store/settings-mark.service.js';

/**
 * A write that presumes its caller (presumesCaller in src/fast-paths.ts: Create and Update Bug) takes the caller the credential named last
 * on the instance and carries the credential's check in its transaction (MySQL; SQLite resolves every caller first). These
 * tests change the credential behind the instance's back and show that nothing commits for a caller the credential
 * no longer names, and that the request is answered as the credential stands now: on every dialect, with the fast
 * paths or without (the wire is the same); the statements of the presumption itself on MySQL with the fast paths.
 */
const presumes = [inProcess, onDialect('mysql', 'SQLite resolves every caller first, nothing is presumed'), needsFastPaths];

describe('a presumed caller commits only while its credential still names it', () => {
  let t: TestApp;
  let other: TestApp;
  const bugCount = () => t.db.read.repository(Bug).count();
  const create = (key: string, fields: Record<string, unknown> = {}, app = t) => app.post('/bug', { ...DEFAULT_BUG, ...fields }, { key });
  const updateBug = (key: string, id: number, whiteboard: string) => t.put(`/bug/${id}`, { whiteboard, comment: { body: whiteboard } }, { key });

  beforeAll(async () => {
    t = await startTestApp();
    if (!t.isRemote) other = await startTestApp({}, { sharing: t });
  });
  afterAll(async () => {
    await other?.close();
    await t.close();
  });

  /** A user with a key this instance has seen on a Create Bug, so that the next one presumes its caller. */
  async function warmUser(name: string) {
    const user = await t.createUser(loginNamed(name));
    expect((await create(user.apiKey)).status).toBe(200);
    return user;
  }

  itWhen(...presumes)('a warm create sends the key\'s check in its transaction, not before it (records statements)', async () => {
    const user = await warmUser('warm');
    const sent = await recordSql(() => create(user.apiKey));
    // The first round trip is the transaction's (a mail to the assignee goes with the COMMIT in a second one): its
    // writes, then the key's check, which fails before the COMMIT runs.
    expectSqlSnapshot('bug/sql/create-bug-presumed-caller', 'A warm Create Bug by API key, mailing the assignee', sent);
  });

  inProcessIt('a key revoked in the database behind the instance (no settings mark moves) is refused, and nothing is written', async () => {
    const user = await warmUser('revoked');
    await t.db.transaction((tx) => tx.repository(ApiKey).update({ userId: user.id }, { revoked: true }));
    const before = await bugCount();
    expect((await create(user.apiKey)).body).toMatchObject({ error: true, code: 306 });
    expect(await bugCount()).toBe(before);
    // The credential's error wins over the request's own, as when the caller is resolved first.
    expect((await create(user.apiKey, { product: 'NoSuchProduct' })).body).toMatchObject({ error: true, code: 306 });
    expect(await bugCount()).toBe(before);
  });

  itWhen(...presumes)('a presumed create whose key was revoked behind the instance fails its condition, rolls back, and checks the key the whole way (records statements)', async () => {
    const user = await warmUser('revoked-counted');
    await t.db.transaction((tx) => tx.repository(ApiKey).update({ userId: user.id }, { revoked: true }));
    const sent = await recordSql(async () => expect((await create(user.apiKey)).body).toMatchObject({ error: true, code: 306 }));
    expectSqlSnapshot('bug/sql/create-bug-presumed-caller-revoked', 'A Create Bug presuming a caller whose API key was revoked behind the instance', sent);
  });

  inProcessIt('a key revoked through another instance is refused here at once, and nothing is written', async () => {
    const user = await warmUser('revoked-elsewhere');
    const [key] = (await other.get('/api_key', { key: user.apiKey })).body.api_keys as Array<{ id: number }>;
    expect((await other.put(`/api_key/${key.id}`, { revoked: true }, { key: user.apiKey })).status).toBe(200);
    const before = await bugCount();
    expect((await create(user.apiKey)).body).toMatchObject({ error: true, code: 306 });
    expect(await bugCount()).toBe(before);
  });

  inProcessIt('an account disabled through another instance (the settings mark moves) is refused here, and nothing is written', async () => {
    const user = await warmUser('disabled');
    expect((await other.put(`/user/${user.id}`, { login_denied_text: 'Gone fishing.' }, { key: ADMIN_API_KEY })).status).toBe(200);
    const before = await bugCount();
    expect((await create(user.apiKey)).body).toMatchObject({ error: true, code: 301 });
    expect(await bugCount()).toBe(before);
  });

  inProcessIt('a caller whose settings moved on is run again as the credential names them now: the bug is filed once', async () => {
    const user = await warmUser('moved-on');
    await other.setParameters({ maintainer: `maintainer-${Date.now()}@example.com` });
    const before = await bugCount();
    const res = await create(user.apiKey, { summary: 'filed once' });
    expect(res.status).toBe(200);
    const id = res.body.id as number;
    expect(await bugCount()).toBe(before + 1);
    expect((await t.get(`/bug/${id}`, { key: user.apiKey })).body.bugs[0]).toMatchObject({ summary: 'filed once', creator: user.login });
  });

  inProcessIt('a login token deleted by logging out elsewhere is refused here, and nothing is written', async () => {
    const login = loginNamed('token-holder');
    await t.createUser(login, { password: 'a-long-password-1' });
    const { token } = (await t.get('/login', { query: { login, password: 'a-long-password-1' } })).body as { token: string };
    const withToken = () => t.post('/bug', DEFAULT_BUG, { query: { token } });
    expect((await withToken()).status).toBe(200);
    expect((await other.get('/logout', { query: { token } })).status).toBe(200);
    const before = await bugCount();
    expect((await withToken()).body).toMatchObject({ error: true, code: 32000 });
    expect(await bugCount()).toBe(before);
  });
  itWhen(...presumes)('a warm create by login token carries the token\'s check in its transaction, which its deletion elsewhere must fail (records statements)', async () => {
    const login = loginNamed('token-counted');
    await t.createUser(login, { password: 'a-long-password-1' });
    const { token } = (await t.get('/login', { query: { login, password: 'a-long-password-1' } })).body as { token: string };
    const withToken = () => t.post('/bug', DEFAULT_BUG, { query: { token } });
    expect((await withToken()).status).toBe(200);
    const sent = await recordSql(async () => expect((await withToken()).status).toBe(200));
    expectSqlSnapshot('bug/sql/create-bug-presumed-login-token', 'A warm Create Bug by login token, mailing the assignee', sent);
  });

  itWhen(...presumes)('a presumed create whose caller\'s settings moved on rolls back and runs again as the credential names them now (records statements)', async () => {
    const user = await warmUser('moved-on-counted');
    await other.setParameters({ maintainer: 'moved-on-counted@example.com' });
    const sent = await recordSql(async () => expect((await create(user.apiKey, { summary: 'filed once' })).status).toBe(200));
    expectSqlSnapshot('bug/sql/create-bug-presumed-caller-moved-on', 'A Create Bug presuming a caller whose settings moved on through another instance', sent);
  });

  itWhen(...presumes)('a warm update sends the key\'s check with the bug\'s lock, in its transaction: no statement before it (records statements)', async () => {
    const user = await warmUser('warm-update');
    const id = (await create(user.apiKey)).body.id as number;
    // The check of what the update keeps (TRACKER_CACHE_BUGS_CHECK) reads the bug again: not the service's own statements.
    const checking = withoutKeptWriteChecks(t);
    const sent = await recordSql(async () => expect((await updateBug(user.apiKey, id, 'presumed')).status).toBe(200)).finally(() => checking.restore());
    // After the lock: the check is a plain read, and MySQL's snapshot must not be taken before the lock is granted.
    expectSqlSnapshot('bug/sql/update-bug-presumed-caller', 'A warm one-bug Update Bug (whiteboard and a comment) by API key', sent);
  });

  inProcessIt('an update by a key revoked behind the instance is refused (306), and nothing of it is written', async () => {
    const user = await warmUser('revoked-update');
    const id = (await create(user.apiKey)).body.id as number;
    expect((await updateBug(user.apiKey, id, 'before')).status).toBe(200);
    await t.db.transaction((tx) => tx.repository(ApiKey).update({ userId: user.id }, { revoked: true }));
    expect((await updateBug(user.apiKey, id, 'after')).body).toMatchObject({ error: true, code: 306 });
    expect((await t.get(`/bug/${id}`, { key: ADMIN_API_KEY })).body.bugs[0].whiteboard).toBe('before');
  });

  itWhen(...presumes)('a transaction that fails on its condition marks it failed (the caller was presumed under what the key no longer says); one failing after its condition held does not', async () => {
    const checks = t.app.get(CredentialCheckRepository);
    const unknownKey = { statement: checks.presumedKeyCheck(t.db.read.quote, 'no such key', 1, 0), met: false, failed: undefined as boolean | undefined };
    await expect(t.db.transaction(async (tx) => tx.repository(Bug).count(), [unknownKey])).rejects.toThrow(/out of range/);
    expect(unknownKey).toMatchObject({ met: false, failed: true });
    const user = await t.createUser(loginNamed('condition-holds'));
    const key = await t.db.read.repository(ApiKey).findOneByOrFail({ userId: user.id });
    const mark = (await t.app.get(SettingsMarkService).settingsMark()).mark;
    const holds = { statement: checks.presumedKeyCheck(t.db.read.quote, key.keyHash, user.id, mark), met: false, failed: undefined as boolean | undefined };
    await expect(t.db.transaction(async (tx) => tx.repository(Bug).findOneByOrFail({ id: -1 }), [holds])).rejects.toThrow(/Could not find/);
    expect(holds).toMatchObject({ met: false, failed: undefined });
  });

  itWhen(inProcess, onDialect('sqlite', 'MariaDB/MySQL takes commit conditions'), needsFastPaths)('on SQLite nothing presumes: a commit condition is refused there, since nothing could make it fail', async () => {
    // Refused before anything runs: the statement is not even looked at.
    const condition = { statement: { sql: '', params: [] }, met: false };
    await expect(t.app.get(Db).transaction(async () => 1, [condition])).rejects.toThrow(/MySQL/);
    const user = await t.createUser(loginNamed('sqlite-caller'));
    expect((await create(user.apiKey)).status).toBe(200);
    expect((await create(user.apiKey)).status).toBe(200);
  });
});
