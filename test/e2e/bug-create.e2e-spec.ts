import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { recordSql, expectSqlSnapshot } from '../support/sql-snapshots.js';
import { inProcess, itWhen, needsFastPaths } from '../support/conditions.js';
import { IsNull, MoreThan, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { createBugGroup, createProduct, ok } from '../support/catalogue-fixtures.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { BugAlias } from '../../src/bug/entities/bug-alias.entity.js';
import { BugCc } from '../../src/bug/entities/bug-cc.entity.js';
import { Comment } from '../../src/comment/entities/comment.entity.js';
import { QueuedMail } from '../../src/mail/entities/queued-mail.entity.js';
import { DEFAULT_BUG, changeGroups, expectError, fileBug, letSecondPass, productGroup, setProductControl, statusValueId } from './bug-fixtures.js';
import { addFlagType, customFieldNamed, plainUser, presentedComments } from './bug-update-fixtures.js';
import { FieldDefinition } from '../../src/field/entities/field-definition.entity.js';
import { StatusTransition } from '../../src/field/entities/status-transition.entity.js';

describe('Create Bug (POST /rest/bug)', () => {
  let t: TestApp;
  let reporter: { id: number; login: string; apiKey: string };
  let outsider: { id: number; login: string; apiKey: string };
  // Someone with no part in the bugs (a default cc, a non-member of a group).
  let bystander: { id: number; login: string; apiKey: string };

  const create = (fields: Record<string, unknown>, key = ADMIN_API_KEY) => t.post('/bug', { ...DEFAULT_BUG, ...fields }, { key });
  const getBug = async (id: number, key = ADMIN_API_KEY) => (await t.get(`/bug/${id}`, { key })).body.bugs[0];
  const count = (entity: EntityTarget<ObjectLiteral>) => t.db.read.repository(entity).count();

  beforeAll(async () => {
    t = await startTestApp();
    reporter = await t.createUser(loginNamed('reporter'));
    bystander = await t.createUser(loginNamed('bystander'));
    // Not in editbugs (every account is, through its user_regexp; this one is taken out): no time tracking either. A
    // running instance cannot take an account out of a regexp group: the tests of such a caller are in-process only.
    if (!t.isRemote) outsider = await plainUser(t, 'outsider@example.com');
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
      const authored = ({ text, is_private, creator }: { text: string; is_private: boolean; creator: string }) => ({ text, is_private, creator });
      expect((await presentedComments(t, id)).map(authored)).toEqual([{ text: 'Steps:\n1. run', is_private: false, creator: ADMIN_LOGIN }]);
      await t.setParameters({ insidergroup: 'admin' });
      try {
        const privateId = await fileBug(t, { description: 'secret', comment_is_private: true });
        expect((await presentedComments(t, privateId))[0].is_private).toBe(true);
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
      const [closed, entryOnly] = [named('Closed'), named('entry-only')];
      await createProduct(t, closed, { is_open: false });
      expectError(await create({ product: closed }), 106, 401);
      await productGroup(t, entryOnly, { product: 'TestProduct', entry: true, membercontrol: 0, othercontrol: 0 });
      try {
        expectError(await create({}, reporter.apiKey), 106, 401);
      } finally {
        await setProductControl(t, entryOnly, { membercontrol: 0, othercontrol: 0 });
      }
    });

    it('an unknown component, version, milestone or select value is 51 / 404; an inactive component value_inactive', async () => {
      expectError(await create({ component: 'Nope' }), 51, 404);
      expectError(await create({ version: '9.9' }), 51, 404);
      expectError(await create({ target_milestone: 'M9' }), 51, 404);
      expectError(await create({ op_sys: 'BeOS' }), 51, 404);
      expectError(await create({ severity: 'apocalyptic' }), 51, 404);
      const old = named('Old');
      ok(await t.post('/component', { product: 'TestProduct', name: old, description: 'old', default_assignee: ADMIN_LOGIN, is_open: false }, { key: ADMIN_API_KEY }));
      try {
        expectError(await create({ component: old }), 32000, 400);
      } finally {
        // TestProduct is every file's on a running instance.
        ok(await t.request('DELETE', `/component/TestProduct/${old}`, { key: ADMIN_API_KEY }));
      }
    });

    it('a product without an active component is missing_component (32000 / 400), before any component is looked at', async () => {
      const hollow = named('Hollow');
      ok(await t.post('/product', { name: hollow, description: 'no active component', version: '1.0', is_open: true }, { key: ADMIN_API_KEY }));
      ok(await t.post('/component', { product: hollow, name: 'Retired', description: 'old', default_assignee: ADMIN_LOGIN, is_open: false }, { key: ADMIN_API_KEY }));
      for (const component of ['Retired', 'Nope']) {
        const res = await create({ product: hollow, component, version: '1.0' });
        expectError(res, 32000, 400);
        expect(res.body.message).toBe(`Sorry, the product ${hollow} has to have at least one active component in order for you to enter a bug into it.`);
      }
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
    inProcessIt('outside editbugs: status, assigned_to and qa_contact are ignored; UNCONFIRMED', async () => {
      await t.setParameters({ useqacontact: '1' });
      try {
        const id = (await create({ status: 'IN_PROGRESS', assigned_to: reporter.login, qa_contact: reporter.login }, outsider.apiKey)).body.id;
        expect(await getBug(id)).toMatchObject({ status: 'UNCONFIRMED', is_confirmed: false, assigned_to: ADMIN_LOGIN, qa_contact: '' });
      } finally {
        await t.setParameters({ useqacontact: '0' });
      }
    });

    inProcessIt('editbugs granted for the product by a group control counts like the global group (a caller outside editbugs)', async () => {
      await productGroup(t, 'product-editors', { membercontrol: 0, othercontrol: 0, editbugs: true });
      await changeGroups(t, outsider.id, { add: ['product-editors'] });
      try {
        const id = (await create({ status: 'IN_PROGRESS', assigned_to: reporter.login }, outsider.apiKey)).body.id;
        expect(await getBug(id)).toMatchObject({ status: 'IN_PROGRESS', assigned_to: reporter.login });
      } finally {
        await changeGroups(t, outsider.id, { remove: ['product-editors'] });
      }
    });

    inProcessIt('time-tracking fields are ignored for non-time-trackers (a caller outside editbugs)', async () => {
      const ignored = (await create({ estimated_time: 3, deadline: '2030-05-06' }, outsider.apiKey)).body.id;
      expect(await getBug(ignored)).toMatchObject({ estimated_time: 0, remaining_time: 0, deadline: null });
    });

    it('time-tracking fields are kept for time trackers', async () => {
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
    // A product without UNCONFIRMED.
    const where = { product: named('Confirmed'), component: 'C', version: '1.0' };
    beforeAll(() => createProduct(t, where.product, { has_unconfirmed: false }, { name: where.component }));

    it('UNCONFIRMED only where the product has it; a closed status is 123 with the default workflow', async () => {
      expect((await getBug((await create({ status: 'UNCONFIRMED' })).body.id)).status).toBe('UNCONFIRMED');
      expect((await getBug((await create({ status: 'IN_PROGRESS' })).body.id)).status).toBe('IN_PROGRESS');
      expectError(await create({ status: 'RESOLVED', resolution: 'FIXED' }), 123, 400);
      expectError(await create({ status: 'NOSUCH' }), 51, 404);
      expectError(await create({ ...where, status: 'UNCONFIRMED' }), 123, 400);
    });

    inProcessIt('a caller outside editbugs files CONFIRMED where the product has no UNCONFIRMED', async () => {
      expect((await getBug((await create(where, outsider.apiKey)).body.id)).status).toBe('CONFIRMED');
    });

    inProcessIt('where an administrator allows a closed initial status, a resolution is needed (121), legal, never DUPLICATE (119) (writes the workflow table)', async () => {
      const resolved = await statusValueId(t, 'RESOLVED');
      await t.db.transaction((tx) => tx.repository(StatusTransition).insert({ fromStatusId: null, toStatusId: resolved, requireComment: false }));
      try {
        expectError(await create({ status: 'RESOLVED' }), 121, 400);
        expectError(await create({ status: 'RESOLVED', resolution: 'NOPE' }), 51, 404);
        expectError(await create({ status: 'RESOLVED', resolution: 'DUPLICATE' }), 119, 400);
        const id = (await create({ status: 'RESOLVED', resolution: 'FIXED' })).body.id;
        expect(await getBug(id)).toMatchObject({ status: 'RESOLVED', resolution: 'FIXED', is_open: false });
        expectError(await create({ status: 'CONFIRMED', resolution: 'FIXED' }), 122, 400);
      } finally {
        await t.db.transaction((tx) => tx.repository(StatusTransition).delete({ fromStatusId: IsNull(), toStatusId: resolved }));
      }
    });
  });

  describe('aliases, cc, keywords, dependencies, see also', () => {
    it('aliases must be unique and well formed (103)', async () => {
      const [first, second, plain] = [named('first-alias'), named('second'), named('plain-string')];
      const id = (await create({ alias: [first, second] })).body.id;
      expect((await getBug(id)).alias).toEqual([first, second]);
      expect((await getBug((await create({ alias: plain })).body.id)).alias).toEqual([plain]);
      for (const bad of [first.toUpperCase(), '12345', 'has space', 'a,b', 'x'.repeat(41)]) expectError(await create({ alias: [bad] }), 103, 400);
    });

    it('concurrent creates with one alias: one wins, the others get 103 naming its bug, never a 500', async () => {
      const raced = named('raced');
      const results = await Promise.all([0, 1, 2, 3].map(() => create({ alias: [raced] })));
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      for (const res of results.filter((r) => r.status !== 200)) {
        expectError(res, 103, 400);
        // Whether the check before the transaction or the unique index refused it (issue 40: MariaDB said "bug another bug").
        expect(res.body.message).toBe(`${raced} has already been taken as an alias by bug ${winners[0].body.id}.`);
      }
    });

    it('concurrent creates each keep their own description and cc (on MySQL each names its new id by a variable of its own connection)', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create({ summary: `parallel ${i}`, description: `description ${i}`, cc: i % 2 ? [bystander.login] : [] })));
      for (const [i, res] of results.entries()) {
        const bug = await getBug(ok(res).id);
        expect([bug.summary, bug.cc]).toEqual([`parallel ${i}`, i % 2 ? [bystander.login] : []]);
        expect((await presentedComments(t, bug.id)).map((c) => c.text)).toEqual([`description ${i}`]);
      }
    });

    it('cc takes logins (unknown: 504) and adds the component default cc', async () => {
      expectError(await create({ cc: ['ghost@example.com'] }), 504, 401);
      const defaultCc = (logins: string[]) => t.put('/component/TestProduct/TestComponent', { default_cc: logins }, { key: ADMIN_API_KEY });
      ok(await defaultCc([bystander.login]));
      try {
        const id = (await create({ cc: [reporter.login] })).body.id;
        expect((await getBug(id)).cc).toEqual([bystander.login, reporter.login]);
      } finally {
        ok(await defaultCc([]));
      }
    });

    it('keywords must exist (51)', async () => {
      const perf = named('perf');
      expect((await t.post('/keyword', { name: perf, description: 'performance' }, { key: ADMIN_API_KEY })).status).toBe(200);
      expect((await getBug((await create({ keywords: [perf] })).body.id)).keywords).toEqual([perf]);
      expectError(await create({ keywords: ['nokeyword'] }), 51, 404);
    });

    it('blocks/depends_on name visible bugs; the other bug gets a history entry and a new last_change_time', async () => {
      const other = await fileBug(t);
      const before = (await getBug(other)).last_change_time;
      await letSecondPass(t);
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
    const [shownGroup, defaultGroup, mandatoryGroup, elsewhere] = [named('shown-group'), named('default-group'), named('mandatory-group'), named('elsewhere')];
    beforeAll(async () => {
      await productGroup(t, shownGroup, { membercontrol: 1, othercontrol: 0 });
      await productGroup(t, defaultGroup, { membercontrol: 2, othercontrol: 2 });
      await productGroup(t, mandatoryGroup, { membercontrol: 3, othercontrol: 3 });
      await createBugGroup(t, elsewhere);
      await changeGroups(t, reporter.id, { add: [shownGroup] });
    });
    afterAll(async () => {
      for (const group of [shownGroup, defaultGroup, mandatoryGroup]) await setProductControl(t, group, { membercontrol: 0, othercontrol: 0 });
    });

    it('without groups: the product defaults plus the mandatory groups', async () => {
      expect((await getBug((await create({}, reporter.apiKey)).body.id)).groups).toEqual([defaultGroup, mandatoryGroup]);
    });

    it('named groups must be allowed by the product for the caller (120); mandatory ones are always added', async () => {
      expect((await getBug((await create({ groups: [shownGroup] }, reporter.apiKey)).body.id)).groups).toEqual([mandatoryGroup, shownGroup]);
      expectError(await create({ groups: [shownGroup] }, bystander.apiKey), 120, 401);
      expectError(await create({ groups: [elsewhere] }, reporter.apiKey), 120, 401);
      expectError(await create({ groups: ['no-such-group'] }, reporter.apiKey), 120, 401);
    });
  });

  describe('flags', () => {
    // Asked for approval: a requestee must be able to grant it (the rule Update Bug applies too).
    let granter: { id: number; login: string; apiKey: string };
    const [granters, approval] = [named('granters'), named('approval')];
    beforeAll(async () => {
      await productGroup(t, granters, { membercontrol: 0, othercontrol: 0 });
      granter = await t.createUser(loginNamed('granter'), { groups: [granters] });
      ok(await t.post('/flag_type', {
        name: approval, description: 'approval', target_type: 'bug', is_requestable: true, is_requesteeble: true, is_multiplicable: false, grant_group: granters,
      }, { key: ADMIN_API_KEY }));
    });

    it('flags by name with status and requestee; errors 51, 129, 130 and a missing status 50', async () => {
      const id = (await create({ flags: [{ name: approval, status: '?', requestee: granter.login }] })).body.id;
      expect((await getBug(id)).flags).toMatchObject([{ name: approval, status: '?', requestee: granter.login, setter: ADMIN_LOGIN }]);
      expectError(await create({ flags: [{ name: 'nosuchflag', status: '+' }] }), 51, 404);
      expectError(await create({ flags: [{ name: approval, status: '!' }] }), 129, 400);
      expectError(await create({ flags: [{ name: approval, status: '+' }] }, reporter.apiKey), 130, 400);
      expectError(await create({ flags: [{ name: approval }] }), 50, 400);
      expectError(await create({ flags: [{ name: approval, status: '?', requestee: 'ghost@example.com' }] }), 51, 404);
    });
  });

  describe('custom fields', () => {
    const [choice, note] = [customFieldNamed('cf_choice'), customFieldNamed('cf_note')];
    beforeAll(async () => {
      const admin = { key: ADMIN_API_KEY };
      expect((await t.post('/field/bug', { name: choice, description: 'Choice', type: 2, sort_key: 10, values: ['yes'] }, admin)).status).toBe(200);
      expect((await t.post('/field/bug', { name: note, description: 'Note', type: 1, sort_key: 20 }, admin)).status).toBe(200);
    });

    it('take legal values (51) and free text up to 255 (104)', async () => {
      expect(await getBug((await create({ [choice]: 'yes', [note]: 'n' })).body.id)).toMatchObject({ [choice]: 'yes', [note]: 'n' });
      expectError(await create({ [choice]: 'maybe' }), 51, 404);
      expectError(await create({ [note]: 'x'.repeat(256) }), 104, 400);
    });

    // No route changes a custom field: the test makes it mandatory in the database.
    inProcessIt('a mandatory custom field left empty is required_field (32000) (writes the field definition)', async () => {
      await t.db.transaction((tx) => tx.repository(FieldDefinition).update({ name: note }, { isMandatory: true }));
      try {
        expectError(await create({}), 32000, 400);
      } finally {
        await t.db.transaction((tx) => tx.repository(FieldDefinition).update({ name: note }, { isMandatory: false }));
      }
    });
  });

  describe('one transaction, audit and mail', () => {
    inProcessIt('every field is validated before anything is written: a late error leaves nothing behind (counts table rows)', async () => {
      const before = await Promise.all([Bug, BugAlias, Comment, BugCc, QueuedMail].map(count));
      expectError(await create({ alias: ['left-behind'], cc: [reporter.login], flags: [{ name: 'nosuchflag', status: '+' }] }), 51, 404);
      expect(await Promise.all([Bug, BugAlias, Comment, BugCc, QueuedMail].map(count))).toEqual(before);
    });

    inProcessIt('queues mail for the people around the bug, not the reporter, and writes no audit_log row: as in Bugzilla 5.0, a bug is its own record (reads the audit log and the mail outbox)', async () => {
      const mailBefore = await count(QueuedMail);
      const id = (await create({ cc: [reporter.login], summary: 'mail me' })).body.id;
      expect(await t.auditOf('Tracker::Bug', id)).toEqual([]);
      const mail = await t.db.read.repository(QueuedMail).find({ where: { id: MoreThan(mailBefore) }, order: { id: 'ASC' } });
      expect(mail.map((m) => m.toAddress)).toEqual([reporter.login]);
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

  // Issue 8, "one rule, one place": Create Bug sets flags through the rule Update Bug uses, requestee checks included.
  describe('flag requestees: the rule of Update Bug', () => {
    const [signers, requesteeSecret, signoff, look] = [named('signers'), named('requestee-secret'), named('signoff'), named('look')];
    beforeAll(async () => {
      await productGroup(t, signers, { membercontrol: 0, othercontrol: 0 });
      // Shown for members (the admin), NA for the others: a bug the admin puts in it is hidden from the reporter.
      await productGroup(t, requesteeSecret, { membercontrol: 1, othercontrol: 0 });
      await addFlagType(t, signoff, { grantGroup: signers });
      await addFlagType(t, look);
      await changeGroups(t, 1, { add: [requesteeSecret] });
    });
    afterAll(async () => {
      // A control of nothing removes TestProduct's control on the group.
      await setProductControl(t, requesteeSecret, { membercontrol: 0, othercontrol: 0 });
    });

    const outcome = (res: { status: number; body: { code?: number; error?: boolean; message?: string } }) =>
      ({ status: res.status, code: res.body?.code, error: res.body?.error, message: res.body?.message?.replace(/ on bug \d+/, '') });

    it('a requestee who may not grant the flag is refused on Create as on Update — flag_requestee_needs_privs 32000', async () => {
      const flags = [{ name: signoff, status: '?', requestee: reporter.login }];
      const onCreate = await create({ flags });
      const onUpdate = await t.put(`/bug/${await fileBug(t)}`, { flags }, { key: ADMIN_API_KEY });
      expectError(onCreate, 32000, 400);
      expect(onCreate.body.message).toMatch(/not allowed to grant or deny it/);
      expect(outcome(onCreate)).toEqual(outcome(onUpdate));
    });

    inProcessIt('a requestee who cannot see the bug is refused on Create as on Update — flag_requestee_unauthorized 32000 (counts the bugs table)', async () => {
      const flags = [{ name: look, status: '?', requestee: reporter.login }];
      const before = await count(Bug);
      const onCreate = await create({ groups: [requesteeSecret], flags });
      const onUpdate = await t.put(`/bug/${await fileBug(t, { groups: [requesteeSecret] })}`, { flags }, { key: ADMIN_API_KEY });
      expectError(onCreate, 32000, 400);
      expect(onCreate.body.message).toMatch(/cannot see the bug/);
      expect(outcome(onCreate)).toEqual(outcome(onUpdate));
      // Refused inside the write: the new bug is not stored (only the one filed for the Update side is).
      expect(await count(Bug)).toBe(before + 1);
    });

    it('a requestee who passes joins the cc list, as on Update', async () => {
      const id = (await create({ flags: [{ name: look, status: '?', requestee: reporter.login }] })).body.id;
      const bug = await getBug(id);
      expect(bug.flags).toMatchObject([{ name: look, status: '?', requestee: reporter.login }]);
      expect(bug.cc).toContain(reporter.login);
    });
  });

  describe('round trips (SQL snapshots src/bug/sql/create-bug*)', () => {
    itWhen(inProcess, needsFastPaths)('a warm Create Bug in no group, mailing nobody: on MySQL one round trip, the key\'s check, the bug with its description and the COMMIT (records statements)', async () => {
      const file = () => fileBug(t, { description: 'counted' });
      await file();
      await file();
      let id = 0;
      const sent = await recordSql(async () => (id = await file()));
      // The caller is presumed (presumesCaller, src/fast-paths.ts): the key's check is the transaction's commit condition, at the end of
      // its first (here its only) query. The description names the bug by the session variable its INSERT left the id
      // in; its own id is asked for only by a webhook. No audit row.
      expectSqlSnapshot('bug/sql/create-bug', 'A warm Create Bug by API key, in no group, mailing nobody', sent);
      if (t.db.dialect === 'mysql') expect(sent).toHaveLength(1);
      expect((await presentedComments(t, id)).map((c) => c.text)).toEqual(['counted']);
    });

    itWhen(inProcess, needsFastPaths)('the lists of a new bug name its held id; a mail to someone asks for the number, and says it (records statements, reads the outbox)', async () => {
      const url = 'https://bugzilla.mozilla.org/show_bug.cgi?id=7';
      const file = () => create({ cc: [bystander.login], see_also: [url], summary: 'held lists', description: 'with lists' });
      await file();
      const mailBefore = await t.db.read.repository(QueuedMail).maximum('id') ?? 0;
      let id = 0;
      const sent = await recordSql(async () => (id = (await file()).body.id));
      // On MySQL: the key's check, the bug and its lists up to the mail's need of the number; the mail rows and the COMMIT.
      expectSqlSnapshot('bug/sql/create-bug-with-lists', 'A warm Create Bug by API key with a cc list and a see-also, mailing the cc', sent);
      if (t.db.dialect === 'mysql') expect(sent).toHaveLength(2);
      expect(await getBug(id)).toMatchObject({ id, summary: 'held lists', cc: [bystander.login], see_also: [url] });
      const mail = await t.db.read.repository(QueuedMail).find({ where: { id: MoreThan(mailBefore) } });
      expect(mail.map((m) => [m.toAddress, m.subject])).toEqual([[bystander.login, `[Bug ${id}] New: held lists`]]);
      expect(mail[0].body).toMatch(new RegExp(`^ *Bug ID: ${id}$`, 'm'));
    });
  });
});
