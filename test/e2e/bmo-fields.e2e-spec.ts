import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { createProduct, ok } from '../support/catalogue-fixtures.js';
import { DEFAULT_BUG, expectError, fileBug, letSecondPass } from './bug-fixtures.js';

/**
 * BMO's bug fields (issue 43): off by default (the bugs answer as Bugzilla 5.0's), on with the bmo_bug_fields
 * parameter: type (with a component's default), regressed_by / regressions, duplicates, comment_count, filed_via,
 * the component's triage owner, last_change_time_non_bot; through create, update, get, search and history.
 */
describe("BMO's bug fields", () => {
  let t: TestApp;
  const admin = { key: ADMIN_API_KEY };
  const BMO_FIELDS = ['type', 'regressed_by', 'regressions', 'duplicates', 'comment_count', 'filed_via', 'triage_owner', 'last_change_time_non_bot'];
  const getBug = async (id: number, query: Record<string, string> = {}) => ok(await t.get(`/bug/${id}`, { ...admin, query })).bugs[0];
  const historyOf = async (id: number) => ok(await t.get(`/bug/${id}/history`, admin)).bugs[0].history
    .flatMap((entry: { changes: Array<{ field_name: string; removed: string; added: string }> }) => entry.changes);
  const searchIds = async (query: Record<string, string | string[]>) => ok(await t.get('/bug', { ...admin, query: { product: 'Regressland', include_fields: 'id', ...query } })).bugs
    .map((bug: { id: number }) => bug.id);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('off (the default): the answers of Bugzilla 5.0', () => {
    let id: number;
    beforeAll(async () => {
      id = await fileBug(t);
    });

    it('Get Bug shows none of them, not even with _extra or by name', async () => {
      const bug = await getBug(id);
      const extra = await getBug(id, { include_fields: `_default,_extra,${BMO_FIELDS.join(',')}` });
      for (const field of BMO_FIELDS) {
        expect(bug).not.toHaveProperty(field);
        expect(extra).not.toHaveProperty(field);
      }
    });

    it('Create Bug refuses their keys (53), Search Bugs too; Update Bug drops them as any unknown key', async () => {
      for (const key of ['type', 'regressed_by', 'regressions', 'filed_via']) {
        expectError(await t.post('/bug', { ...DEFAULT_BUG, [key]: key === 'regressed_by' || key === 'regressions' ? [id] : 'task' }, admin), 53, 400);
        expectError(await t.get('/bug', { ...admin, query: { [key]: key === 'regressed_by' || key === 'regressions' ? String(id) : 'task' } }), 53, 400);
      }
      const res = ok(await t.put(`/bug/${id}`, { type: 'task', regressed_by: { add: [id] } }, admin));
      expect(res.bugs[0].changes).toEqual({});
    });

    it('Get Parameters does not list its parameters, even to an administrator', async () => {
      const parameters = ok(await t.get('/parameters', admin)).parameters;
      expect(parameters).not.toHaveProperty('bmo_bug_fields');
      expect(parameters).not.toHaveProperty('default_bug_type');
    });

    it('Get Product shows no triage owner or default type of its components', async () => {
      const component = ok(await t.get('/product/TestProduct', admin)).products[0].components[0];
      expect(component).not.toHaveProperty('triage_owner');
      expect(component).not.toHaveProperty('default_bug_type');
    });
  });

  describe('on (bmo_bug_fields=1)', () => {
    let triager: { id: number; login: string; apiKey: string };
    let original: number; let regression: number; let another: number; let duplicate: number; let task: number;

    beforeAll(async () => {
      ok(await t.put('/parameters', { bmo_bug_fields: '1' }, admin));
      triager = await t.createUser('triager@example.com', { realName: 'Tri Ager' });
      await createProduct(t, 'Regressland', {}, { triage_owner: triager.login });
      ok(await t.post('/component', {
        product: 'Regressland', name: 'Chores', description: 'Chores', default_assignee: ADMIN_LOGIN, default_bug_type: 'task',
      }, admin));
      const file = (fields: Record<string, unknown>) => fileBug(t, { product: 'Regressland', component: 'General', version: '1.0', ...fields });
      original = await file({ summary: 'the change', type: 'enhancement' });
      regression = await file({ summary: 'what it broke', regressed_by: [original], filed_via: 'standard_form' });
      another = await file({ summary: 'another' });
      duplicate = await file({ summary: 'same as the change', filed_via: 'by owl' });
      task = await file({ summary: 'a task by default', component: 'Chores' });
    });

    it('Get Parameters lists its parameters to an administrator', async () => {
      expect(ok(await t.get('/parameters', admin)).parameters).toMatchObject({ bmo_bug_fields: '1', default_bug_type: 'defect' });
    });

    it("Get Product shows each component's triage owner and default type (the installation's when none)", async () => {
      const components = ok(await t.get('/product/Regressland', admin)).products[0].components;
      const byName = Object.fromEntries(components.map((c: { name: string }) => [c.name, c]));
      expect(byName.General).toMatchObject({ triage_owner: triager.login, default_bug_type: 'defect' });
      expect(byName.Chores).toMatchObject({ triage_owner: '', default_bug_type: 'task' });
    });

    it("Create Bug: the type asked for, else the component's default; filed_via api unless one of BMO's methods is said", async () => {
      const fields = { include_fields: 'id,type,filed_via' };
      expect(await getBug(original, fields)).toEqual({ id: original, type: 'enhancement', filed_via: 'api' });
      expect(await getBug(regression, fields)).toEqual({ id: regression, type: 'defect', filed_via: 'standard_form' });
      expect(await getBug(duplicate, fields)).toEqual({ id: duplicate, type: 'defect', filed_via: 'unknown' });
      expect(await getBug(task, fields)).toEqual({ id: task, type: 'task', filed_via: 'api' });
      expectError(await t.post('/bug', { ...DEFAULT_BUG, type: 'feature' }, admin), 51, 404);
    });

    it('Create Bug with regressed_by: both bugs list each other, the other bug has it in its history', async () => {
      expect(await getBug(regression, { include_fields: 'regressed_by,regressions' })).toEqual({ regressed_by: [original], regressions: [] });
      expect(await getBug(original, { include_fields: 'regressed_by,regressions' })).toEqual({ regressed_by: [], regressions: [regression] });
      expect(await historyOf(original)).toContainEqual({ field_name: 'regressions', removed: '', added: String(regression) });
    });

    it('Get Bug: the default fields, and the extra ones by name or with _extra', async () => {
      const bug = await getBug(original);
      expect(bug).toMatchObject({ type: 'enhancement', regressed_by: [], regressions: [regression], duplicates: [], comment_count: 1 });
      for (const field of ['filed_via', 'triage_owner', 'triage_owner_detail', 'last_change_time_non_bot']) expect(bug).not.toHaveProperty(field);
      const extra = await getBug(original, { include_fields: '_extra' });
      expect(extra).toEqual({
        filed_via: 'api',
        triage_owner: triager.login,
        triage_owner_detail: { id: triager.id, real_name: 'Tri Ager', name: triager.login, email: triager.login },
        last_change_time_non_bot: bug.last_change_time,
        tags: [],
      });
      expect(await getBug(task, { include_fields: 'triage_owner' })).toEqual({ triage_owner: '' });
    });

    it('Update Bug: type and regressions change with add/remove/set, recorded in both bugs\' history', async () => {
      const changed = ok(await t.put(`/bug/${another}`, { type: 'Task', regressed_by: { add: [original] }, regressions: { set: [duplicate] } }, admin));
      expect(changed.bugs[0].changes).toEqual({
        type: { removed: 'defect', added: 'task' },
        regressed_by: { removed: '', added: String(original) },
        regressions: { removed: '', added: String(duplicate) },
      });
      expect(await getBug(another, { include_fields: 'type,regressed_by,regressions' })).toEqual({ type: 'task', regressed_by: [original], regressions: [duplicate] });
      expect(await getBug(original, { include_fields: 'regressions' })).toEqual({ regressions: [regression, another] });
      expect(await getBug(duplicate, { include_fields: 'regressed_by' })).toEqual({ regressed_by: [another] });
      expect(await historyOf(another)).toEqual(expect.arrayContaining([
        { field_name: 'type', removed: 'defect', added: 'task' },
        { field_name: 'regressed_by', removed: '', added: String(original) },
        { field_name: 'regressions', removed: '', added: String(duplicate) },
      ]));
      expect(await historyOf(duplicate)).toContainEqual({ field_name: 'regressed_by', removed: '', added: String(another) });

      await letSecondPass(t);
      ok(await t.put(`/bug/${another}`, { regressions: { remove: [duplicate] } }, admin));
      expect(await getBug(duplicate, { include_fields: 'regressed_by' })).toEqual({ regressed_by: [] });
      expect(await historyOf(duplicate)).toContainEqual({ field_name: 'regressed_by', removed: String(another), added: '' });
    });

    it('Update Bug refuses a regression loop (116), a bug regressing itself and an unknown type, changing nothing', async () => {
      expectError(await t.put(`/bug/${original}`, { regressed_by: { add: [another] } }, admin), 116, 400);
      expectError(await t.put(`/bug/${original}`, { regressions: { add: [original] } }, admin), 116, 400);
      expectError(await t.put(`/bug/${original}`, { type: 'feature' }, admin), 51, 404);
      expect(await getBug(original, { include_fields: 'type,regressed_by,regressions' })).toEqual({ type: 'enhancement', regressed_by: [], regressions: [regression, another] });
      // A loop through dependencies is no loop of regressions: the graphs are apart.
      ok(await t.put(`/bug/${original}`, { depends_on: { add: [another] } }, admin));
    });

    it('lists open bugs first, as dependencies: a regression closed goes last', async () => {
      expect(await getBug(original, { include_fields: 'regressions' })).toEqual({ regressions: [regression, another] });
      ok(await t.put(`/bug/${regression}`, { status: 'RESOLVED', resolution: 'FIXED' }, admin));
      expect(await getBug(original, { include_fields: 'regressions' })).toEqual({ regressions: [another, regression] });
      ok(await t.put(`/bug/${regression}`, { status: 'CONFIRMED' }, admin));
    });

    it('duplicates: the bugs marked duplicate of the bug; comment_count counts its comments', async () => {
      ok(await t.put(`/bug/${duplicate}`, { status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: original }, admin));
      const comments = ok(await t.get(`/bug/${original}/comment`, admin)).bugs[String(original)].comments;
      expect(comments.length).toBeGreaterThan(1);
      expect(await getBug(original, { include_fields: 'duplicates,comment_count' })).toEqual({ duplicates: [duplicate], comment_count: comments.length });
      ok(await t.post(`/bug/${original}/comment`, { comment: 'one more' }, admin));
      expect(await getBug(original, { include_fields: 'comment_count' })).toEqual({ comment_count: comments.length + 1 });
      // Reopened, the bug is no duplicate any more: its original (kept by the service or not) no longer lists it.
      expect(await getBug(original, { include_fields: 'duplicates' })).toEqual({ duplicates: [duplicate] });
      ok(await t.put(`/bug/${duplicate}`, { status: 'CONFIRMED' }, admin));
      expect(await getBug(duplicate, { include_fields: 'dupe_of' })).toEqual({ dupe_of: null });
      expect(await getBug(original, { include_fields: 'duplicates' })).toEqual({ duplicates: [] });
    });

    it("Search Bugs answers with them as Get Bug's objects do", async () => {
      const found = ok(await t.get('/bug', { ...admin, query: { id: String(another), include_fields: 'id,type,regressed_by,filed_via' } })).bugs;
      expect(found).toEqual([{ id: another, type: 'task', regressed_by: [original], filed_via: 'api' }]);
    });

    it('Search Bugs by type, regressed_by, regressions and filed_via, plain and as chart fields', async () => {
      expect(await searchIds({ type: 'task' })).toEqual([another, task]);
      expect(await searchIds({ type: ['enhancement', 'task'] })).toEqual([original, another, task]);
      expect(await searchIds({ regressed_by: String(original) })).toEqual([regression, another]);
      expect(await searchIds({ regressions: String(regression) })).toEqual([original]);
      expect(await searchIds({ filed_via: 'standard_form' })).toEqual([regression]);
      expect(await searchIds({ f1: 'bug_type', o1: 'notequals', v1: 'defect' })).toEqual([original, another, task]);
      expect(await searchIds({ f1: 'regresses', o1: 'isnotempty' })).toEqual([original]);
      expect(await searchIds({ f1: 'type', o1: 'changedto', v1: 'task' })).toEqual([another]);
    });

    it('the change feed names the bug a new or changed regression names: its regressions changed', async () => {
      const file = (fields: Record<string, unknown>) => fileBug(t, { product: 'Regressland', component: 'General', version: '1.0', ...fields });
      const cause = await file({ summary: 'a cause' });
      const later = await file({ summary: 'a later one' });
      const feedAfter = async (since: string) => ok(await t.get('/changes', { ...admin, query: { since, limit: 1000 } })).changes
        .filter((entry: { id: number }) => entry.id === cause || entry.id === later);
      const start = ok(await t.get('/changes', admin)).cursor;
      const regressed = await file({ summary: 'regressed by the cause', regressed_by: [cause] });
      expect(await feedAfter(start)).toEqual([{ id: cause, kinds: ['update'] }]);
      const next = ok(await t.get('/changes', { ...admin, query: { since: start, limit: 1000 } })).cursor;
      ok(await t.put(`/bug/${regressed}`, { regressed_by: { add: [later] } }, admin));
      expect(await feedAfter(next)).toEqual([{ id: later, kinds: ['update'] }]);
    });

    it('Update Component sets and clears the triage owner and default type; bugs show the new owner', async () => {
      ok(await t.put('/component/Regressland/Chores', { triage_owner: triager.login, default_bug_type: '' }, admin));
      const chores = ok(await t.get('/product/Regressland', admin)).products[0].components.find((c: { name: string }) => c.name === 'Chores');
      expect(chores).toMatchObject({ triage_owner: triager.login, default_bug_type: 'defect' });
      expect(await getBug(task, { include_fields: 'triage_owner' })).toMatchObject({ triage_owner: triager.login });
      expectError(await t.put('/component/Regressland/Chores', { default_bug_type: 'feature' }, admin), 51, 404);
      expectError(await t.put('/component/Regressland/Chores', { triage_owner: 'nobody-at-all@example.com' }, admin), 51, 404);
    });
  });
});
