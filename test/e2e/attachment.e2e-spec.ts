import { ADMIN_API_KEY, ADMIN_LOGIN, countQueries, startTestApp, type TestApp } from '../support/test-app.js';
import { expectSqlSnapshot, recordSql } from '../support/sql-snapshots.js';
import { inProcess, itWhen, needsFastPaths } from '../support/conditions.js';
import { createBugGroup, createProduct, documentedParameters } from '../support/catalogue-fixtures.js';
import { inProcessDescribe, inProcessIt, loginNamed, named } from '../support/in-process.js';
import { expectError, fileBug, letSecondPass, productGroup, setProductControl } from './bug-fixtures.js';
import { attach, attachmentBody, PNG_LIKE, postAttachment } from './attachment-fixtures.js';
import { In } from 'typeorm';
import { Comment } from '../../src/comment/entities/comment.entity.js';
import { CommentType } from '../../src/bug/bug-comments.js';

/** A bug id and an attachment id no instance holds. */
const UNKNOWN_BUG_ID = 99999999;
const UNKNOWN_ATTACHMENT_ID = 99999999;

describe('Attachments (Create, Get, Update Attachment)', () => {
  let t: TestApp;
  let outsider: { id: number; login: string; apiKey: string };
  let insider: { id: number; login: string; apiKey: string };
  let bug: number;
  /**
   * The file's own product, for bugs behind groups: controls of this file's groups on TestProduct would reach every
   * file that files bugs there on a running instance.
   */
  const hideaway = named('Hideaway');

  /** A bug of the hideaway in a new bug group of that name, which the product's control lets it join. */
  const hiddenBug = async (group: string) => {
    await productGroup(t, group, { product: hideaway });
    return fileBug(t, { product: hideaway, component: 'General', version: '1.0', groups: [group] });
  };

  beforeAll(async () => {
    t = await startTestApp();
    const insiders = named('insiders');
    await createBugGroup(t, insiders);
    await t.setParameters({ insidergroup: insiders });
    outsider = await t.createUser(loginNamed('outsider'));
    insider = await t.createUser(loginNamed('insider'), { groups: [insiders] });
    await createProduct(t, hideaway);
    bug = await fileBug(t);
  });
  afterAll(async () => {
    // A running instance keeps its parameters for the next file: the installation's empty insidergroup again.
    await t.setParameters({ insidergroup: '' });
    await t.close();
  });

  describe('create and read back', () => {
    it('a binary and a text file come back byte for byte, with every field of the Attachment object', async () => {
      await letSecondPass(t);
      const png = await attach(t, bug, PNG_LIKE, { file_name: 'shot.png', summary: 'Screenshot', content_type: 'image/png' });
      const text = 'line one\r\nline two — ünïcode\n';
      const log = await attach(t, bug, text, { file_name: 'C:\\logs\\run.log', summary: 'Log', content_type: 'text/plain' });

      const byBug = await t.get(`/bug/${bug}/attachment`, { key: ADMIN_API_KEY });
      expect(byBug.status).toBe(200);
      expect(Object.keys(byBug.body)).toEqual(['bugs', 'attachments']);
      expect(byBug.body.attachments).toEqual({});
      const [first, second] = byBug.body.bugs[String(bug)];
      expect(Buffer.from(first.data, 'base64').equals(PNG_LIKE)).toBe(true);
      expect(Buffer.from(second.data, 'base64').toString('utf8')).toBe(text);
      expect(first).toEqual({
        data: PNG_LIKE.toString('base64'), size: PNG_LIKE.length, creation_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        last_change_time: first.creation_time, id: png, bug_id: bug, file_name: 'shot.png', summary: 'Screenshot', content_type: 'image/png',
        is_private: false, is_obsolete: false, is_patch: false, creator: ADMIN_LOGIN, flags: [],
      });
      expect(second).toMatchObject({ id: log, file_name: 'run.log', size: Buffer.byteLength(text) });

      const byId = await t.get(`/bug/attachment/${png}`, { key: ADMIN_API_KEY });
      expect(byId.body).toEqual({ bugs: {}, attachments: { [String(png)]: first } });
      // The bug changed with the last attachment.
      const got = await t.get(`/bug/${bug}`, { key: ADMIN_API_KEY, query: { include_fields: 'last_change_time' } });
      expect(got.body.bugs[0].last_change_time).toBe(second.creation_time);
    });

    it("python-bugzilla's wire forms: `bugzilla attach --file` (ids in the body too) and `--get` (attachment_ids, repeated include_fields)", async () => {
      const contents = Buffer.from('%PDF-1.4\n\x00\xff binary tail', 'latin1');
      const created = await t.request('POST', `/bug/${bug}/attachment`, {
        key: ADMIN_API_KEY,
        body: { ids: [bug], data: contents.toString('base64'), file_name: 'report.pdf', summary: 'report.pdf', content_type: 'application/pdf', comment: '' },
      });
      expect(created.status).toBe(200);
      const [id] = created.body.ids;
      const got = await t.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY, query: { attachment_ids: [id], include_fields: ['file_name', 'data'] } });
      expect(got.body).toEqual({ bugs: {}, attachments: { [String(id)]: { file_name: 'report.pdf', data: contents.toString('base64') } } });
    });

    it('the OpenAPI document lists the parameters of create and update', async () => {
      expect((await documentedParameters(t, '/bug/{id_or_alias}/attachment', 'post')).body).toEqual(expect.arrayContaining(
        ['ids', 'data', 'file_name', 'summary', 'content_type', 'comment', 'is_patch', 'is_private', 'flags']));
      expect((await documentedParameters(t, '/bug/attachment/{attachment_id}', 'put')).body).toEqual(expect.arrayContaining(
        ['ids', 'file_name', 'summary', 'content_type', 'comment', 'is_patch', 'is_private', 'is_obsolete', 'flags']));
      expect((await documentedParameters(t, '/bug/attachment/{attachment_id}', 'get')).query).toEqual(expect.arrayContaining(['include_fields', 'exclude_fields']));
    });

    it('an unknown attachment id answers empty maps; an unknown bug is 101', async () => {
      expect((await t.get(`/bug/attachment/${UNKNOWN_ATTACHMENT_ID}`, { key: ADMIN_API_KEY })).body).toEqual({ bugs: {}, attachments: {} });
      expectError(await t.get(`/bug/${UNKNOWN_BUG_ID}/attachment`, { key: ADMIN_API_KEY }), 101, 404);
    });

    itWhen(inProcess, needsFastPaths)('the bug\'s visibility rides with the caller\'s key when its attachments are asked (records statements)', async () => {
      await t.get(`/bug/${bug}/attachment`, { key: ADMIN_API_KEY });
      const sent = await recordSql(() => t.get(`/bug/${bug}/attachment`, { key: ADMIN_API_KEY }));
      expectSqlSnapshot('attachment/sql/bug-attachments', 'A warm Get Attachments of a bug by API key', sent);
    });

    itWhen(inProcess, needsFastPaths)('Create Attachment reads the bug\'s stamp and visibility with the caller\'s key, nothing of the bug on its own (records statements)', async () => {
      const target = await fileBug(t);
      const create = () => postAttachment(t, target, attachmentBody('counted', { summary: 'counted' }));
      expect((await create()).status).toBe(200);
      const sent = await recordSql(async () => expect((await create()).status).toBe(200));
      // On MySQL: the key with the bug's stamp and visibility; the bug (the last attachment moved it; who may edit its
      // product is kept); START with the attachment's row (its id is needed); the contents (binary, prepared); the
      // comment and the bug's row with the mail's reads; the rest with the COMMIT.
      expectSqlSnapshot('attachment/sql/create-attachment', 'A warm Create Attachment by API key on a bug in no group', sent);
      if (t.db.dialect === 'mysql') expect(sent).toHaveLength(6);
    });

    describe('exclude_fields=data', () => {
      let id: number;
      let path: string;
      const withoutData = () => t.get(path, { key: ADMIN_API_KEY, query: { exclude_fields: 'data' } });
      beforeAll(async () => {
        id = await attach(t, bug, Buffer.alloc(5000, 7));
        path = `/bug/attachment/${id}`;
      });

      it('answers without the contents; size is still there', async () => {
        const res = await withoutData();
        expect(res.body.attachments[String(id)].data).toBeUndefined();
        expect(res.body.attachments[String(id)].size).toBe(5000);
        const only = await t.get(path, { key: ADMIN_API_KEY, query: { include_fields: 'id,size' } });
        expect(only.body.attachments[String(id)]).toEqual({ id, size: 5000 });
      });

      inProcessIt('never reads the contents: one statement fewer (counts statements)', async () => {
        await t.get(path, { key: ADMIN_API_KEY });
        const withData = await countQueries(() => t.get(path, { key: ADMIN_API_KEY }));
        expect(await countQueries(withoutData)).toBe(withData - 1);
      });
    });

    describe('the bug of the URL overrides the ids of the body (service spec)', () => {
      let other: number;
      let created: number;

      it('attaches to the path bug only, leaving the bug of ids untouched', async () => {
        other = await fileBug(t);
        const res = await postAttachment(t, bug, { ...attachmentBody('shared'), ids: [other], comment: 'see the log' });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual(['ids']);
        expect(res.body.ids).toHaveLength(1);
        [created] = res.body.ids;
        const read = await t.get(`/bug/attachment/${created}`, { key: ADMIN_API_KEY });
        expect(read.body.attachments[String(created)].bug_id).toBe(bug);
        expect((await t.get(`/bug/${other}/attachment`, { key: ADMIN_API_KEY })).body.bugs[String(other)]).toEqual([]);
        const comments = async (bugId: number) => (await t.get(`/bug/${bugId}/comment`, { key: ADMIN_API_KEY })).body.bugs[String(bugId)].comments
          .filter((c: { attachment_id: number | null }) => c.attachment_id !== null).map((c: { text: string }) => c.text);
        expect((await comments(bug)).filter((text: string) => text.startsWith(`Created attachment ${created}\n`))).toEqual([`Created attachment ${created}\n\nsee the log`]);
        expect(await comments(other)).toEqual([]);
      });

      inProcessIt('the comment is of the attachment-created type, naming its attachment (reads the rows)', async () => {
        const comments = await t.db.read.repository(Comment).find({ where: { attachmentId: In([created]) }, order: { id: 'ASC' } });
        expect(comments.map((c) => [c.bugId, c.type, c.extraData, c.text])).toEqual([[bug, CommentType.ATTACHMENT_CREATED, String(created), 'see the log']]);
      });
    });

    it('a patch is text/plain whatever the content type sent', async () => {
      const id = await attach(t, bug, 'diff --git a b', { is_patch: true, content_type: 'application/x-junk' });
      const read = await t.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY });
      expect(read.body.attachments[String(id)]).toMatchObject({ is_patch: true, content_type: 'text/plain' });
    });
  });

  describe('refused values, each coded, nothing stored', () => {
    const count = async () => (await t.get(`/bug/${bug}/attachment`, { key: ADMIN_API_KEY, query: { exclude_fields: 'data' } })).body.bugs[String(bug)].length;

    it.each([
      ['bad base64', { data: 'not base64!!' }, 53, 400],
      ['a lone base64 character too many', { data: 'QUJDR' }, 53, 400],
      ['empty data', { data: '' }, 606, 400],
      ['an illegal MIME type', { content_type: 'foo/bar' }, 601, 400],
      ['a MIME type without subtype', { content_type: 'text' }, 601, 400],
      ['a missing summary', { summary: '' }, 604, 400],
      ['a blank file name', { file_name: '  ' }, 603, 400],
      ['data that is not a string', { data: 12 }, 53, 400],
    ])('%s', async (_what, fields, code, status) => {
      const before = await count();
      expectError(await postAttachment(t, bug, attachmentBody('x', fields)), code, status);
      expect(await count()).toBe(before);
    });

    it('without a data key: 50; anonymous: 410; a hidden bug: 102; a product the caller may not edit: 109', async () => {
      const { data: _data, ...noData } = attachmentBody('x');
      expectError(await postAttachment(t, bug, noData), 50, 400);
      expectError(await t.post(`/bug/${bug}/attachment`, attachmentBody('x')), 410, 401);
      const hidden = await hiddenBug(named('secret'));
      expectError(await postAttachment(t, hidden, attachmentBody('x'), outsider.apiKey), 102, 401);
      // a product whose bugs only a group may edit (canedit): 109 for the others
      const [lockedProduct, lockers] = [named('Locked'), named('lockers')];
      await createProduct(t, lockedProduct);
      await createBugGroup(t, lockers);
      await setProductControl(t, lockers, { product: lockedProduct, canedit: true });
      const locked = await fileBug(t, { product: lockedProduct, component: 'General', version: '1.0' });
      expectError(await postAttachment(t, locked, attachmentBody('x'), outsider.apiKey), 109, 401);
    });

    it('the size limit is the larger of maxattachmentsize KB and maxlocalattachment MB: just under passes, just over is 600', async () => {
      await t.setParameters({ maxattachmentsize: '2' });
      try {
        expect((await postAttachment(t, bug, attachmentBody(Buffer.alloc(2048, 1)))).status).toBe(200);
        const over = await postAttachment(t, bug, attachmentBody(Buffer.alloc(2049, 1)));
        expectError(over, 600, 400);
        expect(over.body.message).toContain('2 KB');
      } finally {
        await t.setParameters({ maxattachmentsize: '1000' });
      }
    });

    it('the HTTP layer takes a body as large as the default limit allows (1000 KB, base64 a third larger)', async () => {
      const big = Buffer.alloc(1000 * 1024, 0xab);
      const id = await attach(t, bug, big);
      const read = await t.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY });
      expect(Buffer.from(read.body.attachments[String(id)].data, 'base64').equals(big)).toBe(true);
    });
  });

  describe('private attachments', () => {
    let secret: number;
    beforeAll(async () => {
      secret = await attach(t, bug, 'private words', { is_private: true }, insider.apiKey);
    });

    it('only an insider may create one (113)', async () => {
      expectError(await postAttachment(t, bug, attachmentBody('x', { is_private: true }), outsider.apiKey), 113, 401);
    });

    it('outsiders do not see it in the bug list, and get 304 by id; the insider does', async () => {
      const listed = async (key?: string) => (await t.get(`/bug/${bug}/attachment`, { key, query: { include_fields: 'id' } })).body.bugs[String(bug)].map((a: { id: number }) => a.id);
      expect(await listed(outsider.apiKey)).not.toContain(secret);
      expect(await listed()).not.toContain(secret);
      expect(await listed(insider.apiKey)).toContain(secret);
      expectError(await t.get(`/bug/attachment/${secret}`, { key: outsider.apiKey }), 304, 401);
      expectError(await t.get(`/bug/attachment/${secret}`), 304, 401);
      expect((await t.get(`/bug/attachment/${secret}`, { key: insider.apiKey })).body.attachments[String(secret)].is_private).toBe(true);
    });

    it('its creator sees it after an insider made it private; its changes are hidden from outsiders in history', async () => {
      const own = await attach(t, bug, 'mine', {}, outsider.apiKey);
      const res = await t.put(`/bug/attachment/${own}`, { is_private: true, summary: 'Now private' }, { key: insider.apiKey });
      expect(res.status).toBe(200);
      expect(res.body.attachments[0].changes).toEqual({ is_private: { removed: '0', added: '1' }, summary: { removed: 'An attachment', added: 'Now private' } });
      expect((await t.get(`/bug/attachment/${own}`, { key: outsider.apiKey })).body.attachments[String(own)].summary).toBe('Now private');
      const mentions = async (key: string) => JSON.stringify((await t.get(`/bug/${bug}/history`, { key })).body).includes(`"attachment_id":${own}`);
      expect(await mentions(insider.apiKey)).toBe(true);
      expect(await mentions(outsider.apiKey)).toBe(false);
    });
  });

  describe('update', () => {
    let id: number;
    let created: string;
    beforeAll(async () => {
      id = await attach(t, bug, 'v1', { file_name: 'v1.txt', summary: 'First', content_type: 'text/plain' }, outsider.apiKey);
      created = (await t.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY })).body.attachments[String(id)].last_change_time;
    });

    it('answers changes per updates.md, moves last_change_time, and writes history with attachment_id', async () => {
      await letSecondPass(t);
      const res = await t.put(`/bug/attachment/${id}`, { file_name: 'v2.txt', summary: 'Second', is_obsolete: true, comment: 'outdated' }, { key: outsider.apiKey });
      expect(res.status).toBe(200);
      const [answer] = res.body.attachments;
      expect(answer.id).toBe(id);
      expect(answer.changes).toEqual({
        summary: { removed: 'First', added: 'Second' }, file_name: { removed: 'v1.txt', added: 'v2.txt' }, is_obsolete: { removed: '0', added: '1' },
      });
      expect(answer.last_change_time).not.toBe(created);
      const read = (await t.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY })).body.attachments[String(id)];
      expect(read).toMatchObject({ is_obsolete: true, last_change_time: answer.last_change_time, summary: 'Second' });
      const history = (await t.get(`/bug/${bug}/history`, { key: ADMIN_API_KEY })).body.bugs[0].history;
      const last = history[history.length - 1];
      expect(last.when).toBe(answer.last_change_time);
      expect(last.changes).toEqual(expect.arrayContaining([
        { field_name: 'attachments.description', removed: 'First', added: 'Second', attachment_id: id },
        { field_name: 'attachments.filename', removed: 'v1.txt', added: 'v2.txt', attachment_id: id },
        { field_name: 'attachments.isobsolete', removed: '0', added: '1', attachment_id: id },
      ]));
    });

    it('nothing changed: empty changes and the previous last_change_time', async () => {
      const before = (await t.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY })).body.attachments[String(id)].last_change_time;
      await letSecondPass(t);
      const res = await t.put(`/bug/attachment/${id}`, { summary: 'Second' }, { key: outsider.apiKey });
      expect(res.body.attachments).toEqual([{ id, last_change_time: before, changes: {} }]);
    });

    it('is_patch forces text/plain', async () => {
      const res = await t.put(`/bug/attachment/${id}`, { is_patch: true }, { key: outsider.apiKey });
      expect(res.body.attachments[0].changes).toEqual({ is_patch: { removed: '0', added: '1' } });
      expect((await t.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY })).body.attachments[String(id)]).toMatchObject({ is_patch: true, content_type: 'text/plain' });
    });

    it('an attachment of a bug the caller cannot see is illegal_attachment_edit_bug (32000)', async () => {
      const hidden = await hiddenBug(named('hushed'));
      const onHidden = await attach(t, hidden, 'x');
      const res = await t.put(`/bug/attachment/${onHidden}`, { summary: 'peek' }, { key: outsider.apiKey });
      expectError(res, 32000, 400);
      expect(res.body.message).toContain(`attachments on bug ${hidden}`);
    });

    it('ids update several; errors: invalid_attach_id, 601, 604, 113 — all or nothing', async () => {
      const other = await attach(t, bug, 'two', {}, outsider.apiKey);
      const res = await t.put(`/bug/attachment/${id}`, { ids: [other], is_obsolete: false }, { key: outsider.apiKey });
      expect(res.body.attachments.map((a: { id: number }) => a.id)).toEqual([id, other]);
      expectError(await t.put(`/bug/attachment/${UNKNOWN_ATTACHMENT_ID}`, { summary: 'x' }, { key: ADMIN_API_KEY }), 32000, 400);
      // (the first is a patch now: its type is text/plain whatever is sent)
      expectError(await t.put(`/bug/attachment/${other}`, { content_type: 'nonsense' }, { key: ADMIN_API_KEY }), 601, 400);
      expectError(await t.put(`/bug/attachment/${id}`, { summary: ' ' }, { key: ADMIN_API_KEY }), 604, 400);
      expectError(await t.put(`/bug/attachment/${id}`, { ids: [other], summary: 'changed', is_private: true }, { key: outsider.apiKey }), 113, 401);
      expect((await t.get(`/bug/attachment/${other}`, { key: ADMIN_API_KEY })).body.attachments[String(other)].summary).toBe('An attachment');
    });
  });

  // Needs an instance of its own with a small server-wide body limit (TRACKER_MAX_BODY_BYTES).
  inProcessDescribe('the HTTP body limit of Create Attachment follows maxattachmentsize', () => {
    let small: TestApp;
    beforeAll(async () => {
      small = await startTestApp({ TRACKER_MAX_BODY_BYTES: String(64 * 1024) });
      await small.setParameters({ maxattachmentsize: '100' });
    });
    afterAll(() => small.close());

    it('takes a body over the server-wide limit when the attachment is within maxattachmentsize; refuses the rest, coded', async () => {
      const smallBug = await fileBug(small);
      const contents = Buffer.alloc(90 * 1024, 0x5a);
      expect(attachmentBody(contents).data).toHaveLength(Math.ceil(contents.length / 3) * 4);
      const id = await attach(small, smallBug, contents);
      const read = await small.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY });
      expect(Buffer.from(read.body.attachments[String(id)].data, 'base64').equals(contents)).toBe(true);
      expectError(await postAttachment(small, smallBug, attachmentBody(Buffer.alloc(101 * 1024, 1))), 600, 400);
      const huge = await small.request('POST', `/bug/${smallBug}/attachment`, {
        rawBody: JSON.stringify(attachmentBody(Buffer.alloc(3 * 1024 * 1024, 1))), key: ADMIN_API_KEY, headers: { 'content-type': 'application/json' },
      });
      expect(huge.status).toBe(413);
      expect(huge.body).toMatchObject({ error: true, code: 32000 });
      // Elsewhere the server-wide limit holds.
      const other = await small.request('PUT', '/parameters', { rawBody: JSON.stringify({ a: 'x'.repeat(70 * 1024) }), key: ADMIN_API_KEY, headers: { 'content-type': 'application/json' } });
      expect(other.status).toBe(413);
    });

    itWhen(needsFastPaths)('a body within the limit this instance saw last reads no parameters (records statements)', async () => {
      const smallBug = await fileBug(small);
      await attach(small, smallBug, Buffer.alloc(1024, 1));
      const sent = await recordSql(() => attach(small, smallBug, Buffer.alloc(1024, 2)));
      expect(sent.filter((sql) => /FROM [`"]parameters[`"]/.test(sql))).toEqual([]);
    });

    it('a body over the limit this instance saw last waits for the parameters, so a limit raised through another instance holds at once', async () => {
      const smallBug = await fileBug(small);
      await attach(small, smallBug, Buffer.alloc(1024, 1));
      const elsewhere = await startTestApp({ TRACKER_MAX_BODY_BYTES: String(64 * 1024) }, { sharing: small });
      try {
        // 2 MB of contents: a body over what 100 KB allowed (and the slack for other fields), within 3,000 KB.
        expect((await elsewhere.put('/parameters', { maxattachmentsize: '3000' }, { key: ADMIN_API_KEY })).status).toBe(200);
        const contents = Buffer.alloc(2 * 1024 * 1024, 3);
        const id = await attach(small, smallBug, contents);
        const read = await small.get(`/bug/attachment/${id}`, { key: ADMIN_API_KEY });
        expect(Buffer.from(read.body.attachments[String(id)].data, 'base64').equals(contents)).toBe(true);
        // Lowered again elsewhere: the larger limit this instance kept lets the body be read, the service refuses it (600).
        expect((await elsewhere.put('/parameters', { maxattachmentsize: '100' }, { key: ADMIN_API_KEY })).status).toBe(200);
        expectError(await postAttachment(small, smallBug, attachmentBody(Buffer.alloc(200 * 1024, 4))), 600, 400);
      } finally {
        await elsewhere.close();
      }
    });
  });
});
