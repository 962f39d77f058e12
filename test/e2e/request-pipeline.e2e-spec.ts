import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt } from '../support/in-process.js';
import { expectError, fileBug } from './bug-fixtures.js';

/** The order of one request (docs/decisions.md, issue 8): request hook → access guard → input → handler. */
describe('request pipeline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('the request hook serves the controllers’ routes only', () => {
    it('an unknown route stays 32614 whatever its credentials and body', async () => {
      expectError(await t.get('/no/such/thing', { key: 'not-a-key' }), 32614, 404);
      expectError(await t.request('POST', '/no/such/thing', { rawBody: '{not json', headers: { 'content-type': 'application/json' } }), 32614, 404);
    });

    it('the OpenAPI document is served whatever the credentials', async () => {
      expect((await t.get('/openapi.json', { key: 'not-a-key' })).status).toBe(200);
    });
  });

  describe('credentials that name no caller are refused by the access guard, in the route’s own terms', () => {
    it('an unknown API key is 306 on an open route', async () => {
      expectError(await t.get('/parameters', { key: 'not-a-key' }), 306, 400);
    });

    it('a dead token is no error on logout and valid_login (their exception filter still sees it)', async () => {
      expect((await t.get('/logout', { query: { token: '1-dead' } })).body).toEqual({ result: null });
      expect((await t.get('/valid_login', { query: { login: 'someone@example.com', token: '1-dead' } })).body).toEqual({ result: false });
    });
  });

  describe('input', () => {
    it('a DTO error names the Bugzilla function (53)', async () => {
      const res = await t.post('/group', { name: { not: 'a string' }, description: 'd' }, { key: ADMIN_API_KEY });
      expectError(res, 53, 400);
      expect(res.body.message).toContain('Group.create');
    });

    it('an update wrong in both its target and its values answers with the target’s error, as Bugzilla checks it first', async () => {
      expectError(await t.put('/product/TestProduct', { name: { not: 'a string' } }, { key: ADMIN_API_KEY, query: { ids: 'abc' } }), 52, 400);
    });
  });

  describe('the clock', () => {
    inProcessIt('a request’s timestamp is the clock’s time to the second', async () => {
      t.clock.advance(86_400);
      const expected = new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      const id = await fileBug(t);
      const bug = (await t.get(`/bug/${id}`, { key: ADMIN_API_KEY })).body.bugs[0];
      // A second may pass between reading the clock here and in the request.
      expect(Date.parse(bug.creation_time) - Date.parse(expected)).toBeGreaterThanOrEqual(0);
      expect(Date.parse(bug.creation_time) - Date.parse(expected)).toBeLessThanOrEqual(1000);
      expect(bug.last_change_time).toBe(bug.creation_time);
    });
  });
});
