import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, expectCodedError, ok } from '../support/catalogue-fixtures.js';
import { loginNamed, named } from '../support/in-process.js';

/**
 * Webhooks over REST (issue 15, beyond Bugzilla 5.0): a user's own, an administrator's all; checked input; refused
 * internal addresses. Black-box: the URLs are never called here (deliveries: webhook-delivery.e2e-spec.ts).
 */
const ALL_EVENTS = ['create', 'modify', 'comment', 'attachment'];
const HOOK_URL = 'https://hooks.example.com/tracker';

describe('webhooks over REST', () => {
  let t: TestApp;
  let owner: { id: number; login: string; apiKey: string };
  let other: { id: number; login: string; apiKey: string };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.createUser(loginNamed('hook-manager'));
    other = await t.createUser(loginNamed('hook-other'));
  });
  afterAll(() => t.close());

  async function createHook(fields: Record<string, unknown> = {}, key = owner.apiKey): Promise<{ id: number; secret: string }> {
    return ok(await t.post('/webhook', { name: 'sync', url: HOOK_URL, events: ALL_EVENTS, ...fields }, { key }));
  }
  const state = async (id: number, key = owner.apiKey) => ok(await t.get(`/webhook/${id}`, { key })).webhooks[0];
  const remove = async (id: number, key = owner.apiKey) => ok(await t.request('DELETE', `/webhook/${id}`, { key }));

  it('creates a webhook for a logged-in user and answers {id, secret} (the secret only there)', async () => {
    const created = await createHook({ name: 'Jira sync', product: 'TestProduct', component: 'TestComponent' });
    expect(created).toEqual({ id: expect.any(Number), secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const view = await state(created.id);
    expect(view).toMatchObject({
      id: created.id, name: 'Jira sync', url: HOOK_URL, events: ALL_EVENTS, product: 'TestProduct', component: 'TestComponent',
      enabled: true, owner: owner.login,
      state: { status: 'enabled', disabled_reason: null, consecutive_failures: 0, last_success_time: null, last_failure: null, queue_depth: 0 },
    });
    expect(JSON.stringify(view)).not.toContain(created.secret);
    expect(ok(await t.get(`/webhook/${created.id}/deliveries`, { key: owner.apiKey })).deliveries).toEqual([]);
    await remove(created.id);
  });

  it('refuses anonymous callers (410) and bad input with coded errors, changing nothing', async () => {
    expectCodedError(await t.post('/webhook', { name: 'x', url: HOOK_URL, events: ['create'] }), 410, 401);
    expectCodedError(await t.post('/webhook', { url: HOOK_URL, events: ['create'] }, { key: owner.apiKey }), 50, 400);
    expectCodedError(await t.post('/webhook', { name: 'x', url: 'ftp://example.com/x', events: ['create'] }, { key: owner.apiKey }), 10501, 400);
    expectCodedError(await t.post('/webhook', { name: 'x', url: 'not a url', events: ['create'] }, { key: owner.apiKey }), 10501, 400);
    expectCodedError(await t.post('/webhook', { name: 'x', url: HOOK_URL, events: ['create', 'deleted'] }, { key: owner.apiKey }), 10503, 400);
    expectCodedError(await t.post('/webhook', { name: 'x', url: HOOK_URL, events: [] }, { key: owner.apiKey }), 10503, 400);
    expectCodedError(await t.post('/webhook', { name: 'x', url: HOOK_URL, events: ['create'], product: 'Nope' }, { key: owner.apiKey }), 106, 401);
    expectCodedError(await t.post('/webhook', { name: 'x', url: HOOK_URL, events: ['create'], component: 'TestComponent' }, { key: owner.apiKey }), 50, 400);
    expectCodedError(await t.post('/webhook', { name: 'x', url: HOOK_URL, events: ['create'], product: 'TestProduct', component: 'Nope' }, { key: owner.apiKey }), 105, 400);
    expect(ok(await t.get('/webhook', { key: owner.apiKey })).webhooks).toEqual([]);
  });

  it("refuses a product filter on a product the caller cannot access, as one that does not exist (106)", async () => {
    const group = named('hook-sealed');
    const product = named('HookSealed');
    await createBugGroup(t, group);
    await createProduct(t, product, { group_controls: [{ group, membercontrol: 'mandatory', othercontrol: 'mandatory', entry: true }] });
    expectCodedError(await t.post('/webhook', { name: 'x', url: HOOK_URL, events: ['create'], product }, { key: owner.apiKey }), 106, 401);
    expect(ok(await t.get('/webhook', { key: owner.apiKey })).webhooks).toEqual([]);
  });

  it("shows and changes only one's own webhooks (another's is 404); an administrator manages all", async () => {
    const mine = await createHook({ name: 'mine' });
    const theirs = await createHook({ name: 'theirs' }, other.apiKey);
    expect(ok(await t.get('/webhook', { key: owner.apiKey })).webhooks.map((w: any) => w.name)).toEqual(['mine']);
    expectCodedError(await t.get(`/webhook/${theirs.id}`, { key: owner.apiKey }), 10500, 404);
    expectCodedError(await t.put(`/webhook/${theirs.id}`, { name: 'stolen' }, { key: owner.apiKey }), 10500, 404);
    expectCodedError(await t.request('DELETE', `/webhook/${theirs.id}`, { key: owner.apiKey }), 10500, 404);
    expectCodedError(await t.get(`/webhook/${theirs.id}/deliveries`, { key: owner.apiKey }), 10500, 404);
    expectCodedError(await t.get('/webhook/abc', { key: owner.apiKey }), 10500, 404);

    const all = ok(await t.get('/webhook', { key: ADMIN_API_KEY })).webhooks.map((w: any) => [w.name, w.owner]);
    expect(all).toEqual(expect.arrayContaining([['mine', owner.login], ['theirs', other.login]]));
    const renamed = ok(await t.put(`/webhook/${theirs.id}`, { name: 'renamed', events: 'comment,create' }, { key: ADMIN_API_KEY })).webhooks[0];
    expect(renamed).toMatchObject({ name: 'renamed', events: ['create', 'comment'], owner: other.login });

    expect(ok(await t.request('DELETE', `/webhook/${mine.id}`, { key: owner.apiKey }))).toEqual({ id: mine.id });
    expect(ok(await t.request('DELETE', `/webhook/${theirs.id}`, { key: ADMIN_API_KEY }))).toEqual({ id: theirs.id });
    expectCodedError(await t.get(`/webhook/${mine.id}`, { key: owner.apiKey }), 10500, 404);
  });

  it("lists one's own webhooks in BMO's shape at /rest/webhooks/list (issue 43; deliveries: webhook-bmo.e2e-spec.ts)", async () => {
    const bmo = await createHook({ name: 'JBI', format: 'bmo', events: ['change', 'create'], product: 'TestProduct', component: 'Any' });
    const theirs = await createHook({ name: 'theirs' }, other.apiKey);
    expect(await state(bmo.id)).toMatchObject({ format: 'bmo', events: ['create', 'change'], product: 'TestProduct', component: null, api_key_header: null });
    expect(ok(await t.get('/webhooks/list', { key: owner.apiKey }))).toEqual({ webhooks: [
      { id: bmo.id, name: 'JBI', url: HOOK_URL, event: 'create,change', product: 'TestProduct', component: 'Any', enabled: true, errors: 0, creator: owner.login },
    ] });
    expectCodedError(await t.get('/webhooks/list'), 410, 401);
    await remove(bmo.id);
    await remove(theirs.id, other.apiKey);
  });

  it('is documented in the OpenAPI document, marked beyond 5.0', async () => {
    const document = ok(await t.request('GET', '/rest/openapi.json'));
    for (const [path, methods] of [['/rest/webhook', ['get', 'post']], ['/rest/webhook/{id}', ['get', 'put', 'delete']], ['/rest/webhook/{id}/deliveries', ['get']], ['/rest/webhooks/list', ['get']]] as const) {
      for (const method of methods) expect(document.paths[path]?.[method]?.summary).toContain('Beyond Bugzilla 5.0');
    }
  });
});

describe('webhook addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('refuses loopback and private addresses unless TRACKER_WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const ipv4InIpv6 = ['http://[::7f00:1]:8080/hook', 'http://[::127.0.0.1]/hook', 'http://[::ffff:127.0.0.1]/hook', 'http://[0:0:0:0:0:ffff:a00:1]/hook', 'http://[::ffff:0:a9fe:a9fe]/latest', 'http://[2002:c0a8:101::]/hook'];
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://10.1.2.3/hook', 'http://192.168.1.1/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', ...ipv4InIpv6]) {
      expectCodedError(await t.post('/webhook', { name: 'inward', url, events: ['create'] }, { key: ADMIN_API_KEY }), 10502, 400);
    }
    expect(ok(await t.get('/webhook', { key: ADMIN_API_KEY })).webhooks).toEqual([]);
  });
});
