import { BugzillaAPI } from '../support/bugzilla-client.js';
import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, ok } from '../support/catalogue-fixtures.js';
import { clearMailQueue, expectError, fileBug, queuedMail } from './bug-fixtures.js';
import { plainUser } from './bug-update-fixtures.js';
import { attach, attachmentBody, postAttachment } from './attachment-fixtures.js';

type User = { id: number; login: string; apiKey: string };

/**
 * Every flag rule (updates.md "Flag change object", defaults.md flag type semantics), on attachments through Create
 * and Update Attachment and on bugs through Update Bug: one implementation serves both (BugFlagsService).
 */
describe('flags on attachments and bugs', () => {
  let t: TestApp;
  let dev: User;
  let reviewer: User;
  let approver: User;
  let requester: User;
  let bug: number;
  const type: Record<string, number> = {};

  const newType = async (name: string, fields: Record<string, unknown> = {}) => {
    type[name] = ok(await t.post('/flag_type', { name, description: `${name} flag`, target_type: 'attachment', ...fields }, { key: ADMIN_API_KEY })).id;
  };
  const flagsOf = async (attachment: number) => (await t.get(`/bug/attachment/${attachment}`, { key: ADMIN_API_KEY, query: { include_fields: 'flags' } })).body.attachments[String(attachment)].flags;
  const setFlags = (attachment: number, flags: unknown[], key = ADMIN_API_KEY) => t.put(`/bug/attachment/${attachment}`, { flags }, { key });

  beforeAll(async () => {
    t = await startTestApp();
    await createBugGroup(t, 'approvers');
    await createBugGroup(t, 'requesters');
    dev = await t.createUser('dev@example.com');
    reviewer = await t.createUser('reviewer@example.com');
    approver = await t.createUser('approver@example.com', { groups: ['approvers', 'requesters'] });
    requester = await t.createUser('requester@example.com', { groups: ['requesters'] });
    await createProduct(t, 'Widget', {}, { name: 'Gears' });
    ok(await t.post('/component', { product: 'Widget', name: 'Springs', description: 'Springs', default_assignee: ADMIN_LOGIN }, { key: ADMIN_API_KEY }));
    await newType('review', { is_multiplicable: false });
    await newType('multi', { is_multiplicable: true });
    await newType('approval', { grant_group: 'approvers', request_group: 'requesters' });
    await newType('fixed', { is_requestable: false, is_specifically_requestable: false });
    await newType('nobody', { is_specifically_requestable: false });
    await newType('retired', { is_active: false });
    await newType('needinfo', { target_type: 'bug' });
    bug = await fileBug(t);
  });
  afterAll(() => t.close());

  describe('flag type inclusions as 5.0 sends them', () => {
    it('accepts [{"Widget": ["Gears"]}], product names and the two mixed; the type applies only there', async () => {
      await newType('gears', { inclusions: [{ Widget: ['Gears'] }] });
      await newType('mixed', { inclusions: ['TestProduct', { Widget: ['Springs'] }] });
      const listed = async (product: string, component: string) =>
        ok(await t.get(`/flag_type/${product}/${component}`, { key: ADMIN_API_KEY })).attachment.map((f: { name: string }) => f.name);
      expect(await listed('Widget', 'Gears')).toContain('gears');
      expect(await listed('Widget', 'Gears')).not.toContain('mixed');
      expect(await listed('Widget', 'Springs')).toEqual(expect.arrayContaining(['mixed']));
      expect(await listed('Widget', 'Springs')).not.toContain('gears');
      expect(await listed('TestProduct', 'TestComponent')).toContain('mixed');
    });

    it('a malformed item is 53 naming the real function', async () => {
      const res = await t.post('/flag_type', { name: 'bad', description: 'd', inclusions: [['Widget']] }, { key: ADMIN_API_KEY });
      expectError(res, 53, 400);
      expect(res.body.message).toBe("'inclusions' is not a valid parameter for the FlagType.create function.");
      const update = await t.put('/flag_type/review', { exclusions: [{ Widget: [{ deep: 1 }] }] }, { key: ADMIN_API_KEY });
      expectError(update, 53, 400);
      expect(update.body.message).toContain('FlagType.update function');
    });

    it('a type applies only to its product and component (51 elsewhere)', async () => {
      const gearsBug = await fileBug(t, { product: 'Widget', component: 'Gears', version: '1.0' });
      const springsBug = await fileBug(t, { product: 'Widget', component: 'Springs', version: '1.0' });
      expect((await postAttachment(t, gearsBug, attachmentBody('x', { flags: [{ name: 'gears', status: '+' }] }))).status).toBe(200);
      expectError(await postAttachment(t, springsBug, attachmentBody('x', { flags: [{ name: 'gears', status: '+' }] })), 51, 404);
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ type_id: type.gears, status: '+' }] })), 51, 404);
    });
  });

  describe('each rule, allowed and refused', () => {
    it('the target: a bug type on an attachment and an attachment type on a bug are 51', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: 'needinfo', status: '?' }] })), 51, 404);
      expectError(await t.put(`/bug/${bug}`, { flags: [{ name: 'review', status: '?' }] }, { key: ADMIN_API_KEY }), 51, 404);
      const res = await t.put(`/bug/${bug}`, { flags: [{ name: 'needinfo', status: '?' }] }, { key: ADMIN_API_KEY });
      expect(res.body.bugs[0].changes['flagtypes.name']).toEqual({ removed: '', added: 'needinfo?' });
    });

    it('is_requestable governs ? (129); + is fine', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: 'fixed', status: '?' }] })), 129, 400);
      const id = await attach(t, bug, 'x', { flags: [{ name: 'fixed', status: '+' }] });
      expect(await flagsOf(id)).toEqual([expect.objectContaining({ name: 'fixed', status: '+', setter: ADMIN_LOGIN })]);
    });

    it('is_requesteeble governs a requestee (131); the requestee is returned only when set', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: 'nobody', status: '?', requestee: reviewer.login }] })), 131, 400);
      const id = await attach(t, bug, 'x', { flags: [{ name: 'nobody', status: '?' }, { name: 'review', status: '?', requestee: reviewer.login }] });
      const [nobody, review] = await flagsOf(id);
      expect(nobody).not.toHaveProperty('requestee');
      expect(review).toEqual({
        id: review.id, name: 'review', type_id: type.review, status: '?', setter: ADMIN_LOGIN, requestee: reviewer.login,
        creation_date: expect.stringMatching(/Z$/), modification_date: review.creation_date,
      });
    });

    it('is_multiplicable governs a second flag of one type (32000); a multiplicable type takes several', async () => {
      const id = await attach(t, bug, 'x', { flags: [{ name: 'review', status: '+' }] });
      expectError(await setFlags(id, [{ name: 'review', status: '-', new: true }]), 32000, 400);
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: 'review', status: '+' }, { name: 'review', status: '-' }] })), 32000, 400);
      const multi = await attach(t, bug, 'x', { flags: [{ name: 'multi', status: '+' }, { name: 'multi', status: '-' }] });
      expect((await flagsOf(multi)).map((f: { status: string }) => f.status)).toEqual(['+', '-']);
    });

    it('grant_group governs + and - (130); request_group governs ? (130)', async () => {
      const id = await attach(t, bug, 'x', {}, requester.apiKey);
      expectError(await setFlags(id, [{ name: 'approval', status: '+' }], requester.apiKey), 130, 400);
      expectError(await setFlags(id, [{ name: 'approval', status: '?' }], dev.apiKey), 130, 400);
      expect((await setFlags(id, [{ name: 'approval', status: '?' }], requester.apiKey)).status).toBe(200);
      const res = await setFlags(id, [{ name: 'approval', status: '+' }], approver.apiKey);
      expect(res.body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: 'approval?', added: 'approval+' } });
      expect(await flagsOf(id)).toEqual([expect.objectContaining({ name: 'approval', status: '+', setter: approver.login })]);
    });

    it('an inactive type takes no new flag (134) but keeps its flags, which may still change', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: 'retired', status: '+' }] })), 134, 400);
      await newType('sunset');
      const id = await attach(t, bug, 'x', { flags: [{ name: 'sunset', status: '?' }] });
      ok(await t.put('/flag_type/sunset', { is_active: false }, { key: ADMIN_API_KEY }));
      expect((await setFlags(id, [{ name: 'sunset', status: '+' }])).body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: 'sunset?', added: 'sunset+' } });
      expectError(await setFlags(id, [{ name: 'sunset', status: '+', new: true }]), 134, 400);
      expect(await flagsOf(id)).toHaveLength(1);
    });

    it('X clears a flag; X on a type with no flag changes nothing', async () => {
      const id = await attach(t, bug, 'x', { flags: [{ name: 'multi', status: '+' }] });
      const res = await setFlags(id, [{ name: 'multi', status: 'X' }, { name: 'review', status: 'X' }]);
      expect(res.body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: 'multi+', added: '' } });
      expect(await flagsOf(id)).toEqual([]);
    });

    it('type_id updates the one flag of its type, new adds another, several set flags need the id (132)', async () => {
      const id = await attach(t, bug, 'x', { flags: [{ name: 'multi', status: '?' }] });
      const [first] = await flagsOf(id);
      t.clock.advance(60_000);
      await setFlags(id, [{ type_id: type.multi, status: '+' }]);
      const [updated] = await flagsOf(id);
      expect(updated).toMatchObject({ id: first.id, status: '+', creation_date: first.creation_date });
      expect(updated.modification_date).not.toBe(first.modification_date);
      await setFlags(id, [{ type_id: type.multi, status: '-', new: true }]);
      expect(await flagsOf(id)).toHaveLength(2);
      expectError(await setFlags(id, [{ name: 'multi', status: '?' }]), 132, 400);
      expectError(await setFlags(id, [{ id: 999999, status: '?' }]), 51, 404);
      const res = await setFlags(id, [{ id: first.id, status: 'X' }]);
      expect(res.body.attachments[0].changes['flagtypes.name']).toEqual({ removed: 'multi+', added: '' });
      expect((await flagsOf(id)).map((f: { status: string }) => f.status)).toEqual(['-']);
    });
  });

  describe('requests', () => {
    it('a request notifies the requestee by bug mail, who joins the cc list; history carries attachment_id and the name?(requestee) form', async () => {
      const bug = await fileBug(t);
      const id = await attach(t, bug, 'patch', { is_patch: true }, dev.apiKey);
      await clearMailQueue(t);
      const res = await setFlags(id, [{ name: 'review', status: '?', requestee: reviewer.login }], dev.apiKey);
      expect(res.body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: '', added: `review?(${reviewer.login})` } });
      // A request mail of its own, beside the bug mail the new cc member gets.
      const mails = (await queuedMail(t)).filter((m) => m.toAddress === reviewer.login);
      expect(mails.map((m) => m.subject).sort()).toEqual([`[Bug ${bug}] A bug`, `review requested: [Bug ${bug}] A bug`]);
      const request = mails.find((m) => m.subject.startsWith('review requested'))!;
      expect(request.body).toBe(`${dev.login} has asked ${reviewer.login} for review:\nBug ${bug}: A bug\n`);
      expect(JSON.parse(request.headers!)).toMatchObject({ 'X-Tracker-Type': 'request', 'X-Tracker-Flag-Requestee': reviewer.login });
      const cc = (await t.get(`/bug/${bug}`, { key: ADMIN_API_KEY, query: { include_fields: 'cc' } })).body.bugs[0].cc;
      expect(cc).toContain(reviewer.login);
      const history = (await t.get(`/bug/${bug}/history`, { key: ADMIN_API_KEY })).body.bugs[0].history;
      expect(history[history.length - 1].changes).toEqual(expect.arrayContaining([
        { field_name: 'flagtypes.name', removed: '', added: `review?(${reviewer.login})`, attachment_id: id },
        { field_name: 'cc', removed: '', added: reviewer.login },
      ]));
    });

    it('a request on a bug (Update and Create Bug) mails the requestee too: the one flag rule and the one mail rule', async () => {
      const bug = await fileBug(t);
      await clearMailQueue(t);
      const res = await t.put(`/bug/${bug}`, { flags: [{ name: 'needinfo', status: '?', requestee: reviewer.login }] }, { key: dev.apiKey });
      expect(res.body.bugs[0].changes['flagtypes.name']).toEqual({ removed: '', added: `needinfo?(${reviewer.login})` });
      const subjects = (await queuedMail(t)).filter((m) => m.toAddress === reviewer.login).map((m) => m.subject);
      expect(subjects).toContain(`needinfo requested: [Bug ${bug}] A bug`);
      // and on Create Bug, whose new-bug mail lists the initial flags
      await clearMailQueue(t);
      const filed = await fileBug(t, { summary: 'Asked at birth', flags: [{ name: 'needinfo', status: '?', requestee: reviewer.login }] }, dev.apiKey);
      const mails = (await queuedMail(t)).filter((m) => m.toAddress === reviewer.login);
      expect(mails.map((m) => m.subject).sort()).toEqual([`[Bug ${filed}] New: Asked at birth`, `needinfo requested: [Bug ${filed}] Asked at birth`]);
      expect(mails.find((m) => m.subject.startsWith('[Bug'))!.body).toContain(`needinfo?(${reviewer.login})`);
    });

    it('the requestee answers without editing rights; anything else of theirs is illegal_attachment_edit', async () => {
      const outsider = await plainUser(t, 'plain@example.com');
      const id = await attach(t, bug, 'x', { flags: [{ name: 'review', status: '?', requestee: outsider.login }] }, dev.apiKey);
      expectError(await t.put(`/bug/attachment/${id}`, { summary: 'mine now' }, { key: outsider.apiKey }), 32000, 400);
      expectError(await setFlags(id, [{ name: 'multi', status: '+' }], outsider.apiKey), 32000, 400);
      const res = await setFlags(id, [{ name: 'review', status: '+' }], outsider.apiKey);
      expect(res.body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: `review?(${outsider.login})`, added: 'review+' } });
    });

    it('a flag needs a status and a type (50, naming the function); flags must be objects (53)', async () => {
      const noType = await postAttachment(t, bug, attachmentBody('x', { flags: [{ status: '+' }] }));
      expectError(noType, 50, 400);
      expect(noType.body.message).toContain('Bug.add_attachment');
      const id = await attach(t, bug, 'x');
      const noStatus = await setFlags(id, [{ name: 'review' }]);
      expectError(noStatus, 50, 400);
      expect(noStatus.body.message).toContain('Bug.update_attachment');
      expectError(await setFlags(id, ['review+']), 53, 400);
    });

    it('an unknown requestee is 51', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: 'review', status: '?', requestee: 'nobody@example.com' }] })), 51, 404);
    });
  });

  it('a whole flow through the npm bugzilla client: attach with a flag, read back, answer the request', async () => {
    const api = new BugzillaAPI(t.baseUrl, ADMIN_API_KEY);
    const contents = Buffer.from([0, 1, 2, 250, 251, 252, 255]);
    const [id] = await api.createAttachment(bug, {
      ids: [bug], data: contents, file_name: 'blob.bin', summary: 'via client', content_type: 'application/octet-stream',
      flags: [{ name: 'review', status: '?', requestee: reviewer.login }],
    });
    const attachment = await api.getAttachment(id);
    expect(Buffer.from(attachment!.data).equals(contents)).toBe(true);
    expect(attachment).toMatchObject({ id, bug_id: bug, file_name: 'blob.bin', creator: ADMIN_LOGIN, size: contents.length });
    expect(attachment!.flags).toEqual([expect.objectContaining({ name: 'review', status: '?', requestee: reviewer.login })]);
    expect((await api.getBugAttachments(bug))!.map((a) => a.id)).toContain(id);
    const [updated] = await new BugzillaAPI(t.baseUrl, reviewer.apiKey).updateAttachment(id, { flags: [{ name: 'review', status: '+' }] });
    expect(updated.id).toBe(id);
    expect(updated.changes.get('flagtypes.name')).toEqual({ removed: `review?(${reviewer.login})`, added: 'review+' });
  });
});
