import { ADMIN_API_KEY, ADMIN_LOGIN, ADMIN_PASSWORD, startTestApp, type RequestOptions, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed } from '../support/in-process.js';
import { AuthService } from '../../src/auth/auth.service.js';
import { UserService } from '../../src/user/user.service.js';
import { digestSecret } from '../../src/common/credentials.js';
import { ApiKey } from '../../src/auth/entities/api-key.entity.js';
import { LoginToken } from '../../src/auth/entities/login-token.entity.js';
import { LoginFailure } from '../../src/auth/entities/login-failure.entity.js';
import { User } from '../../src/user/entities/user.entity.js';
import { Membership } from '../../src/group/entities/membership.entity.js';
import { UserGrant } from '../../src/group/group.service.js';

/**
 * Authentication (misc.md "Authentication", routes.md "Users, login", seed "Authentication" and "Other states",
 * defaults.md lockout and token lifetime). The app started here trusts X-Forwarded-For so that tests can speak from
 * several addresses; a running instance need not, so the tests that need two addresses are in-process only.
 */
describe('authentication', () => {
  let t: TestApp;
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const expectError = (res: { status: number; body: any }, code: number, status: number) => {
    expect(res.body).toMatchObject({ error: true, code });
    expect(typeof res.body.message).toBe('string');
    expect(res.status).toBe(status);
  };
  const login = (loginName: string, password: string, options: { query?: Record<string, string>; headers?: Record<string, string> } = {}) =>
    t.get('/login', { query: { login: loginName, password, ...options.query }, headers: options.headers });
  const whoami = (options: Parameters<TestApp['get']>[1]) => t.get('/whoami', options);
  /** The description of the key t.createUser gives a user: written directly in-process, made through the API remotely. */
  const setupKeyDescription = () => (t.isRemote ? 'e2e' : 'test');

  beforeAll(async () => {
    process.env.TRACKER_TRUST_PROXY = '1';
    try {
      t = await startTestApp();
    } finally {
      delete process.env.TRACKER_TRUST_PROXY;
    }
  });
  afterAll(() => t.close());

  describe('login form 1: login and password', () => {
    let loggedIn: { id: number; token: string };

    it('GET /rest/login answers {id, token}; the token is <user id>-<random>', async () => {
      const user = await t.createUser(loginNamed('login1'), { password: 'pass-word-1' });
      const res = await login(user.login, 'pass-word-1');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: user.id, token: expect.stringMatching(new RegExp(`^${user.id}-[A-Za-z0-9]{20,}$`)) });
      loggedIn = res.body;
    });

    inProcessIt('the token is stored only as a digest', async () => {
      const row = await t.db.read.repository(LoginToken).findOneBy({ userId: loggedIn.id });
      expect(row).toMatchObject({ tokenHash: digestSecret(loggedIn.token), ipAddr: null });
    });

    it('accepts the Tracker_ and Bugzilla_ spellings and the X-BUGZILLA-LOGIN/PASSWORD headers', async () => {
      expect((await t.get('/login', { query: { Tracker_login: ADMIN_LOGIN, Tracker_password: ADMIN_PASSWORD } })).body.id).toBe(1);
      expect((await t.get('/login', { query: { Bugzilla_login: ADMIN_LOGIN, Bugzilla_password: ADMIN_PASSWORD } })).body.id).toBe(1);
      expect((await t.get('/login', { headers: { 'X-BUGZILLA-LOGIN': ADMIN_LOGIN, 'X-BUGZILLA-PASSWORD': ADMIN_PASSWORD } })).body.id).toBe(1);
    });

    it('login and password authenticate any other call too', async () => {
      const res = await whoami({ query: { Bugzilla_login: ADMIN_LOGIN, Bugzilla_password: ADMIN_PASSWORD } });
      expect(res.body).toMatchObject({ id: 1, name: ADMIN_LOGIN });
    });

    it('a wrong password or an unknown login is 300; a missing login or password is 50', async () => {
      const user = await t.createUser(loginNamed('login2'), { password: 'pass-word-2' });
      expectError(await login(user.login, 'wrong-password', { headers: from('10.9.9.9') }), 300, 401);
      expectError(await login('ghost@example.com', 'whatever'), 300, 401);
      expectError(await t.get('/login', { query: { login: user.login } }), 50, 400);
      expectError(await t.get('/login', { query: { password: 'pass-word-2' } }), 50, 400);
      expectError(await t.get('/login'), 50, 400);
    });

    it('login is GET only (32614 for other methods)', async () => {
      expectError(await t.post('/login', { login: ADMIN_LOGIN, password: ADMIN_PASSWORD }), 32614, 404);
    });

    it('login stays open while requirelogin is on', async () => {
      await t.setParameters({ requirelogin: '1' });
      try {
        expect((await login(ADMIN_LOGIN, ADMIN_PASSWORD)).status).toBe(200);
        expectError(await t.get('/user/1'), 410, 401);
      } finally {
        await t.setParameters({ requirelogin: '0' });
      }
    });
  });

  describe('login form 2: token', () => {
    let token: string;
    let userId: number;
    const tokenLogin = loginNamed('token');
    beforeAll(async () => {
      userId = (await t.createUser(tokenLogin, { password: 'token-pass' })).id;
      token = (await login(tokenLogin, 'token-pass')).body.token;
    });

    it('authenticates as token, Tracker_token, Bugzilla_token or X-BUGZILLA-TOKEN', async () => {
      const spellings: RequestOptions[] = [{ query: { token } }, { query: { Tracker_token: token } }, { query: { Bugzilla_token: token } }, { headers: { 'X-BUGZILLA-TOKEN': token } }];
      for (const options of spellings) {
        expect((await whoami(options)).body).toMatchObject({ id: userId, name: tokenLogin });
      }
    });

    it('an unknown, malformed or foreign-user token is 32000, never anonymous', async () => {
      expectError(await t.get('/user/1', { query: { token: `${userId}-nosuchtoken` } }), 32000, 400);
      expectError(await t.get('/user/1', { query: { token: 'garbage' } }), 32000, 400);
      // the right secret under another user's id
      expectError(await t.get('/user/1', { query: { token: token.replace(/^\d+/, '1') } }), 32000, 400);
    });

    it('valid_login: true for the token of that login, false for another login, 50 without login', async () => {
      expect((await t.get('/valid_login', { query: { login: tokenLogin, token } })).body).toEqual({ result: true });
      expect((await t.get('/valid_login', { query: { login: tokenLogin.toUpperCase(), token } })).body).toEqual({ result: true });
      expect((await t.get('/valid_login', { query: { login: ADMIN_LOGIN, token } })).body).toEqual({ result: false });
      expect((await t.get('/valid_login', { query: { login: tokenLogin } })).body).toEqual({ result: false });
      expect((await t.get('/valid_login', { query: { login: tokenLogin, token: 'malformed' } })).body).toEqual({ result: false });
      expectError(await t.get('/valid_login', { query: { token } }), 50, 400);
    });

    inProcessIt('expires after 30 days unused (and is purged); use refreshes it', async () => {
      const fresh = (await login(tokenLogin, 'token-pass')).body.token;
      const old = new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
      const recent = new Date(Date.now() - 29 * 24 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
      const tokenHash = digestSecret(fresh);
      await t.db.transaction((tx) => tx.repository(LoginToken).update({ tokenHash }, { lastUsed: recent }));
      expect((await whoami({ query: { token: fresh } })).status).toBe(200);
      const refreshed = await t.db.read.repository(LoginToken).findOneBy({ tokenHash });
      expect(String(refreshed?.lastUsed) > recent).toBe(true);
      await t.db.transaction((tx) => tx.repository(LoginToken).update({ tokenHash }, { lastUsed: old }));
      expectError(await whoami({ query: { token: fresh } }), 32000, 400);
      expect(await t.db.read.repository(LoginToken).existsBy({ tokenHash })).toBe(false);
    });

    it('logout ends the token of the request only; reusing it is 32000; valid_login then says false', async () => {
      const other = (await login(tokenLogin, 'token-pass')).body.token;
      const res = await t.get('/logout', { query: { token } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: null });
      expectError(await whoami({ query: { token } }), 32000, 400);
      expect((await t.get('/valid_login', { query: { login: tokenLogin, token } })).body).toEqual({ result: false });
      expect((await whoami({ query: { token: other } })).status).toBe(200);
    });

    it('logout with a dead token, with another credential or with none does nothing', async () => {
      expect((await t.get('/logout', { query: { token } })).body).toEqual({ result: null });
      expect((await t.get('/logout', { query: { Bugzilla_token: 'garbage' } })).body).toEqual({ result: null });
      expect((await t.get('/logout')).body).toEqual({ result: null });
      expect((await t.get('/logout', { key: ADMIN_API_KEY })).body).toEqual({ result: null });
      // other credential errors still count on logout
      expectError(await t.get('/logout', { query: { api_key: 'no-such-key' } }), 306, 400);
    });
  });

  describe('restrict_login', () => {
    const restricted = loginNamed('restricted');
    beforeAll(async () => {
      await t.createUser(restricted, { password: 'restricted-pass' });
    });

    inProcessIt('binds the token to the address it was asked from; another address is refused with 32000', async () => {
      const flags: Array<Record<string, string>> = [{ restrict_login: 'True' }, { Tracker_restrictlogin: '1' }, { Bugzilla_restrictlogin: 'true' }];
      for (const flag of flags) {
        const res = await login(restricted, 'restricted-pass', { query: flag, headers: from('10.1.1.1') });
        expect(res.status).toBe(200);
        expect((await whoami({ query: { token: res.body.token }, headers: from('10.1.1.1') })).status).toBe(200);
        expectError(await whoami({ query: { token: res.body.token }, headers: from('10.2.2.2') }), 32000, 400);
      }
    });

    it('without it (or with restrict_login=false, as the npm client sends) the token works from anywhere', async () => {
      const res = await login(restricted, 'restricted-pass', { query: { restrict_login: 'false' }, headers: from('10.1.1.1') });
      expect((await whoami({ query: { token: res.body.token }, headers: from('10.2.2.2') })).status).toBe(200);
    });
  });

  describe('lockout', () => {
    inProcessIt('five failures in 30 minutes lock the account for that address, even with the right password, until the window passes', async () => {
      const user = await t.createUser('locked@example.com', { password: 'right-password' });
      const attacker = from('10.6.6.6');
      for (let attempt = 1; attempt <= 4; attempt++) {
        const res = await login('locked@example.com', 'wrong-password', { headers: attacker });
        expectError(res, 300, 401);
        // the warning comes when two or fewer attempts remain
        expect(res.body.message.includes('locked out')).toBe(5 - attempt <= 2);
      }
      expectError(await login('locked@example.com', 'wrong-password', { headers: attacker }), 32000, 400);
      const locked = await login('locked@example.com', 'right-password', { headers: attacker });
      expectError(locked, 32000, 400);
      expect(locked.body.message).toContain('10.6.6.6');
      // password authentication of any call is locked too
      expectError(await whoami({ query: { Bugzilla_login: 'locked@example.com', Bugzilla_password: 'right-password' }, headers: attacker }), 32000, 400);
      // another address is not locked
      expect((await login('locked@example.com', 'right-password', { headers: from('10.7.7.7') })).status).toBe(200);
      // the window passes
      const past = new Date(Date.now() - 31 * 60 * 1000).toISOString().slice(0, 19).replace('T', ' ');
      await t.db.transaction((tx) => tx.repository(LoginFailure).update({ userId: user.id }, { loginTime: past }));
      expect((await login('locked@example.com', 'right-password', { headers: attacker })).status).toBe(200);
    });

    let guessed: { id: number };
    let cleared: { id: number };

    it('parallel guesses lock at the limit: five passwords are compared, the rest are refused unread', async () => {
      const user = await t.createUser(loginNamed('parallel'), { password: 'right-password' });
      guessed = user;
      const address = from('10.9.9.9');
      const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => login(user.login, `wrong-${i}`, { headers: address })));
      const codes = guesses.map((res) => res.body.code as number);
      expect(codes.filter((code) => code === 300)).toHaveLength(4);
      expect(codes.filter((code) => code === 32000)).toHaveLength(36);
      expectError(await login(user.login, 'right-password', { headers: address }), 32000, 400);
    });

    inProcessIt('every compared password was recorded before it was compared: five, no more', async () => {
      expect(await t.db.read.repository(LoginFailure).countBy({ userId: guessed.id })).toBe(5);
    });

    it('a successful login clears the failures of that address', async () => {
      const user = await t.createUser(loginNamed('clears'), { password: 'right-password' });
      cleared = user;
      const address = from('10.8.8.8');
      for (let i = 0; i < 4; i++) await login(user.login, 'wrong', { headers: address });
      expect((await login(user.login, 'right-password', { headers: address })).status).toBe(200);
      expectError(await login(user.login, 'wrong', { headers: address }), 300, 401);
    });

    inProcessIt('only the failure after that login is stored', async () => {
      expect(await t.db.read.repository(LoginFailure).countBy({ userId: cleared.id })).toBe(1);
    });
  });

  describe('login form 3: API key', () => {
    it('authenticates as api_key, Tracker_api_key, Bugzilla_api_key, X-BUGZILLA-API-KEY or Authorization: Bearer', async () => {
      const user = await t.createUser(loginNamed('keyed'));
      const spellings: RequestOptions[] = [
        { query: { api_key: user.apiKey } }, { query: { Tracker_api_key: user.apiKey } }, { query: { Bugzilla_api_key: user.apiKey } },
        { headers: { 'X-BUGZILLA-API-KEY': user.apiKey } }, { headers: { Authorization: `Bearer ${user.apiKey}` } },
      ];
      for (const options of spellings) {
        expect((await whoami(options)).body.id).toBe(user.id);
      }
    });

    it('an unknown key is 306 (keys compare case-sensitively)', async () => {
      expectError(await whoami({ key: 'no-such-key' }), 306, 400);
      expectError(await whoami({ key: ADMIN_API_KEY.toUpperCase() }), 306, 400);
    });

    it('version and timezone read no API key (5.0.6): a bad one answers 200 there; the other information routes refuse it with 306', async () => {
      for (const path of ['/version', '/timezone']) {
        const res = await t.get(path, { query: { Bugzilla_api_key: 'no-such-key' } });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 200, body: (await t.get(path)).body });
      }
      for (const path of ['/parameters', '/extensions', '/time', '/last_audit_time']) {
        expectError(await t.get(path, { query: { Bugzilla_api_key: 'no-such-key' } }), 306, 400);
      }
    });

    it('a bad token on version is still the token error: the client must log in again (seed)', async () => {
      expectError(await t.get('/version', { query: { Bugzilla_token: '1-no-such-token' } }), 32000, 400);
      expectError(await t.get('/timezone', { query: { Bugzilla_token: '1-no-such-token', Bugzilla_api_key: 'no-such-key' } }), 32000, 400);
    });

    inProcessIt('a key\'s last use is refreshed when it is a minute old or more, not on every use', async () => {
      const user = await t.createUser(loginNamed('key-last-use'));
      const keyHash = digestSecret(user.apiKey);
      const stored = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 19).replace('T', ' ');
      const lastUse = async () => (await t.db.read.repository(ApiKey).findOneBy({ keyHash }))?.lastUsed;
      const usedAt = async (when: string | null) => {
        await t.db.transaction((tx) => tx.repository(ApiKey).update({ keyHash }, { lastUsed: when }));
        expect((await whoami({ key: user.apiKey })).status).toBe(200);
        return lastUse();
      };
      expect(await usedAt(null)).toEqual(expect.any(String));
      const twoMinutes = stored(120_000);
      expect(String(await usedAt(twoMinutes)) > twoMinutes).toBe(true);
      const tenSeconds = stored(10_000);
      expect(await usedAt(tenSeconds)).toBe(tenSeconds);
    });

    let laptopKey: { id: number; api_key: string };

    it('a user creates, lists, describes and revokes their own keys over REST; a revoked key is 306', async () => {
      const user = await t.createUser(loginNamed('keys'));
      const created = await t.post('/api_key', { description: 'laptop' }, { key: user.apiKey });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({ id: expect.any(Number), api_key: expect.stringMatching(/^[A-Za-z0-9]{40}$/) });
      const { id, api_key: newKey } = created.body;
      laptopKey = created.body;
      expect((await whoami({ key: newKey })).body.id).toBe(user.id);

      const listed = (await t.get('/api_key', { key: newKey })).body.api_keys;
      expect(listed).toEqual([
        { id: expect.any(Number), description: setupKeyDescription(), revoked: false, creation_time: expect.any(String), last_used: expect.any(String) },
        { id, description: 'laptop', revoked: false, creation_time: expect.stringMatching(/Z$/), last_used: expect.stringMatching(/Z$/) },
      ]);
      expect(JSON.stringify(listed)).not.toContain(newKey);

      const revoked = await t.put(`/api_key/${id}`, { revoked: true, description: 'lost laptop' }, { key: user.apiKey });
      expect(revoked.body).toEqual({ api_keys: [{ id, changes: { revoked: { removed: '0', added: '1' }, description: { removed: 'laptop', added: 'lost laptop' } } }] });
      expectError(await whoami({ key: newKey }), 306, 400);
      // un-revoking is allowed to the owner
      await t.put(`/api_key/${id}`, { revoked: false }, { key: user.apiKey });
      expect((await whoami({ key: newKey })).status).toBe(200);
    });

    inProcessIt('a key is stored as a digest, never in clear', async () => {
      const row = await t.db.read.repository(ApiKey).findOneBy({ id: laptopKey.id });
      expect(row?.keyHash).toBe(digestSecret(laptopKey.api_key));
    });

    it('the API key routes are in the OpenAPI document, marked beyond Bugzilla 5.0', async () => {
      const { paths } = (await t.get('/openapi.json')).body;
      for (const [path, method] of [['/rest/api_key', 'get'], ['/rest/api_key', 'post'], ['/rest/api_key/{id}', 'put'], ['/rest/whoami', 'get']]) {
        expect(paths[path][method].summary).toContain('Beyond Bugzilla 5.0.');
      }
    });

    it("another user's key is 51; anonymous callers get 410; a non-numeric id is 52", async () => {
      const owner = await t.createUser(loginNamed('owner'));
      const id = (await t.post('/api_key', { description: 'mine' }, { key: owner.apiKey })).body.id;
      expectError(await t.put(`/api_key/${id}`, { revoked: true }, { key: ADMIN_API_KEY }), 51, 404);
      expectError(await t.get('/api_key'), 410, 401);
      expectError(await t.post('/api_key', { description: 'x' }), 410, 401);
      expectError(await t.put('/api_key/abc', { revoked: true }, { key: owner.apiKey }), 52, 400);
      expectError(await t.post('/api_key', { description: 'x'.repeat(256) }, { key: owner.apiKey }), 104, 400);
    });

    inProcessIt('the admin command line entry point creates a key for any user (AuthService.createApiKey)', async () => {
      const user = await t.createUser('cli-key@example.com');
      const key = await t.app.get(AuthService).createApiKey(user.id, 'from the CLI', new Date());
      expect((await whoami({ key })).body.id).toBe(user.id);
      expect(await t.db.read.repository(ApiKey).existsBy({ keyHash: key })).toBe(false);
    });
  });

  describe('disabled accounts', () => {
    it("refuse password, token and API key with 301, showing the account's reason", async () => {
      const user = await t.createUser(loginNamed('disabled'), { password: 'disabled-pass' });
      const token = (await login(user.login, 'disabled-pass')).body.token;
      await t.put(`/user/${user.id}`, { login_denied_text: 'Account closed for spam.' }, { key: ADMIN_API_KEY });
      const refused = await login(user.login, 'disabled-pass');
      expectError(refused, 301, 401);
      expect(refused.body.message).toContain('Account closed for spam.');
      expectError(await whoami({ key: user.apiKey }), 301, 401);
      // the disable text ended the tokens; a token made before that is dead
      expectError(await whoami({ query: { token } }), 32000, 400);
      await t.put(`/user/${user.id}`, { login_denied_text: '' }, { key: ADMIN_API_KEY });
      expect((await login(user.login, 'disabled-pass')).status).toBe(200);
    });

    inProcessIt('a token of an account disabled behind the API’s back is refused with 301', async () => {
      const user = await t.createUser('disabled2@example.com', { password: 'disabled-pass' });
      const token = (await login('disabled2@example.com', 'disabled-pass')).body.token;
      await t.db.transaction((tx) => tx.repository(User).update({ id: user.id }, { loginDeniedText: 'Gone.' }));
      expectError(await whoami({ query: { token } }), 301, 401);
    });
  });

  describe('whoami (beyond 5.0)', () => {
    it("answers the caller's own user object, with field selection; anonymous gets 410", async () => {
      const user = await t.createUser(loginNamed('me'), { realName: 'Me Myself' });
      const res = await whoami({ key: user.apiKey });
      expect(res.body).toMatchObject({ id: user.id, name: user.login, real_name: 'Me Myself', email: user.login, can_login: true, saved_searches: [], saved_reports: [] });
      expect(res.body.groups.map((g: any) => g.name)).toEqual(['bz_canusewhines', 'editbugs']);
      expect((await whoami({ key: user.apiKey, query: { include_fields: 'id,name' } })).body).toEqual({ id: user.id, name: user.login });
      expectError(await whoami({}), 410, 401);
    });
  });

  describe('UserService.create (the admin command line entry point)', () => {
    inProcessIt('validates like Create User, applies regexp memberships and audits', async () => {
      const users = t.app.get(UserService);
      const id = await users.create({ email: 'cli-user@example.com', fullName: 'Cli User', password: 'cli-password' }, { userId: null, now: new Date() });
      expect((await login('cli-user@example.com', 'cli-password')).body.id).toBe(id);
      const regexp = await t.db.read.repository(Membership).findBy({ userId: id, grantType: UserGrant.REGEXP });
      expect(regexp).toHaveLength(1);
      await expect(users.create({ email: 'cli-user@example.com' }, { userId: null, now: new Date() })).rejects.toMatchObject({ code: 500 });
      await expect(users.create({ email: 'bad' }, { userId: null, now: new Date() })).rejects.toMatchObject({ code: 501 });
      const [audit] = await t.auditOf('Tracker::User', id);
      expect(audit?.userId).toBeNull();
    });
  });

  describe('OpenAPI', () => {
    it('documents the parameters of login, logout, valid_login, the API key bodies and the information routes', async () => {
      const { paths, components } = (await t.get('/openapi.json')).body;
      const names = (path: string, method: string) => paths[path][method].parameters.map((p: any) => p.name);
      expect(names('/rest/login', 'get')).toEqual(expect.arrayContaining(['login', 'password', 'restrict_login']));
      expect(names('/rest/logout', 'get')).toEqual(['token']);
      expect(names('/rest/valid_login', 'get')).toEqual(expect.arrayContaining(['login', 'token']));
      expect(names('/rest/last_audit_time', 'get')).toEqual(['class']);
      const body = (path: string, method: string) => paths[path][method].requestBody.content['application/json'].schema;
      const properties = (path: string, method: string) => Object.keys(components.schemas[body(path, method).$ref.split('/').pop()].properties);
      expect(properties('/rest/api_key', 'post')).toEqual(['description']);
      expect(properties('/rest/api_key/{id}', 'put')).toEqual(expect.arrayContaining(['description', 'revoked']));
      expect(body('/rest/parameters', 'put')).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
    });
  });
});
