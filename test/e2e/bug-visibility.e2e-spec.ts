import { startTestApp, type TestApp } from '../support/test-app.js';
import { loginNamed, named } from '../support/in-process.js';
import { changeGroups, expectError, fileBug, productGroup, setProductControl } from './bug-fixtures.js';
import { update, updated } from './bug-update-fixtures.js';

/**
 * The one visibility rule: a bug in groups is visible to members of all of them (any, with or_groups),
 * plus its reporter (is_creator_accessible), its cc (is_cc_accessible), its assignee and QA contact; the same rule
 * answers Get Bug, search, history and Create Bug's dependencies.
 */
describe('bug visibility', () => {
  let t: TestApp;
  type User = { id: number; login: string; apiKey: string };
  let member: User, both: User, outsider: User, reporter: User, ccUser: User, assignee: User, qa: User;
  let secret: number, twoGroups: number, open: number;
  const [red, blue] = [named('red'), named('blue')];

  const ids = (res: { body: any }) => res.body.bugs.map((b: any) => b.id);
  const accessible = async (id: number, value: boolean) => updated(await update(t, id, { is_creator_accessible: value, is_cc_accessible: value }));
  const sees = async (user: User | null, bug: number) => {
    const res = await t.get(`/bug/${bug}`, user ? { key: user.apiKey } : {});
    return res.status === 200;
  };

  beforeAll(async () => {
    t = await startTestApp();
    await productGroup(t, red, { membercontrol: 1, othercontrol: 1 });
    await productGroup(t, blue, { membercontrol: 1, othercontrol: 1 });
    member = await t.createUser(loginNamed('member'));
    both = await t.createUser(loginNamed('both'));
    outsider = await t.createUser(loginNamed('outsider'));
    reporter = await t.createUser(loginNamed('reporter'));
    ccUser = await t.createUser(loginNamed('cc'));
    assignee = await t.createUser(loginNamed('assignee'));
    qa = await t.createUser(loginNamed('qa'));
    await changeGroups(t, member.id, { add: [red] });
    await changeGroups(t, both.id, { add: [red, blue] });
    open = await fileBug(t, { summary: 'open' });
    secret = await fileBug(t, { summary: 'secret', groups: [red], cc: [ccUser.login], assigned_to: assignee.login }, reporter.apiKey);
    twoGroups = await fileBug(t, { summary: 'two groups', groups: [red, blue] });
  });
  afterAll(async () => {
    // A control of nothing removes TestProduct's control on the group (a running instance goes on with other files).
    for (const group of [red, blue]) await setProductControl(t, group, { membercontrol: 0, othercontrol: 0 });
    await t.close();
  });

  it('a bug in no group is visible to everybody, anonymous included', async () => {
    expect(await sees(null, open)).toBe(true);
    expect(await sees(outsider, open)).toBe(true);
  });

  it('a group bug is refused to outsiders with 102 / 401; anonymous callers are told to log in', async () => {
    expectError(await t.get(`/bug/${secret}`, { key: outsider.apiKey }), 102, 401);
    const anonymous = await t.get(`/bug/${secret}`);
    expectError(anonymous, 102, 401);
    expect(anonymous.body.message).toMatch(/log in/);
    expect(await sees(member, secret)).toBe(true);
  });

  it('an unknown bug is 101 / 404, never confused with a hidden one', async () => {
    expectError(await t.get('/bug/424242', { key: outsider.apiKey }), 101, 404);
  });

  it('with or_groups on (the default) membership of any group is enough; off, all groups are needed', async () => {
    expect(await sees(member, twoGroups)).toBe(true);
    expect(await sees(both, twoGroups)).toBe(true);
    await t.setParameters({ or_groups: '0' });
    try {
      expect(await sees(member, twoGroups)).toBe(false);
      expect(await sees(both, twoGroups)).toBe(true);
    } finally {
      await t.setParameters({ or_groups: '1' });
    }
  });

  it('the reporter sees it while is_creator_accessible is set, the cc while is_cc_accessible is set', async () => {
    expect(await sees(reporter, secret)).toBe(true);
    expect(await sees(ccUser, secret)).toBe(true);
    await accessible(secret, false);
    try {
      expect(await sees(reporter, secret)).toBe(false);
      expect(await sees(ccUser, secret)).toBe(false);
    } finally {
      await accessible(secret, true);
    }
  });

  it('the assignee always sees it; the QA contact while useqacontact is on', async () => {
    expect(await sees(assignee, secret)).toBe(true);
    // Update Bug takes a QA contact only while the parameter is on.
    await t.setParameters({ useqacontact: '1' });
    try {
      updated(await update(t, secret, { qa_contact: qa.login }));
    } finally {
      await t.setParameters({ useqacontact: '0' });
    }
    expect(await sees(qa, secret)).toBe(false);
    await t.setParameters({ useqacontact: '1' });
    try {
      expect(await sees(qa, secret)).toBe(true);
    } finally {
      await t.setParameters({ useqacontact: '0' });
    }
  });

  it('permissive Get Bug reports the hidden bug as a 102 fault', async () => {
    const res = await t.get(`/bug/${open}`, { key: outsider.apiKey, query: { ids: [secret], permissive: 'True' } });
    expect(ids(res)).toEqual([open]);
    expect(res.body.faults).toEqual([{ id: secret, faultCode: 102, faultString: expect.stringContaining(String(secret)) }]);
  });

  it('search silently leaves hidden bugs out (the predicate is in the SQL, so limits count visible bugs)', async () => {
    expect(ids(await t.get('/bug', { key: outsider.apiKey, query: { id: [open, secret, twoGroups] } }))).toEqual([open]);
    expect(ids(await t.get('/bug', { key: member.apiKey, query: { id: [open, secret, twoGroups] } }))).toEqual([open, secret, twoGroups]);
    // Hidden bugs sit between the visible ones: a page filtered after the query would come back empty.
    const later = await fileBug(t, { summary: 'later' });
    expect(ids(await t.get('/bug', { key: outsider.apiKey, query: { limit: 1, offset: 1, id: [open, secret, twoGroups, later] } }))).toEqual([later]);
  });

  it('history of a hidden bug is refused the same way', async () => {
    expectError(await t.get(`/bug/${secret}/history`, { key: outsider.apiKey }), 102, 401);
    expect((await t.get(`/bug/${secret}/history`, { key: member.apiKey })).status).toBe(200);
  });

  it('Update Bug of a caller it presumes (MySQL: the credential checked in its transaction) checks the bug under its lock: 102 before any error of the body, nothing written', async () => {
    // Both keys named their callers here: their next writes presume them.
    expect(await sees(outsider, open)).toBe(true);
    expect(await sees(member, secret)).toBe(true);
    expectError(await update(t, secret, { whiteboard: 'outsider' }, outsider.apiKey), 102, 401);
    // A body that fails its checks: the bug's 102 comes first, as when the caller is resolved first (Bugzilla's order).
    const badBody = { whiteboard: 'outsider', groups: [red] };
    expectError(await update(t, secret, badBody, outsider.apiKey), 102, 401);
    expectError(await update(t, open, badBody, outsider.apiKey), 53, 400);
    // A member sees the group bug (its visibility read in the transaction) and changes it.
    expect(updated(await update(t, secret, { whiteboard: 'member' }, member.apiKey)).changes.whiteboard).toEqual({ removed: '', added: 'member' });
    expect((await t.get(`/bug/${secret}`, { key: member.apiKey })).body.bugs[0].whiteboard).toBe('member');
    expect((await t.get(`/bug/${open}`, { key: member.apiKey })).body.bugs[0].whiteboard).toBe('');
  });

  it('Create Bug cannot depend on or block a bug the caller cannot see (102)', async () => {
    expectError(await t.post('/bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 's', depends_on: [secret] }, { key: outsider.apiKey }), 102, 401);
  });
});
