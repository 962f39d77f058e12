import { ADMIN_API_KEY, ADMIN_LOGIN, countQueries, startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { createBugGroup, ok } from '../support/catalogue-fixtures.js';
import { BugzillaAPI } from '../support/bugzilla-client.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { expectSqlSnapshot, recordSql } from '../support/sql-snapshots.js';
import { inProcess, itWhen, needsFastPaths } from '../support/conditions.js';
import { clearMailQueue, expectError, fileBug, letSecondPass, queuedMail, restrictBugs } from './bug-fixtures.js';
import { CommentService } from '../../src/comment/comment.service.js';
import { toDbDateTime } from '../../src/common/time/datetime.js';

type User = { id: number; login: string; apiKey: string };

const API_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
/** Bug and comment ids no instance holds. */
const UNKNOWN_BUG_ID = 99999999;
const UNKNOWN_COMMENT_IDS = [99999999, 99999998];

describe('Comments (Create Comment, Get Comments, comment tags)', () => {
  let t: TestApp;
  let outsider: User;
  let insider: User;
  let otherInsider: User;

  const post = (bug: number | string, body: Record<string, unknown>, key?: string) => t.post(`/bug/${bug}/comment`, body, key ? { key } : {});
  const comment = async (bug: number, text: string, key = ADMIN_API_KEY, extra: Record<string, unknown> = {}): Promise<number> => {
    const res = await post(bug, { comment: text, ...extra }, key);
    if (res.status !== 200) throw new Error(`Create Comment failed: ${res.status} ${res.text}`);
    return res.body.id;
  };
  const commentsOf = async (bug: number | string, key?: string, query: Record<string, string | string[]> = {}): Promise<ApiResponse> =>
    t.get(`/bug/${bug}/comment`, { ...(key ? { key } : {}), query });
  const texts = (res: ApiResponse, bug: number) => res.body.bugs[String(bug)].comments.map((c: { text: string }) => c.text);

  beforeAll(async () => {
    t = await startTestApp();
    const insiders = named('insiders');
    await createBugGroup(t, insiders);
    await t.setParameters({ insidergroup: insiders });
    outsider = await t.createUser(loginNamed('outsider'));
    insider = await t.createUser(loginNamed('insider'), { groups: [insiders] });
    otherInsider = await t.createUser(loginNamed('insider2'), { groups: [insiders] });
  });
  afterAll(async () => {
    // A running instance keeps its parameters for the next file: the installation's empty insidergroup again.
    await t.setParameters({ insidergroup: '' });
    await t.close();
  });

  describe('Create Comment', () => {
    let firstComment: number;

    it('answers {id} with 200 (the seed), and Get Comments shows every field of the Comment object', async () => {
      const bug = await fileBug(t, { description: 'The description' });
      await letSecondPass(t);
      const res = await post(bug, { comment: 'First comment\r\nsecond line  ' }, outsider.apiKey);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: expect.any(Number) });

      const got = await commentsOf(bug, outsider.apiKey);
      expect(got.status).toBe(200);
      expect(Object.keys(got.body)).toEqual(['bugs', 'comments']);
      expect(got.body.comments).toEqual({});
      const [description, added] = got.body.bugs[String(bug)].comments;
      expect(description).toMatchObject({ bug_id: bug, count: 0, text: 'The description', creator: ADMIN_LOGIN, is_private: false });
      expect(added).toEqual({
        id: res.body.id, bug_id: bug, attachment_id: null, count: 1, text: 'First comment\nsecond line',
        creator: outsider.login, time: added.creation_time, creation_time: expect.stringMatching(API_TIME), is_private: false, tags: [],
      });
      // The bug changed when the comment was added.
      const [bugNow] = (await t.get(`/bug/${bug}`, { key: ADMIN_API_KEY })).body.bugs;
      expect(bugNow.last_change_time).toBe(added.creation_time);
      expect(bugNow.last_change_time).not.toBe(bugNow.creation_time);
      // Plain comments are no history entry (updates.md).
      expect((await t.get(`/bug/${bug}/history`, { key: ADMIN_API_KEY })).body.bugs[0].history).toEqual([]);
      firstComment = res.body.id;
    });

    inProcessIt('a comment is its own record, as in Bugzilla 5.0: no audit_log row (reads the audit log)', async () => {
      expect(await t.auditOf('Tracker::Comment', firstComment)).toEqual([]);
    });

    inProcessIt('queues bug mail with the comment through the bug module\'s mailer', async () => {
      const bug = await fileBug(t, { cc: [outsider.login] });
      await clearMailQueue(t);
      await comment(bug, 'Mail me this text');
      const mail = await queuedMail(t);
      expect(mail.find((m) => m.toAddress === outsider.login)?.body).toContain('Mail me this text');
    });

    it('an empty, whitespace-only or missing comment is 50 (param_required), and nothing is written', async () => {
      const bug = await fileBug(t);
      for (const body of [{ comment: '' }, { comment: '  \n\t ' }, {}]) {
        const res = await post(bug, body, outsider.apiKey);
        expectError(res, 50, 400);
        expect(res.body.message).toContain('comment');
      }
      expect(texts(await commentsOf(bug), bug)).toHaveLength(1);
    });

    it('a comment over 65,535 characters is 114, not a truncation; 65,535 is accepted', async () => {
      const bug = await fileBug(t);
      expectError(await post(bug, { comment: 'x'.repeat(65536) }, outsider.apiKey), 114, 400);
      const id = await comment(bug, 'y'.repeat(65535), outsider.apiKey);
      const got = await t.get(`/bug/comment/${id}`, { key: outsider.apiKey });
      expect(got.body.comments[String(id)].text).toHaveLength(65535);
    });

    it('needs login (410); the bug is named by id or alias; a body id does not override the path (as Create Attachment)', async () => {
      const alias = named('commented');
      const bug = await fileBug(t, { alias: [alias] });
      expectError(await post(bug, { comment: 'anonymous' }), 410, 401);
      await comment(bug, 'by alias');
      const other = await fileBug(t);
      const res = await post(other, { id: alias, comment: 'the path wins' }, ADMIN_API_KEY);
      expect(res.status).toBe(200);
      expect(texts(await commentsOf(bug), bug)).toEqual(['', 'by alias']);
      expect(texts(await commentsOf(other), other)).toEqual(['', 'the path wins']);
      expectError(await post(UNKNOWN_BUG_ID, { comment: 'no bug' }, ADMIN_API_KEY), 101, 404);
      expectError(await post('no-such-alias', { comment: 'no bug' }, ADMIN_API_KEY), 100, 400);
    });
  });

  describe('private comments (insider group)', () => {
    let bug: number;
    let privateId: number;

    beforeAll(async () => {
      bug = await fileBug(t, { description: 'desc', cc: [outsider.login, otherInsider.login] });
      privateId = await comment(bug, 'insiders only', insider.apiKey, { is_private: true });
      await comment(bug, 'public again', insider.apiKey);
    });

    it('an insider sees a private comment; everyone else has it skipped, the others keeping their count', async () => {
      const seen = (await commentsOf(bug, otherInsider.apiKey)).body.bugs[String(bug)].comments;
      expect(seen.map((c: { count: number; is_private: boolean }) => [c.count, c.is_private])).toEqual([[0, false], [1, true], [2, false]]);
      for (const key of [outsider.apiKey, undefined]) {
        const hidden = (await commentsOf(bug, key)).body.bugs[String(bug)].comments;
        expect(hidden.map((c: { count: number; text: string }) => [c.count, c.text])).toEqual([[0, 'desc'], [2, 'public again']]);
      }
    });

    it('asked by id, a private comment is 110 for a non-insider and returned to an insider', async () => {
      expectError(await t.get(`/bug/comment/${privateId}`, { key: outsider.apiKey }), 110, 401);
      expectError(await t.get(`/bug/comment/${privateId}`), 110, 401);
      const got = await t.get(`/bug/comment/${privateId}`, { key: otherInsider.apiKey });
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ bugs: {}, comments: { [privateId]: expect.objectContaining({ id: privateId, count: 1, is_private: true, text: 'insiders only' }) } });
    });

    it('a non-insider asking for a private comment gets 113 and nothing is written', async () => {
      expectError(await post(bug, { comment: 'make me private', is_private: true }, outsider.apiKey), 113, 401);
      expect(texts(await commentsOf(bug, otherInsider.apiKey), bug)).not.toContain('make me private');
      // is_private false is anyone's
      await comment(bug, 'explicitly public', outsider.apiKey, { is_private: false });
    });

    inProcessIt('bug mail shows the private comment to insiders only (reads the mail queue)', async () => {
      const mail = (await queuedMail(t)).filter((m) => m.subject.includes(`[Bug ${bug}]`));
      const to = (login: string) => mail.filter((m) => m.toAddress === login).map((m) => m.body).join('\n');
      expect(to(otherInsider.login)).toContain('insiders only');
      expect(to(outsider.login)).toContain('public again');
      expect(to(outsider.login)).not.toContain('insiders only');
    });
  });

  describe('work_time (time-tracking group)', () => {
    let tracker: User;
    let bug: number;

    beforeAll(async () => {
      const trackers = named('trackers');
      await createBugGroup(t, trackers);
      await t.setParameters({ timetrackinggroup: trackers });
      tracker = await t.createUser(loginNamed('tracker'), { groups: [trackers] });
      bug = await fileBug(t);
      const res = await t.put(`/bug/${bug}`, { remaining_time: 5 }, { key: tracker.apiKey });
      expect(res.status).toBe(200);
    });
    afterAll(() => t.setParameters({ timetrackinggroup: 'editbugs' }));

    const times = async () => {
      const [b] = (await t.get(`/bug/${bug}`, { key: tracker.apiKey })).body.bugs;
      return { actual: b.actual_time, remaining: b.remaining_time };
    };

    it('a time tracker\'s hours add to actual_time and lower remaining_time, with history', async () => {
      await letSecondPass(t);
      const id = await comment(bug, 'worked on it', tracker.apiKey, { work_time: 2.5 });
      expect(await times()).toEqual({ actual: 2.5, remaining: 2.5 });
      const { history } = (await t.get(`/bug/${bug}/history`, { key: tracker.apiKey })).body.bugs[0];
      expect(history[history.length - 1].changes).toEqual([
        { field_name: 'work_time', removed: '', added: '2.50' },
        { field_name: 'remaining_time', removed: '5.00', added: '2.5' },
      ]);
      expect((await t.get(`/bug/comment/${id}`, { key: tracker.apiKey })).body.comments[String(id)].text).toBe('worked on it');
      expectError(await post(bug, { comment: 'x', work_time: 'lots' }, tracker.apiKey), 52, 400);
      expectError(await post(bug, { comment: 'x', work_time: 100000 }, tracker.apiKey), 54, 400);
    });

    it('outside the group work_time is ignored: the comment is created, the hours are not', async () => {
      const before = await times();
      await comment(bug, 'not a tracker', outsider.apiKey, { work_time: 3 });
      await comment(bug, 'nor with bad hours', outsider.apiKey, { work_time: 'lots' });
      expect(await times()).toEqual(before);
      expect(texts(await commentsOf(bug, outsider.apiKey), bug).slice(-2)).toEqual(['not a tracker', 'nor with bad hours']);
      // Outsiders see no time fields in history either.
      const { history } = (await t.get(`/bug/${bug}/history`, { key: outsider.apiKey })).body.bugs[0];
      expect(history.flatMap((h: { changes: Array<{ field_name: string }> }) => h.changes.map((c) => c.field_name))).not.toContain('work_time');
    });
  });

  describe('Get Comments', () => {
    let first: number;
    let second: number;
    let c1: number;
    let c2: number;
    let c2Time: string;

    const firstAlias = named('gc-first');

    beforeAll(async () => {
      first = await fileBug(t, { alias: [firstAlias], description: 'first desc' });
      second = await fileBug(t, { description: 'second desc' });
      await letSecondPass(t);
      c1 = await comment(first, 'older');
      await letSecondPass(t);
      c2 = await comment(first, 'newer');
      c2Time = (await t.get(`/bug/comment/${c2}`)).body.comments[String(c2)].creation_time;
    });

    it('several bugs at once through ids (id or alias); each bug once, named twice or not', async () => {
      const res = await commentsOf(first, undefined, { ids: [String(second), firstAlias, String(first)] });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.bugs).sort()).toEqual([String(first), String(second)].sort());
      expect(texts(res, first)).toEqual(['first desc', 'older', 'newer']);
      expect(texts(res, second)).toEqual(['second desc']);
    });

    it('new_since keeps strictly newer comments of the bugs; comment_ids are returned whatever it says', async () => {
      const res = await commentsOf(first, undefined, { new_since: c2Time, comment_ids: [String(c1)] });
      expect(texts(res, first)).toEqual([]);
      expect(Object.keys(res.body.comments)).toEqual([String(c1)]);
      const older = new Date(Date.parse(c2Time) - 1000).toISOString().replace(/\.\d+Z$/, 'Z');
      expect(texts(await commentsOf(first, undefined, { new_since: older }), first)).toEqual(['newer']);
      const byId = await t.get(`/bug/comment/${c1}`, { query: { new_since: c2Time, comment_ids: String(c2) } });
      expect(Object.keys(byId.body.comments).sort()).toEqual([String(c1), String(c2)].sort());
      expect(byId.body.comments[String(c2)]).toMatchObject({ count: 2, text: 'newer', bug_id: first });
      expectError(await commentsOf(first, undefined, { new_since: 'yesterday-ish' }), 56, 400);
    });

    it('unknown comment ids are 111, ids that are not numbers 52', async () => {
      expectError(await t.get(`/bug/comment/${UNKNOWN_COMMENT_IDS[0]}`), 111, 400);
      expectError(await t.get(`/bug/comment/${c1}`, { query: { comment_ids: [String(UNKNOWN_COMMENT_IDS[1])] } }), 111, 400);
      expectError(await t.get('/bug/comment/abc'), 52, 400);
    });

    it('include_fields trims every comment', async () => {
      const res = await commentsOf(first, undefined, { include_fields: 'id,text', comment_ids: String(c1) });
      expect(res.body.bugs[String(first)].comments[1]).toEqual({ id: c1, text: 'older' });
      expect(res.body.comments[String(c1)]).toEqual({ id: c1, text: 'older' });
    });

    describe('statements of a read (counts statements)', () => {
      /** A new bug with 9 comments besides its description, and the reads that refresh what the service keeps after writes. */
      const bugOfTenComments = async () => {
        const bug = await fileBug(t);
        const comments = t.app.get(CommentService);
        const at = toDbDateTime(t.clock.now());
        await t.db.transaction(async (tx) => {
          for (let i = 0; i < 9; i++) await comments.add(tx, { bugId: bug, userId: 1, text: `comment ${i}`, isPrivate: false, at });
        });
        // The first reads after the writes refresh what the service keeps (the key's last use, caller, parameters).
        const warm = await fileBug(t);
        await commentsOf(warm, outsider.apiKey);
        await commentsOf(warm, outsider.apiKey);
        return bug;
      };

      inProcessIt('a bug with 1,000 comments is read with one statement for the comments: as many statements as a bug with 10', async () => {
        const big = await fileBug(t);
        const at = toDbDateTime(t.clock.now());
        const comments = t.app.get(CommentService);
        await t.db.transaction(async (tx) => {
          for (let i = 0; i < 999; i++) await comments.add(tx, { bugId: big, userId: i % 2 ? outsider.id : 1, text: `comment ${i}`, isPrivate: false, at });
        });
        const small = await bugOfTenComments();
        let res: ApiResponse | undefined;
        const bigCount = await countQueries(async () => { res = await commentsOf(big, outsider.apiKey); });
        expect(res!.body.bugs[String(big)].comments).toHaveLength(1000);
        expect(res!.body.bugs[String(big)].comments[998]).toMatchObject({ count: 998, text: 'comment 997', creator: outsider.login });
        expect(bigCount).toBe(await countQueries(() => commentsOf(small, outsider.apiKey)));
      });

      itWhen(inProcess, needsFastPaths)('a bug\'s comments cost at most 5 statements, then are kept whole: the key\'s statement alone, the same bytes', async () => {
        const bug = await bugOfTenComments();
        let res: ApiResponse | undefined;
        // The caller's key with the bug's stamp (BugStampsCompanion), the bug's row, the comments, their authors, their tags.
        expect(await countQueries(async () => { res = await commentsOf(bug, outsider.apiKey); })).toBeLessThanOrEqual(5);
        let again: ApiResponse | undefined;
        expect(await countQueries(async () => { again = await commentsOf(bug, outsider.apiKey); })).toBe(1);
        expect(again!.text).toBe(res!.text);
      });
    });

    itWhen(inProcess, needsFastPaths)('the bugs\' visibility rides with the caller\'s key: Get Comments and Create Comment read nothing of the bug on their own (records statements)', async () => {
      const bug = await fileBug(t);
      await comment(bug, 'warming', outsider.apiKey);
      await comment(bug, 'warming again', outsider.apiKey);
      await commentsOf(bug, outsider.apiKey);
      // No statement of the request's own for the bug's visibility or its stamps; the bug unchanged since the last
      // read, its answer is kept: the key's statement (with the bug's stamp, its visibility remembered) is all.
      const read = await recordSql(() => commentsOf(bug, outsider.apiKey));
      expectSqlSnapshot('comment/sql/get-comments', 'A warm Get Comments by API key of a bug unchanged since its last read', read);
      if (t.db.dialect === 'mysql') expect(read).toHaveLength(1);
      // The stamps with the key (BugStampsForWriteCompanion): the bug's visibility and its stamp. Then START, the bug's
      // row lock, the comment, the bug's row and history with the mail's reads (its groups among them: in none, the
      // mail needs no visibility read); the mail with the COMMIT.
      const written = await recordSql(() => comment(bug, 'one more', outsider.apiKey));
      expectSqlSnapshot('comment/sql/add-comment', 'A warm Create Comment by API key on a bug in no group', written);
      if (t.db.dialect === 'mysql') expect(written).toHaveLength(3);
    });

    it('a bug named by alias: the route resolves the bug itself, the same comments, and takes a new one', async () => {
      const bug = await fileBug(t);
      await comment(bug, 'warming', outsider.apiKey);
      await commentsOf(bug, outsider.apiKey);
      const alias = named('gc-alias');
      expect((await t.put(`/bug/${bug}`, { alias: { add: [alias] } }, { key: ADMIN_API_KEY })).status).toBe(200);
      expect(texts(await commentsOf(alias, outsider.apiKey), bug)).toEqual(['', 'warming']);
      expect((await post(alias, { comment: 'by alias' }, outsider.apiKey)).status).toBe(200);
      expect(texts(await commentsOf(bug, outsider.apiKey), bug)).toEqual(['', 'warming', 'by alias']);
    });
  });

  describe('comments of bugs the caller cannot see', () => {
    let hidden: number;
    let hiddenComment: number;

    beforeAll(async () => {
      hidden = await fileBug(t);
      hiddenComment = await comment(hidden, 'behind a group');
      await restrictBugs(t, named('comment-secret'), [hidden], [insider.id]);
    });

    it('Get Comments by bug or by comment id, and Create Comment, are 102', async () => {
      expectError(await commentsOf(hidden, outsider.apiKey), 102, 401);
      expectError(await commentsOf(hidden), 102, 401);
      expectError(await t.get(`/bug/comment/${hiddenComment}`, { key: outsider.apiKey }), 102, 401);
      expectError(await post(hidden, { comment: 'let me in' }, outsider.apiKey), 102, 401);
      expectError(await t.put(`/bug/comment/${hiddenComment}/tags`, { add: ['peek'] }, { key: outsider.apiKey }), 102, 401);
      expect(texts(await commentsOf(hidden, insider.apiKey), hidden)).toEqual(['', 'behind a group']);
    });
  });

  describe('comment tags', () => {
    let bug: number;
    let target: number;
    let privateComment: number;
    // Tags are the instance's: a search finds earlier runs' tags too, so each query names this run's tag in full.
    const tag = { obsolete: named('obsolete'), spam: named('Spam'), needsInfo: named('needs-info'), secret: named('secret'), many: named('many') };

    const tags = (id: number | string, body: Record<string, unknown>, key = ADMIN_API_KEY) => t.put(`/bug/comment/${id}/tags`, body, { key });
    const search = (query: string, key = ADMIN_API_KEY, extra: Record<string, string> = {}) => t.get(`/bug/comment/tags/${encodeURIComponent(query)}`, { key, query: extra });

    beforeAll(async () => {
      bug = await fileBug(t);
      target = await comment(bug, 'tag me');
      privateComment = await comment(bug, 'private', insider.apiKey, { is_private: true });
    });

    it('adds and removes tags case-insensitively, answering the sorted tags as a bare array; tags show on comments', async () => {
      const added = await tags(target, { add: [tag.obsolete, tag.spam, tag.needsInfo] });
      expect(added.status).toBe(200);
      expect(added.body).toEqual([tag.spam, tag.needsInfo, tag.obsolete]);
      expect((await tags(target, { add: [tag.spam.toLowerCase(), tag.obsolete.toUpperCase()] }, outsider.apiKey)).body).toEqual([tag.spam, tag.needsInfo, tag.obsolete]);
      expect((await tags(target, { remove: [tag.spam.toUpperCase(), 'never-there'] })).body).toEqual([tag.needsInfo, tag.obsolete]);
      const shown = (await t.get(`/bug/comment/${target}`)).body.comments[String(target)];
      expect(shown.tags).toEqual([tag.needsInfo, tag.obsolete]);
      expect((await tags(UNKNOWN_COMMENT_IDS[0], { add: ['whatever'] })).body).toEqual([]);
    });

    it('refuses bad tags (128 short, 127 long, 126 characters) and a non-integer id (57), changing nothing', async () => {
      expectError(await tags(target, { add: ['fine', 'ab'] }), 128, 400);
      expectError(await tags(target, { add: ['a'.repeat(25)] }), 127, 400);
      expectError(await tags(target, { add: ['bad tag'] }), 126, 400);
      expectError(await tags(target, { remove: ['no/slash'] }), 126, 400);
      expectError(await tags('abc', { add: ['fine'] }), 57, 400);
      expect((await tags(target, {})).body).toEqual([tag.needsInfo, tag.obsolete]);
      expect((await tags(target, { add: ['a'.repeat(24), 'a.b_c-3'] })).body).toEqual(['a.b_c-3', 'a'.repeat(24), tag.needsInfo, tag.obsolete]);
      expect((await tags(target, { remove: ['a'.repeat(24), 'a.b_c-3'] })).body).toEqual([tag.needsInfo, tag.obsolete]);
    });

    it('a private comment\'s tags are 110 for a non-insider', async () => {
      expectError(await tags(privateComment, { add: [tag.secret] }, outsider.apiKey), 110, 401);
      expect((await tags(privateComment, { add: [tag.secret] }, insider.apiKey)).body).toEqual([tag.secret]);
    });

    it('search: tags in use containing the query, as a bare array; limit defaults to 10; 52 for a bad limit', async () => {
      const res = await search(tag.obsolete.slice(1));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([tag.obsolete]);
      expect((await search(tag.needsInfo.toUpperCase())).body).toEqual([tag.needsInfo]);
      // A tag nobody uses any more is not found.
      expect((await search(tag.spam.toLowerCase())).body).toEqual([]);
      const many = await comment(bug, 'many tags');
      ok(await tags(many, { add: Array.from({ length: 12 }, (_, i) => `${tag.many}-${String(i).padStart(2, '0')}`) }));
      expect((await search(`${tag.many}-`)).body).toHaveLength(10);
      expect((await search(`${tag.many}-`, ADMIN_API_KEY, { limit: '3' })).body).toHaveLength(3);
      expect((await search(`${tag.many}-`, ADMIN_API_KEY, { limit: '0' })).body).toHaveLength(10);
      expect((await search('%')).body).toEqual([]);
      expectError(await search(`${tag.many}-`, ADMIN_API_KEY, { limit: 'lots' }), 52, 400);
    });

    it('needs login (410), the comment_taggers_group (304) and tagging on (125: comments then show no tags)', async () => {
      expectError(await t.get('/bug/comment/tags/obs'), 410, 401);
      expectError(await t.put(`/bug/comment/${target}/tags`, { add: ['anon'] }), 410, 401);
      const taggers = named('taggers');
      await createBugGroup(t, taggers);
      await t.setParameters({ comment_taggers_group: taggers });
      try {
        expectError(await search('obs', outsider.apiKey), 304, 401);
        expectError(await tags(target, { add: ['nope'] }, outsider.apiKey), 304, 401);
        await t.setParameters({ comment_taggers_group: '' });
        expectError(await search('obs'), 125, 400);
        expectError(await tags(target, { add: ['nope'] }), 125, 400);
        expect((await t.get(`/bug/comment/${target}`)).body.comments[String(target)]).not.toHaveProperty('tags');
      } finally {
        await t.setParameters({ comment_taggers_group: 'editbugs' });
      }
    });
  });

  describe('through the npm bugzilla client', () => {
    it('adds comments and reads them back by bug and by id', async () => {
      const api = new BugzillaAPI(t.baseUrl, outsider.apiKey);
      const bug = await fileBug(t, { description: 'client desc' });
      const id = await api.createComment(bug, 'from the npm client');
      const all = await api.getBugComments(bug);
      expect(all?.map((c) => [c.count, c.text, c.creator])).toEqual([[0, 'client desc', ADMIN_LOGIN], [1, 'from the npm client', outsider.login]]);
      const one = await api.getComment(id);
      expect(one).toMatchObject({ id, bug_id: bug, text: 'from the npm client', is_private: false, tags: [] });
      expect(one?.creation_time.toISO()).toMatch(/^\d{4}-/);
      await expect(api.createComment(bug, 'secret', { is_private: true })).rejects.toThrow(/401/);
      const anonymous = new BugzillaAPI(t.baseUrl);
      await expect(anonymous.createComment(bug, 'anonymous')).rejects.toThrow(/401/);
      expect(await anonymous.getBugComments(bug)).toHaveLength(2);
    });
  });
});
