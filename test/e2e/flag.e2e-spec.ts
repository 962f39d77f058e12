import { BugzillaAPI } from '../support/bugzilla-client.js';
import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { confineFlagTypes, createBugGroup, createProduct, ok } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { clearMailQueue, expectError, fileBug, letSecondPass, queuedMail } from './bug-fixtures.js';
import { plainUser } from './bug-update-fixtures.js';
import { attach, attachmentBody, postAttachment } from './attachment-fixtures.js';

type User = { id: number; login: string; apiKey: string };

/** A flag id no instance holds. */
const UNKNOWN_FLAG_ID = 99999999;

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
  const typeName = Object.fromEntries(
    ['review', 'multi', 'approval', 'fixed', 'nobody', 'retired', 'needinfo', 'gears', 'mixed', 'sunset'].map((base) => [base, named(base)]),
  );
  const groups = { approvers: named('approvers'), requesters: named('requesters') };
  const widget = named('Widget');

  /** A flag type (an attachment one unless told), its id kept under its base name. */
  const newType = async (base: string, fields: Record<string, unknown> = {}) => {
    const name = typeName[base];
    type[base] = ok(await t.post('/flag_type', { name, description: `${name} flag`, target_type: 'attachment', ...fields }, { key: ADMIN_API_KEY })).id;
  };
  const flagsOf = async (attachment: number) => (await t.get(`/bug/attachment/${attachment}`, { key: ADMIN_API_KEY, query: { include_fields: 'flags' } })).body.attachments[String(attachment)].flags;
  const setFlags = (attachment: number, flags: unknown[], key = ADMIN_API_KEY) => t.put(`/bug/attachment/${attachment}`, { flags }, { key });

  beforeAll(async () => {
    t = await startTestApp();
    await createBugGroup(t, groups.approvers);
    await createBugGroup(t, groups.requesters);
    dev = await t.createUser(loginNamed('dev'));
    reviewer = await t.createUser(loginNamed('reviewer'));
    approver = await t.createUser(loginNamed('approver'), { groups: [groups.approvers, groups.requesters] });
    requester = await t.createUser(loginNamed('requester'), { groups: [groups.requesters] });
    await createProduct(t, widget, {}, { name: 'Gears' });
    ok(await t.post('/component', { product: widget, name: 'Springs', description: 'Springs', default_assignee: ADMIN_LOGIN }, { key: ADMIN_API_KEY }));
    await newType('review', { is_multiplicable: false });
    await newType('multi', { is_multiplicable: true });
    await newType('approval', { grant_group: groups.approvers, request_group: groups.requesters });
    await newType('fixed', { is_requestable: false, is_specifically_requestable: false });
    await newType('nobody', { is_specifically_requestable: false });
    await newType('retired', { is_active: false });
    await newType('needinfo', { target_type: 'bug' });
    bug = await fileBug(t);
  });
  afterAll(async () => {
    await confineFlagTypes(t, Object.values(type), widget);
    await t.close();
  });

  describe('flag type inclusions as 5.0 sends them', () => {
    it('accepts [{"Widget": ["Gears"]}], product names and the two mixed; the type applies only there', async () => {
      await newType('gears', { inclusions: [{ [widget]: ['Gears'] }] });
      await newType('mixed', { inclusions: ['TestProduct', { [widget]: ['Springs'] }] });
      const listed = async (product: string, component: string) =>
        ok(await t.get(`/flag_type/${product}/${component}`, { key: ADMIN_API_KEY })).attachment.map((f: { name: string }) => f.name);
      expect(await listed(widget, 'Gears')).toContain(typeName.gears);
      expect(await listed(widget, 'Gears')).not.toContain(typeName.mixed);
      expect(await listed(widget, 'Springs')).toEqual(expect.arrayContaining([typeName.mixed]));
      expect(await listed(widget, 'Springs')).not.toContain(typeName.gears);
      expect(await listed('TestProduct', 'TestComponent')).toContain(typeName.mixed);
    });

    it('a malformed item is 53 naming the real function', async () => {
      const res = await t.post('/flag_type', { name: named('bad'), description: 'd', inclusions: [[widget]] }, { key: ADMIN_API_KEY });
      expectError(res, 53, 400);
      expect(res.body.message).toBe("'inclusions' is not a valid parameter for the FlagType.create function.");
      const update = await t.put(`/flag_type/${typeName.review}`, { exclusions: [{ [widget]: [{ deep: 1 }] }] }, { key: ADMIN_API_KEY });
      expectError(update, 53, 400);
      expect(update.body.message).toContain('FlagType.update function');
    });

    it('a type applies only to its product and component (51 elsewhere)', async () => {
      const gearsBug = await fileBug(t, { product: widget, component: 'Gears', version: '1.0' });
      const springsBug = await fileBug(t, { product: widget, component: 'Springs', version: '1.0' });
      expect((await postAttachment(t, gearsBug, attachmentBody('x', { flags: [{ name: typeName.gears, status: '+' }] }))).status).toBe(200);
      expectError(await postAttachment(t, springsBug, attachmentBody('x', { flags: [{ name: typeName.gears, status: '+' }] })), 51, 404);
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ type_id: type.gears, status: '+' }] })), 51, 404);
    });
  });

  describe('each rule, allowed and refused', () => {
    it('the target: a bug type on an attachment and an attachment type on a bug are 51', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: typeName.needinfo, status: '?' }] })), 51, 404);
      expectError(await t.put(`/bug/${bug}`, { flags: [{ name: typeName.review, status: '?' }] }, { key: ADMIN_API_KEY }), 51, 404);
      const res = await t.put(`/bug/${bug}`, { flags: [{ name: typeName.needinfo, status: '?' }] }, { key: ADMIN_API_KEY });
      expect(res.body.bugs[0].changes['flagtypes.name']).toEqual({ removed: '', added: `${typeName.needinfo}?` });
    });

    it('is_requestable governs ? (129); + is fine', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: typeName.fixed, status: '?' }] })), 129, 400);
      const id = await attach(t, bug, 'x', { flags: [{ name: typeName.fixed, status: '+' }] });
      expect(await flagsOf(id)).toEqual([expect.objectContaining({ name: typeName.fixed, status: '+', setter: ADMIN_LOGIN })]);
    });

    it('is_requesteeble governs a requestee (131); the requestee is returned only when set', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: typeName.nobody, status: '?', requestee: reviewer.login }] })), 131, 400);
      const id = await attach(t, bug, 'x', { flags: [{ name: typeName.nobody, status: '?' }, { name: typeName.review, status: '?', requestee: reviewer.login }] });
      const [nobody, review] = await flagsOf(id);
      expect(nobody).not.toHaveProperty('requestee');
      expect(review).toEqual({
        id: review.id, name: typeName.review, type_id: type.review, status: '?', setter: ADMIN_LOGIN, requestee: reviewer.login,
        creation_date: expect.stringMatching(/Z$/), modification_date: review.creation_date,
      });
    });

    it('is_multiplicable governs a second flag of one type (32000); a multiplicable type takes several', async () => {
      const id = await attach(t, bug, 'x', { flags: [{ name: typeName.review, status: '+' }] });
      expectError(await setFlags(id, [{ name: typeName.review, status: '-', new: true }]), 32000, 400);
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: typeName.review, status: '+' }, { name: typeName.review, status: '-' }] })), 32000, 400);
      const multi = await attach(t, bug, 'x', { flags: [{ name: typeName.multi, status: '+' }, { name: typeName.multi, status: '-' }] });
      expect((await flagsOf(multi)).map((f: { status: string }) => f.status)).toEqual(['+', '-']);
    });

    it('grant_group governs + and - (130); request_group governs ? (130)', async () => {
      const id = await attach(t, bug, 'x', {}, requester.apiKey);
      expectError(await setFlags(id, [{ name: typeName.approval, status: '+' }], requester.apiKey), 130, 400);
      expectError(await setFlags(id, [{ name: typeName.approval, status: '?' }], dev.apiKey), 130, 400);
      expect((await setFlags(id, [{ name: typeName.approval, status: '?' }], requester.apiKey)).status).toBe(200);
      const res = await setFlags(id, [{ name: typeName.approval, status: '+' }], approver.apiKey);
      expect(res.body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: `${typeName.approval}?`, added: `${typeName.approval}+` } });
      expect(await flagsOf(id)).toEqual([expect.objectContaining({ name: typeName.approval, status: '+', setter: approver.login })]);
    });

    it('an inactive type takes no new flag (134) but keeps its flags, which may still change', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: typeName.retired, status: '+' }] })), 134, 400);
      await newType('sunset');
      const id = await attach(t, bug, 'x', { flags: [{ name: typeName.sunset, status: '?' }] });
      ok(await t.put(`/flag_type/${typeName.sunset}`, { is_active: false }, { key: ADMIN_API_KEY }));
      expect((await setFlags(id, [{ name: typeName.sunset, status: '+' }])).body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: `${typeName.sunset}?`, added: `${typeName.sunset}+` } });
      expectError(await setFlags(id, [{ name: typeName.sunset, status: '+', new: true }]), 134, 400);
      expect(await flagsOf(id)).toHaveLength(1);
    });

    it('X clears a flag; X on a type with no flag changes nothing', async () => {
      const id = await attach(t, bug, 'x', { flags: [{ name: typeName.multi, status: '+' }] });
      const res = await setFlags(id, [{ name: typeName.multi, status: 'X' }, { name: typeName.review, status: 'X' }]);
      expect(res.body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: `${typeName.multi}+`, added: '' } });
      expect(await flagsOf(id)).toEqual([]);
    });

    it('type_id updates the one flag of its type, new adds another, several set flags need the id (132)', async () => {
      const id = await attach(t, bug, 'x', { flags: [{ name: typeName.multi, status: '?' }] });
      const [first] = await flagsOf(id);
      await letSecondPass(t);
      await setFlags(id, [{ type_id: type.multi, status: '+' }]);
      const [updated] = await flagsOf(id);
      expect(updated).toMatchObject({ id: first.id, status: '+', creation_date: first.creation_date });
      expect(updated.modification_date).not.toBe(first.modification_date);
      await setFlags(id, [{ type_id: type.multi, status: '-', new: true }]);
      expect(await flagsOf(id)).toHaveLength(2);
      expectError(await setFlags(id, [{ name: typeName.multi, status: '?' }]), 132, 400);
      expectError(await setFlags(id, [{ id: UNKNOWN_FLAG_ID, status: '?' }]), 51, 404);
      const res = await setFlags(id, [{ id: first.id, status: 'X' }]);
      expect(res.body.attachments[0].changes['flagtypes.name']).toEqual({ removed: `${typeName.multi}+`, added: '' });
      expect((await flagsOf(id)).map((f: { status: string }) => f.status)).toEqual(['-']);
    });
  });

  describe('requests', () => {
    describe('a request on an attachment', () => {
      let requested: number;

      it('adds the requestee to the cc list; history carries attachment_id and the name?(requestee) form', async () => {
        requested = await fileBug(t);
        const id = await attach(t, requested, 'patch', { is_patch: true }, dev.apiKey);
        const res = await setFlags(id, [{ name: typeName.review, status: '?', requestee: reviewer.login }], dev.apiKey);
        expect(res.body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: '', added: `${typeName.review}?(${reviewer.login})` } });
        const cc = (await t.get(`/bug/${requested}`, { key: ADMIN_API_KEY, query: { include_fields: 'cc' } })).body.bugs[0].cc;
        expect(cc).toContain(reviewer.login);
        const history = (await t.get(`/bug/${requested}/history`, { key: ADMIN_API_KEY })).body.bugs[0].history;
        expect(history[history.length - 1].changes).toEqual(expect.arrayContaining([
          { field_name: 'flagtypes.name', removed: '', added: `${typeName.review}?(${reviewer.login})`, attachment_id: id },
          { field_name: 'cc', removed: '', added: reviewer.login },
        ]));
      });

      inProcessIt('notifies the requestee by bug mail and by a request mail of its own (reads the mail queue)', async () => {
        // The requestee has no part in the bug before the request: every mail of theirs about it comes from the request.
        const mails = (await queuedMail(t)).filter((m) => m.toAddress === reviewer.login && m.subject.includes(`[Bug ${requested}]`));
        expect(mails.map((m) => m.subject).sort()).toEqual([`[Bug ${requested}] A bug`, `${typeName.review} requested: [Bug ${requested}] A bug`]);
        const request = mails.find((m) => m.subject.startsWith(`${typeName.review} requested`))!;
        expect(request.body).toBe(`${dev.login} has asked ${reviewer.login} for ${typeName.review}:\nBug ${requested}: A bug\n`);
        expect(JSON.parse(request.headers!)).toMatchObject({ 'X-Tracker-Type': 'request', 'X-Tracker-Flag-Requestee': reviewer.login });
      });
    });

    inProcessIt('a request on a bug (Update and Create Bug) mails the requestee too: the one flag rule and the one mail rule', async () => {
      const bug = await fileBug(t);
      await clearMailQueue(t);
      const res = await t.put(`/bug/${bug}`, { flags: [{ name: typeName.needinfo, status: '?', requestee: reviewer.login }] }, { key: dev.apiKey });
      expect(res.body.bugs[0].changes['flagtypes.name']).toEqual({ removed: '', added: `${typeName.needinfo}?(${reviewer.login})` });
      const subjects = (await queuedMail(t)).filter((m) => m.toAddress === reviewer.login).map((m) => m.subject);
      expect(subjects).toContain(`${typeName.needinfo} requested: [Bug ${bug}] A bug`);
      // and on Create Bug, whose new-bug mail lists the initial flags
      await clearMailQueue(t);
      const filed = await fileBug(t, { summary: 'Asked at birth', flags: [{ name: typeName.needinfo, status: '?', requestee: reviewer.login }] }, dev.apiKey);
      const mails = (await queuedMail(t)).filter((m) => m.toAddress === reviewer.login);
      expect(mails.map((m) => m.subject).sort()).toEqual([`[Bug ${filed}] New: Asked at birth`, `${typeName.needinfo} requested: [Bug ${filed}] Asked at birth`]);
      expect(mails.find((m) => m.subject.startsWith('[Bug'))!.body).toContain(`${typeName.needinfo}?(${reviewer.login})`);
    });

    // A user outside editbugs (every login is in it by regexp): only the database takes one out.
    inProcessIt('the requestee answers without editing rights; anything else of theirs is illegal_attachment_edit', async () => {
      const outsider = await plainUser(t, 'plain@example.com');
      const id = await attach(t, bug, 'x', { flags: [{ name: typeName.review, status: '?', requestee: outsider.login }] }, dev.apiKey);
      expectError(await t.put(`/bug/attachment/${id}`, { summary: 'mine now' }, { key: outsider.apiKey }), 32000, 400);
      expectError(await setFlags(id, [{ name: typeName.multi, status: '+' }], outsider.apiKey), 32000, 400);
      const res = await setFlags(id, [{ name: typeName.review, status: '+' }], outsider.apiKey);
      expect(res.body.attachments[0].changes).toEqual({ 'flagtypes.name': { removed: `${typeName.review}?(${outsider.login})`, added: `${typeName.review}+` } });
    });

    it('a flag needs a status and a type (50, naming the function); flags must be objects (53)', async () => {
      const noType = await postAttachment(t, bug, attachmentBody('x', { flags: [{ status: '+' }] }));
      expectError(noType, 50, 400);
      expect(noType.body.message).toContain('Bug.add_attachment');
      const id = await attach(t, bug, 'x');
      const noStatus = await setFlags(id, [{ name: typeName.review }]);
      expectError(noStatus, 50, 400);
      expect(noStatus.body.message).toContain('Bug.update_attachment');
      expectError(await setFlags(id, [`${typeName.review}+`]), 53, 400);
    });

    it('an unknown requestee is 51', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { flags: [{ name: typeName.review, status: '?', requestee: 'nobody@example.com' }] })), 51, 404);
    });
  });

  it('a whole flow through the npm bugzilla client: attach with a flag, read back, answer the request', async () => {
    const api = new BugzillaAPI(t.baseUrl, ADMIN_API_KEY);
    const contents = Buffer.from([0, 1, 2, 250, 251, 252, 255]);
    const [id] = await api.createAttachment(bug, {
      ids: [bug], data: contents, file_name: 'blob.bin', summary: 'via client', content_type: 'application/octet-stream',
      flags: [{ name: typeName.review, status: '?', requestee: reviewer.login }],
    });
    const attachment = await api.getAttachment(id);
    expect(Buffer.from(attachment!.data).equals(contents)).toBe(true);
    expect(attachment).toMatchObject({ id, bug_id: bug, file_name: 'blob.bin', creator: ADMIN_LOGIN, size: contents.length });
    expect(attachment!.flags).toEqual([expect.objectContaining({ name: typeName.review, status: '?', requestee: reviewer.login })]);
    expect((await api.getBugAttachments(bug))!.map((a) => a.id)).toContain(id);
    const [updated] = await new BugzillaAPI(t.baseUrl, reviewer.apiKey).updateAttachment(id, { flags: [{ name: typeName.review, status: '+' }] });
    expect(updated.id).toBe(id);
    expect(updated.changes.get('flagtypes.name')).toEqual({ removed: `${typeName.review}?(${reviewer.login})`, added: `${typeName.review}+` });
  });
});
