import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { BugzillaAPI } from '../support/bugzilla-client.js';
import { loginNamed } from '../support/in-process.js';
import { presentedComments } from './bug-update-fixtures.js';

/**
 * Update Bug through the npm `bugzilla` client, unchanged (clients.md): it asks GET /rest/whoami, files with
 * POST /rest/bug, updates with PUT /rest/bug/(id) (its body carries `ids` and `id_or_alias` too, which Tracker
 * takes as naming the bugs), validates the {bugs: [{id, alias, last_change_time, changes}]} answer, and reads the
 * history.
 */
describe('Update Bug through the npm bugzilla client', () => {
  let t: TestApp;
  const ccLogin = loginNamed('client-cc');
  beforeAll(async () => {
    t = await startTestApp();
    await t.createUser(ccLogin);
  });
  afterAll(() => t.close());

  it('files a bug, moves it to IN_PROGRESS with a cc and a comment, resolves it, and reads the history', async () => {
    const api = new BugzillaAPI(t.baseUrl, ADMIN_API_KEY);
    expect((await api.whoami()).name).toBe(ADMIN_LOGIN);
    const id = await api.createBug({
      product: 'TestProduct', component: 'TestComponent', summary: 'Filed by the client', version: 'unspecified',
      op_sys: 'All', platform: 'All', priority: 'Normal', severity: 'normal', description: 'from npm',
    });

    const [taken] = await api.updateBug(id, {
      id_or_alias: id, ids: [id], status: 'IN_PROGRESS', cc: { add: [ccLogin] },
      comment: { comment: 'working on it', is_private: false },
    });
    expect(taken.id).toBe(id);
    expect(taken.alias).toEqual([]);
    expect(taken.changes.get('status')).toEqual({ removed: 'CONFIRMED', added: 'IN_PROGRESS' });
    expect(taken.changes.get('cc')).toEqual({ removed: '', added: ccLogin });
    expect((await presentedComments(t, id)).map((c) => c.text)).toEqual(['from npm', 'working on it']);

    const [resolved] = await api.updateBug(id, { id_or_alias: id, ids: [id], status: 'RESOLVED', resolution: 'FIXED' });
    expect(resolved.changes.get('resolution')).toEqual({ removed: '', added: 'FIXED' });

    const history = await api.bugHistory(id);
    const fields = history.flatMap((h) => h.changes.map((c) => c.field_name));
    expect(fields).toEqual(expect.arrayContaining(['status', 'cc', 'resolution']));
  });

  it('an update error reaches the client as a rejection carrying the message', async () => {
    const api = new BugzillaAPI(t.baseUrl, ADMIN_API_KEY);
    await expect(api.updateBug(999999, { id_or_alias: 999999, ids: [999999], summary: 'x' })).rejects.toThrow(/404/);
  });
});
