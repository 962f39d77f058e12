import { ADMIN_API_KEY, ADMIN_LOGIN, ADMIN_PASSWORD, startTestApp, type TestApp } from '../support/test-app.js';
import { BugzillaAPI } from '../support/bugzilla-client.js';
import { inProcessIt, loginNamed } from '../support/in-process.js';
import { LoginToken } from '../../src/auth/entities/login-token.entity.js';

/**
 * The npm `bugzilla` client, unchanged, against Tracker (clients.md): it sends X-BUGZILLA-API-KEY with
 * Authorization: Bearer, or logs in with GET /rest/login (restrict_login=true/false) and then sends
 * X-BUGZILLA-TOKEN; it asks GET /rest/whoami for the current user.
 */

describe('accounts through the npm bugzilla client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('an API key client reads the version and learns who it is', async () => {
    const api = new BugzillaAPI(t.baseUrl, ADMIN_API_KEY);
    expect(await api.version()).toBe('5.0.6');
    expect(await api.whoami()).toMatchObject({ id: 1, name: ADMIN_LOGIN, real_name: 'Administrator' });
  });

  it('an anonymous client is refused by whoami (login required)', async () => {
    await expect(new BugzillaAPI(t.baseUrl).whoami()).rejects.toThrow(/401/);
  });

  let passwordClient: { id: number };

  it('a password client logs in once, then works with its token, restricted to its address or not', async () => {
    const user = await t.createUser(loginNamed('client'), { password: 'client-pass', realName: 'Client User' });
    passwordClient = user;
    for (const restrict of [false, true]) {
      const api = new BugzillaAPI(t.baseUrl, user.login, 'client-pass', restrict);
      expect(await api.whoami()).toMatchObject({ id: user.id, name: user.login, real_name: 'Client User' });
      expect(await api.whoami()).toMatchObject({ id: user.id });
    }
  });

  inProcessIt('the client logged in once per session: an unrestricted token, then one bound to its address', async () => {
    const tokens = await t.db.read.repository(LoginToken).find({ where: { userId: passwordClient.id }, order: { id: 'ASC' } });
    expect(tokens.map((token) => token.ipAddr === null)).toEqual([true, false]);
  });

  it('a wrong password makes the client fail; the admin flow of creating an account then logging in works', async () => {
    await expect(new BugzillaAPI(t.baseUrl, ADMIN_LOGIN, 'wrong-password').whoami()).rejects.toThrow(/401/);
    const admin = new BugzillaAPI(t.baseUrl, ADMIN_LOGIN, ADMIN_PASSWORD);
    expect((await admin.whoami()).id).toBe(1);
    const login = loginNamed('fresh');
    const created = await t.post('/user', { email: login, full_name: 'Fresh', password: 'fresh-pass' }, { key: ADMIN_API_KEY });
    const fresh = new BugzillaAPI(t.baseUrl, login, 'fresh-pass');
    expect(await fresh.whoami()).toMatchObject({ id: created.body.id, name: login, real_name: 'Fresh' });
  });

  it("a changed password ends the client's session; a disabled account's key and a revoked key are refused", async () => {
    const user = await t.createUser(loginNamed('session'), { password: 'session-pass' });
    const session = new BugzillaAPI(t.baseUrl, user.login, 'session-pass');
    expect((await session.whoami()).id).toBe(user.id);
    await t.put(`/user/${user.id}`, { password: 'other-pass' }, { key: ADMIN_API_KEY });
    await expect(session.whoami()).rejects.toThrow(/400/);

    const keyed = new BugzillaAPI(t.baseUrl, user.apiKey);
    expect((await keyed.whoami()).id).toBe(user.id);
    const { id, api_key: second } = (await t.post('/api_key', { description: 'client' }, { key: user.apiKey })).body;
    await t.put(`/api_key/${id}`, { revoked: true }, { key: user.apiKey });
    await expect(new BugzillaAPI(t.baseUrl, second).whoami()).rejects.toThrow(/400/);
    await t.put(`/user/${user.id}`, { login_denied_text: 'Closed.' }, { key: ADMIN_API_KEY });
    await expect(keyed.whoami()).rejects.toThrow(/401/);
  });
});
