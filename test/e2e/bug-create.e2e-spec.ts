import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { DEFAULT_BUG, expectError, fileBug, productGroup, sql } from './bug-fixtures.js';

describe('Create Bug (POST /rest/bug)', () => {
  let t: TestApp;
  let reporter: { id: number; login: string; apiKey: string };
  let outsider: { id: number; login: string; apiKey: string };

  const create = (fields: Record<string, unknown>, key = ADMIN_API_KEY) => t.post('/bug', { ...DEFAULT_BUG, ...fields }, { key });
  const getBug = async (id: number, key = ADMIN_API_KEY) => (await t.get(`/bug/${id}`, { key })).body.bugs[0];
  const count = async (table: string) => Number((await t.db.read.one(`SELECT COUNT(*) AS n FROM ${table}`))!.n);

  beforeAll(async () => {
    t = await startTestApp();
    reporter = await t.createUser('reporter@example.com');
    // Not in editbugs (every account is, through its user_regexp; this one is taken out): no time tracking either.
    outsider = await t.createUser('outsider@example.com');
    await sql(t, [["DELETE FROM user_group_map WHERE user_id = ? AND group_id = (SELECT id FROM groups WHERE name = 'editbugs')", [outsider.id]]]);
  });
  afterAll(() => t.close());

  describe('required and defaulted fields', () => {
    it('answers {id}; defaults come from the parameters, the assignee from the component, status CONFIRMED', async () => {
      const res = await create({}, reporter.apiKey);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: expect.any(Number) });
      const bug = await getBug(res.body.id);
      expect(bug).toMatchObject({
        product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'A bug',
        op_sys: 'All', platform: 'All', priority: '---', severity: 'enhancement', status: 'CONFIRMED', resolution: '',
        is_confirmed: true, creator: reporter.login, assigned_to: ADMIN_LOGIN, qa_contact: '', target_milestone: '---',
        is_cc_accessible: true, is_creator_accessible: true, cc: [], groups: [], alias: [],
      });
    });

    it('needs a login (410)', async () => {
      expectError(await t.post('/bug', DEFAULT_BUG), 410, 401);
    });

    it('the description becomes comment 0, private only for insiders (comment_is_private)', async () => {
      const id = await fileBug(t, { description: 'Steps:\r\n1. run  \n\n', comment_is_private: true });
      const comments = await t.db.read.all('SELECT text, is_private, user_id FROM comments WHERE bug_id = ? ORDER BY id', [id]);
      expect(comments).toEqual([{ text: 'Steps:\n1. run', is_private: 0, user_id: 1 }]);
      await t.setParameters({ insidergroup: 'admin' });
      try {
        const privateId = await fileBug(t, { description: 'secret', comment_is_private: true });
        expect((await t.db.read.one('SELECT is_private FROM comments WHERE bug_id = ?', [privateId]))!.is_private).toBe(1);
      } finally {
        await t.setParameters({ insidergroup: '' });
      }
    });

    it('names the missing or invalid field: product 50, component 105, summary 107, version 50', async () => {
      expectError(await create({ product: '' }), 50, 400);
      expectError(await create({ component: undefined }), 105, 400);
      expectError(await create({ summary: '   ' }), 107, 400);
      expectError(await create({ version: undefined }), 50, 400);
      expect((await create({ product: '' })).body.message).toMatch(/product/);
    });

    it('unknown product or one closed to the caller is 106; a disabled product 106', async () => {
      expectError(await create({ product: 'NoSuchProduct' }), 106, 401);
      await sql(t, [["INSERT INTO products (name, classification_id, description, is_active, default_milestone, has_unconfirmed) VALUES ('Closed', 1, 'closed', 0, '---', 1)"]]);
      expectError(await create({ product: 'Closed' }), 106, 401);
      await productGroup(t, 'entry-only', { product: 'TestProduct', entry: true, membercontrol: 0, othercontrol: 0 });
      try {
        expectError(await create({}, reporter.apiKey), 106, 401);
      } finally {
        await sql(t, [["DELETE FROM group_control_map WHERE group_id = (SELECT id FROM groups WHERE name = 'entry-only')"]]);
      }
    });

    it('an unknown component, version, milestone or select value is 51 / 404; an inactive component value_inactive', async () => {
      expectError(await create({ component: 'Nope' }), 51, 404);
      expectError(await create({ version: '9.9' }), 51, 404);
      expectError(await create({ target_milestone: 'M9' }), 51, 404);
      expectError(await create({ op_sys: 'BeOS' }), 51, 404);
      expectError(await create({ severity: 'apocalyptic' }), 51, 404);
      await sql(t, [["INSERT INTO components (name, product_id, default_assignee_id, description, is_active, sortkey) VALUES ('Old', 1, 1, 'old', 0, 0)"]]);
      expectError(await create({ component: 'Old' }), 32000, 400);
    });

    it('a summary over 255 characters is 104; a description over 65535 is 114', async () => {
      expectError(await create({ summary: 'x'.repeat(256) }), 104, 400);
      expectError(await create({ description: 'x'.repeat(65536) }), 114, 400);
    });

    it('a defaulted field with an empty default is 50 when omitted', async () => {
      await t.setParameters({ defaultopsys: '' });
      try {
        expectError(await create({}), 50, 400);
        expect((await create({ op_sys: 'Linux' })).status).toBe(200);
      } finally {
        await t.setParameters({ defaultopsys: 'All' });
      }
    });

    it('a key that is not a bug field is 53, naming it; fields nobody may set are ignored', async () => {
      const res = await create({ bogus: 1 });
      expectError(res, 53, 400);
      expect(res.body.message).toContain('bogus');
      expectError(await create({ cf_nope: 'x' }), 53, 400);
      const id = (await create({ dupe_of: 1, creator: 'someone@else', is_confirmed: false })).body.id;
      expect(await getBug(id)).toMatchObject({ dupe_of: null, creator: ADMIN_LOGIN, is_confirmed: true });
    });

    it('several wrong fields give the same error every time: the first in validation order (cc before keywords)', async () => {
      for (let run = 0; run < 3; run++) expectError(await create({ keywords: ['nokeyword'], cc: ['ghost@example.com'] }), 504, 401);
    });

    it('internal field names are accepted (short_desc, bug_severity, rep_platform)', async () => {
      const res = await t.post('/bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', short_desc: 'old names', bug_severity: 'major', rep_platform: 'PC' }, { key: ADMIN_API_KEY });
      expect(await getBug(res.body.id)).toMatchObject({ summary: 'old names', severity: 'major', platform: 'PC' });
    });
  });

  describe('fields the caller may not set are defaulted (workflow.md "Create Bug")', () => {
    it('outside editbugs: status, assigned_to and qa_contact are ignored; UNCONFIRMED', async () => {
      await t.setParameters({ useqacontact: '1' });
      try {
        const id = (await create({ status: 'IN_PROGRESS', assigned_to: reporter.login, qa_contact: reporter.login }, outsider.apiKey)).body.id;
        expect(await getBug(id)).toMatchObject({ status: 'UNCONFIRMED', is_confirmed: false, assigned_to: ADMIN_LOGIN, qa_contact: '' });
      } finally {
        await t.setParameters({ useqacontact: '0' });
      }
    });

    it('editbugs granted for the product by a group control counts like the global group', async () => {
      const productEditors = await productGroup(t, 'product-editors', { membercontrol: 0, othercontrol: 0 });
      await sql(t, [['UPDATE group_control_map SET editbugs = 1 WHERE group_id = ?', [productEditors]],
        ['INSERT INTO user_group_map (user_id, group_id, is_bless, grant_type) VALUES (?, ?, 0, 0)', [outsider.id, productEditors]]]);
      try {
        const id = (await create({ status: 'IN_PROGRESS', assigned_to: reporter.login }, outsider.apiKey)).body.id;
        expect(await getBug(id)).toMatchObject({ status: 'IN_PROGRESS', assigned_to: reporter.login });
      } finally {
        await sql(t, [['DELETE FROM user_group_map WHERE user_id = ? AND group_id = ?', [outsider.id, productEditors]]]);
      }
    });

    it('time-tracking fields are ignored for non-time-trackers and kept for time trackers', async () => {
      const ignored = (await create({ estimated_time: 3, deadline: '2030-05-06' }, outsider.apiKey)).body.id;
      expect(await getBug(ignored)).toMatchObject({ estimated_time: 0, remaining_time: 0, deadline: null });
      const kept = (await create({ estimated_time: 3, remaining_time: 1.5, deadline: '2030-05-06' })).body.id;
      expect(await getBug(kept)).toMatchObject({ estimated_time: 3, remaining_time: 1.5, deadline: '2030-05-06' });
      expectError(await create({ estimated_time: 'lots' }), 52, 400);
      expectError(await create({ estimated_time: -1 }), 55, 400);
      expectError(await create({ deadline: '2030-13-01' }), 56, 400);
    });

    it('priority is forced to defaultpriority while letsubmitterchoosepriority is off', async () => {
      await t.setParameters({ letsubmitterchoosepriority: '0' });
      try {
        expect((await getBug((await create({ priority: 'High' })).body.id)).priority).toBe('---');
      } finally {
        await t.setParameters({ letsubmitterchoosepriority: '1' });
      }
      expect((await getBug((await create({ priority: 'High' })).body.id)).priority).toBe('High');
    });

    it('qa_contact only while useqacontact is on; the assignee given by an editbugs member overrides the component', async () => {
      const off = (await create({ qa_contact: reporter.login })).body.id;
      expect((await getBug(off)).qa_contact).toBe('');
      await t.setParameters({ useqacontact: '1' });
      try {
        const on = (await create({ qa_contact: reporter.login, assigned_to: reporter.login })).body.id;
        expect(await getBug(on)).toMatchObject({ qa_contact: reporter.login, assigned_to: reporter.login });
        expectError(await create({ qa_contact: 'nobody@example.com' }), 51, 404);
      } finally {
        await t.setParameters({ useqacontact: '0' });
      }
      expectError(await create({ assigned_to: 'nobody@example.com' }), 51, 404);
    });
  });

  describe('initial status (workflow.md, rule 4)', () => {
    it('UNCONFIRMED only where the product has it; a closed status is 123 with the default workflow', async () => {
      expect((await getBug((await create({ status: 'UNCONFIRMED' })).body.id)).status).toBe('UNCONFIRMED');
      expect((await getBug((await create({ status: 'IN_PROGRESS' })).body.id)).status).toBe('IN_PROGRESS');
      expectError(await create({ status: 'RESOLVED', resolution: 'FIXED' }), 123, 400);
      expectError(await create({ status: 'NOSUCH' }), 51, 404);
      await sql(t, [["INSERT INTO products (name, classification_id, description, is_active, default_milestone, has_unconfirmed) VALUES ('Confirmed', 1, 'no unconfirmed', 1, '---', 0)"],
        ["INSERT INTO components (name, product_id, default_assignee_id, description, is_active, sortkey) SELECT 'C', id, 1, 'c', 1, 0 FROM products WHERE name = 'Confirmed'"],
        ["INSERT INTO versions (value, product_id, is_active, sortkey) SELECT '1.0', id, 1, 0 FROM products WHERE name = 'Confirmed'"],
        ["INSERT INTO milestones (value, product_id, is_active, sortkey) SELECT '---', id, 1, 0 FROM products WHERE name = 'Confirmed'"]]);
      const where = { product: 'Confirmed', component: 'C', version: '1.0' };
      expectError(await create({ ...where, status: 'UNCONFIRMED' }), 123, 400);
      expect((await getBug((await create(where, outsider.apiKey)).body.id)).status).toBe('CONFIRMED');
    });

    it('where an administrator allows a closed initial status, a resolution is needed (121), legal, never DUPLICATE (119)', async () => {
      await sql(t, [["INSERT INTO status_workflow (from_status_id, to_status_id, require_comment) SELECT NULL, v.id, 0 FROM field_values v JOIN fielddefs f ON f.id = v.field_id WHERE f.name = 'bug_status' AND v.value = 'RESOLVED'"]]);
      try {
        expectError(await create({ status: 'RESOLVED' }), 121, 400);
        expectError(await create({ status: 'RESOLVED', resolution: 'NOPE' }), 51, 404);
        expectError(await create({ status: 'RESOLVED', resolution: 'DUPLICATE' }), 119, 400);
        const id = (await create({ status: 'RESOLVED', resolution: 'FIXED' })).body.id;
        expect(await getBug(id)).toMatchObject({ status: 'RESOLVED', resolution: 'FIXED', is_open: false });
        expectError(await create({ status: 'CONFIRMED', resolution: 'FIXED' }), 122, 400);
      } finally {
        await sql(t, [['DELETE FROM status_workflow WHERE from_status_id IS NULL AND to_status_id = (SELECT v.id FROM field_values v JOIN fielddefs f ON f.id = v.field_id WHERE f.name = ? AND v.value = ?)', ['bug_status', 'RESOLVED']]]);
      }
    });
  });

  describe('aliases, cc, keywords, dependencies, see also', () => {
    it('aliases must be unique and well formed (103)', async () => {
      const id = (await create({ alias: ['first-alias', 'second'] })).body.id;
      expect((await getBug(id)).alias).toEqual(['first-alias', 'second']);
      expect((await getBug((await create({ alias: 'plain-string' })).body.id)).alias).toEqual(['plain-string']);
      for (const bad of ['FIRST-ALIAS', '12345', 'has space', 'a,b', 'x'.repeat(41)]) expectError(await create({ alias: [bad] }), 103, 400);
    });

    it('concurrent creates with one alias: one wins, the others get 103, never a 500', async () => {
      const results = await Promise.all([0, 1, 2, 3].map(() => create({ alias: ['raced'] })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const res of results.filter((r) => r.status !== 200)) expectError(res, 103, 400);
    });

    it('cc takes logins (unknown: 504) and adds the component default cc', async () => {
      expectError(await create({ cc: ['ghost@example.com'] }), 504, 401);
      await sql(t, [['INSERT INTO component_cc (component_id, user_id) VALUES (1, ?)', [outsider.id]]]);
      try {
        const id = (await create({ cc: [reporter.login] })).body.id;
        expect((await getBug(id)).cc).toEqual([outsider.login, reporter.login]);
      } finally {
        await sql(t, [['DELETE FROM component_cc WHERE user_id = ?', [outsider.id]]]);
      }
    });

    it('keywords must exist (51)', async () => {
      await sql(t, [["INSERT INTO keywords (name, description, is_active) VALUES ('perf', 'performance', 1)"]]);
      expect((await getBug((await create({ keywords: ['perf'] })).body.id)).keywords).toEqual(['perf']);
      expectError(await create({ keywords: ['nokeyword'] }), 51, 404);
    });

    it('blocks/depends_on name visible bugs; the other bug gets a history entry and a new last_change_time', async () => {
      const other = await fileBug(t);
      const before = (await getBug(other)).last_change_time;
      await new Promise((r) => setTimeout(r, 1100));
      const id = (await create({ blocks: [other] })).body.id;
      const after = await getBug(other);
      expect(after.depends_on).toEqual([id]);
      expect(after.last_change_time > before).toBe(true);
      const history = (await t.get(`/bug/${other}/history`)).body.bugs[0].history;
      expect(history.at(-1).changes).toEqual([{ field_name: 'depends_on', removed: '', added: String(id) }]);
      expectError(await create({ depends_on: [999999] }), 101, 404);
    });

    it('a bug both blocking and depending on another, or closing a loop, is 116', async () => {
      const a = await fileBug(t);
      expectError(await create({ blocks: [a], depends_on: [a] }), 116, 400);
      const b = await fileBug(t, { depends_on: [a] });
      // new depends on b (which depends on a) and blocks a: a → new → b → a.
      expectError(await create({ depends_on: [b], blocks: [a] }), 116, 400);
    });

    it('see_also takes bug URLs (112 otherwise)', async () => {
      const id = (await create({ see_also: ['https://bugzilla.mozilla.org/show_bug.cgi?id=42'] })).body.id;
      expect((await getBug(id)).see_also).toEqual(['https://bugzilla.mozilla.org/show_bug.cgi?id=42']);
      expectError(await create({ see_also: ['not a url'] }), 112, 400);
    });
  });

  describe('groups (product controls)', () => {
    let shown: number;
    beforeAll(async () => {
      shown = await productGroup(t, 'shown-group', { membercontrol: 1, othercontrol: 0 });
      await productGroup(t, 'default-group', { membercontrol: 2, othercontrol: 2 });
      await productGroup(t, 'mandatory-group', { membercontrol: 3, othercontrol: 3 });
      await sql(t, [["INSERT INTO groups (name, description, is_bug_group, user_regexp, is_active) VALUES ('elsewhere', 'not in the product', 1, '', 1)"],
        ['INSERT INTO user_group_map (user_id, group_id, is_bless, grant_type) VALUES (?, ?, 0, 0)', [reporter.id, shown]]]);
    });
    afterAll(async () => {
      await sql(t, [["DELETE FROM group_control_map WHERE group_id IN (SELECT id FROM groups WHERE name IN ('shown-group', 'default-group', 'mandatory-group'))"]]);
    });

    it('without groups: the product defaults plus the mandatory groups', async () => {
      expect((await getBug((await create({}, reporter.apiKey)).body.id)).groups).toEqual(['default-group', 'mandatory-group']);
    });

    it('named groups must be allowed by the product for the caller (120); mandatory ones are always added', async () => {
      expect((await getBug((await create({ groups: ['shown-group'] }, reporter.apiKey)).body.id)).groups).toEqual(['mandatory-group', 'shown-group']);
      expectError(await create({ groups: ['shown-group'] }, outsider.apiKey), 120, 401);
      expectError(await create({ groups: ['elsewhere'] }, reporter.apiKey), 120, 401);
      expectError(await create({ groups: ['no-such-group'] }, reporter.apiKey), 120, 401);
    });
  });

  describe('flags', () => {
    beforeAll(async () => {
      const grant = await productGroup(t, 'granters', { membercontrol: 0, othercontrol: 0 });
      await sql(t, [
        ["INSERT INTO flag_types (name, description, cc_list, target_type, is_active, is_requestable, is_requesteeble, is_multiplicable, sortkey, grant_group_id) VALUES ('approval', 'approval', '', 'bug', 1, 1, 1, 0, 0, ?)", [grant]],
        ["INSERT INTO flag_inclusions (type_id, product_id, component_id) SELECT id, NULL, NULL FROM flag_types WHERE name = 'approval'"],
      ]);
    });

    it('flags by name with status and requestee; errors 51, 129, 130 and a missing status 50', async () => {
      const id = (await create({ flags: [{ name: 'approval', status: '?', requestee: reporter.login }] })).body.id;
      expect((await getBug(id)).flags).toMatchObject([{ name: 'approval', status: '?', requestee: reporter.login, setter: ADMIN_LOGIN }]);
      expectError(await create({ flags: [{ name: 'nosuchflag', status: '+' }] }), 51, 404);
      expectError(await create({ flags: [{ name: 'approval', status: '!' }] }), 129, 400);
      expectError(await create({ flags: [{ name: 'approval', status: '+' }] }, reporter.apiKey), 130, 400);
      expectError(await create({ flags: [{ name: 'approval' }] }), 50, 400);
      expectError(await create({ flags: [{ name: 'approval', status: '?', requestee: 'ghost@example.com' }] }), 51, 404);
    });
  });

  describe('custom fields', () => {
    beforeAll(async () => {
      await sql(t, [
        ["INSERT INTO fielddefs (name, description, type, custom, obsolete, sortkey) VALUES ('cf_choice', 'Choice', 2, 1, 0, 10), ('cf_note', 'Note', 1, 1, 0, 20)"],
        ["INSERT INTO field_values (field_id, value, sortkey, is_active) SELECT id, 'yes', 10, 1 FROM fielddefs WHERE name = 'cf_choice'"],
      ]);
    });

    it('take legal values (51) and free text up to 255 (104)', async () => {
      expect(await getBug((await create({ cf_choice: 'yes', cf_note: 'n' })).body.id)).toMatchObject({ cf_choice: 'yes', cf_note: 'n' });
      expectError(await create({ cf_choice: 'maybe' }), 51, 404);
      expectError(await create({ cf_note: 'x'.repeat(256) }), 104, 400);
    });

    it('a mandatory custom field left empty is required_field (32000)', async () => {
      await sql(t, [["UPDATE fielddefs SET is_mandatory = 1 WHERE name = 'cf_note'"]]);
      try {
        expectError(await create({}), 32000, 400);
      } finally {
        await sql(t, [["UPDATE fielddefs SET is_mandatory = 0 WHERE name = 'cf_note'"]]);
      }
    });
  });

  describe('one transaction, audit and mail', () => {
    it('every field is validated before anything is written: a late error leaves nothing behind', async () => {
      const before = await Promise.all(['bugs', 'bug_aliases', 'comments', 'bug_cc', 'mail_queue'].map(count));
      expectError(await create({ alias: ['left-behind'], cc: [reporter.login], flags: [{ name: 'nosuchflag', status: '+' }] }), 51, 404);
      expect(await Promise.all(['bugs', 'bug_aliases', 'comments', 'bug_cc', 'mail_queue'].map(count))).toEqual(before);
    });

    it('is audited (Tracker::Bug __create__) and queues mail for the people around the bug, not the reporter', async () => {
      const mailBefore = await count('mail_queue');
      const id = (await create({ cc: [reporter.login], summary: 'mail me' })).body.id;
      const audit = await t.db.read.all("SELECT user_id, field, added FROM audit_log WHERE class = 'Tracker::Bug' AND object_id = ?", [id]);
      expect(audit).toEqual([{ user_id: 1, field: '__create__', added: 'mail me' }]);
      const mail = await t.db.read.all('SELECT to_address FROM mail_queue WHERE id > ? ORDER BY id', [mailBefore]);
      expect(mail.map((m) => m.to_address)).toEqual([reporter.login]);
    });
  });

  describe('OpenAPI', () => {
    it('documents the body of Create Bug with every field of the spec table', async () => {
      const { paths, components } = (await t.get('/openapi.json')).body;
      const ref = paths['/rest/bug'].post.requestBody.content['application/json'].schema.$ref;
      const properties = components.schemas[ref.split('/').pop()].properties;
      expect(Object.keys(properties)).toEqual(expect.arrayContaining([
        'product', 'component', 'summary', 'version', 'description', 'op_sys', 'platform', 'priority', 'severity', 'alias',
        'assigned_to', 'cc', 'comment_is_private', 'groups', 'qa_contact', 'status', 'resolution', 'target_milestone', 'flags',
      ]));
      expect(properties.cc).toMatchObject({ type: 'array', items: { type: 'string' } });
      expect(properties.flags.items.$ref).toMatch(/NewFlagDoc$/);
    });
  });
});
