import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Values kept per instance (the caller's parameters, user row and memberships; loaded bugs) must never be served
 * after a change through the API: every such change moves the settings mark or the bug's revision, read on each
 * request.
 */
describe('kept values follow every change at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('a membership granted through Update User counts on the very next request', async () => {
    const user = await t.createUser('kept-member@example.com');
    expect((await t.get('/parameters', { key: user.apiKey })).body.parameters).not.toHaveProperty('insidergroup');
    expect((await t.put(`/user/${user.login}`, { groups: { add: ['tweakparams'] } }, { key: ADMIN_API_KEY })).status).toBe(200);
    expect((await t.get('/parameters', { key: user.apiKey })).body.parameters).toHaveProperty('insidergroup');
    expect((await t.put(`/user/${user.login}`, { groups: { remove: ['tweakparams'] } }, { key: ADMIN_API_KEY })).status).toBe(200);
    expect((await t.get('/parameters', { key: user.apiKey })).body.parameters).not.toHaveProperty('insidergroup');
  });

  it('a parameter changed through PUT /rest/parameters is what the next request sees', async () => {
    expect((await t.get('/parameters')).body.parameters.maintainer).toBe('admin@example.com');
    expect((await t.put('/parameters', { maintainer: 'keeper@example.com' }, { key: ADMIN_API_KEY })).status).toBe(200);
    expect((await t.get('/parameters')).body.parameters.maintainer).toBe('keeper@example.com');
  });

  it('a user disabled through Update User is refused on the next request with the same key', async () => {
    const user = await t.createUser('kept-disabled@example.com');
    expect((await t.get('/whoami', { key: user.apiKey })).status).toBe(200);
    expect((await t.put(`/user/${user.login}`, { login_denied_text: 'Gone' }, { key: ADMIN_API_KEY })).status).toBe(200);
    const res = await t.get('/whoami', { key: user.apiKey });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(301);
  });

  it('a renamed real name shows at once in a bug that was read before', async () => {
    const user = await t.createUser('kept-reporter@example.com', { realName: 'Before' });
    const created = await t.post('/bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'kept', description: 'd' }, { key: user.apiKey });
    const id = created.body.id;
    expect((await t.get(`/bug/${id}`, { key: ADMIN_API_KEY })).body.bugs[0].creator_detail.real_name).toBe('Before');
    expect((await t.put(`/user/${user.login}`, { full_name: 'After' }, { key: ADMIN_API_KEY })).status).toBe(200);
    expect((await t.get(`/bug/${id}`, { key: ADMIN_API_KEY })).body.bugs[0].creator_detail.real_name).toBe('After');
  });
});
