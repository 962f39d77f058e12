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

  it('a login Update and Create Bug found before follows a rename at once, and a new account is found at once', async () => {
    const bug = { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'kept logins', description: 'd' };
    const user = await t.createUser('kept-old-login@example.com');
    const filed = await t.post('/bug', { ...bug, cc: ['kept-old-login@example.com'] }, { key: ADMIN_API_KEY });
    expect(filed.status).toBe(200);
    const id = filed.body.id;
    expect((await t.put(`/bug/${id}`, { cc: { remove: ['kept-old-login@example.com'] } }, { key: ADMIN_API_KEY })).status).toBe(200);
    expect((await t.put(`/user/${user.login}`, { email: 'kept-new-login@example.com' }, { key: ADMIN_API_KEY })).status).toBe(200);
    const old = await t.put(`/bug/${id}`, { cc: { add: ['kept-old-login@example.com'] } }, { key: ADMIN_API_KEY });
    expect(old.body.code).toBe(51);
    expect((await t.post('/bug', { ...bug, cc: ['kept-old-login@example.com'] }, { key: ADMIN_API_KEY })).body.code).toBe(504);
    expect((await t.put(`/bug/${id}`, { cc: { add: ['kept-new-login@example.com'] } }, { key: ADMIN_API_KEY })).status).toBe(200);
    expect((await t.put(`/bug/${id}`, { cc: { add: ['kept-later@example.com'] } }, { key: ADMIN_API_KEY })).body.code).toBe(51);
    await t.createUser('kept-later@example.com');
    expect((await t.put(`/bug/${id}`, { cc: { add: ['kept-later@example.com'] } }, { key: ADMIN_API_KEY })).status).toBe(200);
    expect((await t.get(`/bug/${id}`, { key: ADMIN_API_KEY })).body.bugs[0].cc).toEqual(['kept-later@example.com', 'kept-new-login@example.com']);
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
