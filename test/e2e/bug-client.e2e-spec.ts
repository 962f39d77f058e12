import { BugzillaAPI } from '../support/bugzilla-client.js';
import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { named } from '../support/in-process.js';
import { productGroup, setProductControl } from './bug-fixtures.js';

/**
 * A whole bug flow through the npm `bugzilla` client, unchanged (clients.md): it sends its API key as headers,
 * asks whoami, files bugs (POST /rest/bug), reads them through the search form (GET /rest/bug?id=…, with
 * include_fields) and validates every field of the answer against its own schema, then reads the history.
 */
describe('bugs through the npm bugzilla client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('files a bug, reads it back whole and by selected fields, and reads its history', async () => {
    const api = new BugzillaAPI(t.baseUrl, ADMIN_API_KEY);
    expect((await api.whoami()).name).toBe(ADMIN_LOGIN);
    const blocked = await api.createBug({ product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'first', description: 'd', op_sys: 'Linux', platform: 'PC', priority: 'High', severity: 'major' });
    const alias = named('client-bug');
    const id = await api.createBug({
      product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'through the client',
      description: 'filed by the npm client', alias: [alias], blocks: [blocked], cc: [ADMIN_LOGIN],
    } as never);
    expect(id).toBeGreaterThan(blocked);

    const [bug] = await api.getBugs([id]);
    expect(bug).toMatchObject({ id, summary: 'through the client', alias: [alias], blocks: [blocked], cc: [ADMIN_LOGIN], status: 'CONFIRMED', is_open: true });
    expect(bug.creation_time.toISO()).toMatch(/^\d{4}-/);

    const selected = await api.getBugs([blocked, id]).include(['id', 'summary', 'depends_on']);
    expect(selected).toEqual([{ id: blocked, summary: 'first', depends_on: [id] }, { id, summary: 'through the client', depends_on: [] }]);

    const history = await api.bugHistory(blocked);
    expect(history).toHaveLength(1);
    expect(history[0].changes).toEqual([{ field_name: 'depends_on', removed: '', added: String(id) }]);
  });

  it('an anonymous client cannot file bugs and does not see group bugs', async () => {
    const secret = named('secret');
    await productGroup(t, secret, { membercontrol: 1, othercontrol: 1 });
    try {
      const admin = new BugzillaAPI(t.baseUrl, ADMIN_API_KEY);
      const hidden = await admin.createBug({ product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'hidden', groups: [secret] } as never);
      const anonymous = new BugzillaAPI(t.baseUrl);
      await expect(anonymous.createBug({ product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'x' } as never)).rejects.toThrow(/401/);
      expect(await anonymous.getBugs([hidden])).toEqual([]);
      await expect(anonymous.bugHistory(hidden)).rejects.toThrow(/401/);
    } finally {
      // A control of nothing removes TestProduct's control on the group.
      await setProductControl(t, secret, { membercontrol: 0, othercontrol: 0 });
    }
  });
});
