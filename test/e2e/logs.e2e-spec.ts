import { ADMIN_API_KEY, ADMIN_PASSWORD, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { outputDuring } from '../support/capture-output.js';

/**
 * The log (issue 14): JSON lines, one per request (request id, route template, status, duration, caller id), the
 * request id taken from X-Request-Id or made and returned, no route table at the default level, and no credential
 * in any line whatever the spelling it came in.
 */
describe('logs', () => {
  let t: TestApp;
  let startup = '';
  beforeAll(async () => {
    startup = await outputDuring(async () => {
      t = await startTestApp({}, { logLevel: 'info' });
    });
  });
  afterAll(() => t.close());

  const lines = (text: string) => text.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);

  it('start-up says what matters and no route table', () => {
    expect(startup).not.toMatch(/Mapped \{/);
    expect(lines(startup).every((line) => line.level && line.msg)).toBe(true);
  });

  it('one line per request with its id, route, status, duration and caller; the id is echoed or made', async () => {
    let echoed: string | null = null;
    let made: string | null = null;
    const output = await outputDuring(async () => {
      echoed = (await t.get('/whoami', { key: ADMIN_API_KEY, headers: { 'X-Request-Id': 'trace-42' } })).headers.get('x-request-id');
      made = (await t.get('/bug/999999')).headers.get('x-request-id');
    });
    expect(echoed).toBe('trace-42');
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    const requests = lines(output).filter((line) => line.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ level: 'info', reqId: 'trace-42', method: 'GET', route: '/rest/whoami', status: 200, caller: 1, ms: expect.any(Number) }),
      expect.objectContaining({ reqId: made, route: '/rest/bug/:id_or_alias', status: 404, caller: 0 }),
    ]);
  });

  it('no key, password or token reaches a log line, from the query, the headers or the body', async () => {
    const login = await t.get('/login', { query: { login: ADMIN_LOGIN, password: ADMIN_PASSWORD } });
    const token = login.body.token as string;
    const output = await outputDuring(async () => {
      await t.get('/whoami', { query: { Bugzilla_api_key: ADMIN_API_KEY } });
      await t.get('/whoami', { headers: { 'X-BUGZILLA-API-KEY': ADMIN_API_KEY, Authorization: `Bearer ${ADMIN_API_KEY}` } });
      await t.get('/whoami', { query: { Bugzilla_login: ADMIN_LOGIN, Bugzilla_password: ADMIN_PASSWORD } });
      await t.get('/whoami', { query: { token } });
      await t.put('/bug/1', { Bugzilla_api_key: ADMIN_API_KEY, summary: 'x'.repeat(300) });
      await fetch(`${t.baseUrl}/rest/bug/%FF?Tracker_api_key=${ADMIN_API_KEY}`);
    });
    expect(lines(output).filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(5);
    for (const secret of [ADMIN_API_KEY, ADMIN_PASSWORD, token]) expect(output).not.toContain(secret);
  });
});
