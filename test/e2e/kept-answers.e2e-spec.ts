import { jest } from '@jest/globals';
import { ADMIN_API_KEY, countQueries, startTestApp, withoutKeptWriteChecks, type TestApp } from '../support/test-app.js';
import { changeGroups } from './bug-fixtures.js';
import { addFlagType, addGroup } from './bug-update-fixtures.js';
import { Tag } from '../../src/bug/entities/tag.entity.js';
import { BugTag } from '../../src/bug/entities/bug-tag.entity.js';
import { BugGetAnswer } from '../../src/bug/store/bug-get.answer.js';
import { VersionAnswer } from '../../src/info/store/version.answer.js';
import { InfoController } from '../../src/info/info.controller.js';
import { etagOf } from '../../src/common/http/output-format.js';
import { expectSqlSnapshot, recordSql } from '../support/sql-snapshots.js';
import { hashings } from '../support/hashings.js';
import { describeWhen, itWhen, needsFastPaths } from '../support/conditions.js';

/**
 * Get Bug and Search Bugs keep each bug's JSON (all but the caller's tags and update token) per field selection and
 * caller class, beside the kept bug (BugService.renderBugs). A kept answer must never differ from a freshly made
 * one: not across callers of another class, not across selections, not after a change through this instance or
 * another one on the same database.
 */
describe('kept bug answers are never another caller\'s, another selection\'s or stale', () => {
  let t: TestApp;
  let other: TestApp;
  let bugId: number;
  let reporter: { id: number; login: string; apiKey: string };
  let tracker: { id: number; login: string; apiKey: string };
  const admin = { key: ADMIN_API_KEY };

  beforeAll(async () => {
    t = await startTestApp();
    other = await startTestApp({}, { sharing: t });
    reporter = await t.createUser('kept-answers-reporter@example.com', { realName: 'Rep Orter' });
    tracker = await t.createUser('kept-answers-tracker@example.com', { groups: ['editusers'] });
    await t.setParameters({ timetrackinggroup: 'editusers', webservice_email_filter: '1' });
    // Shown to members (admin, tracker) and addable by them (membercontrol Shown), outsiders get nothing.
    await addGroup(t, 'kept-team', [{ product: 'TestProduct', membercontrol: 1, othercontrol: 0 }], [1, tracker.id]);
    const created = await t.post('/bug', {
      product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Kept answers', description: 'd',
      estimated_time: 3,
    }, admin);
    bugId = created.body.id;
    expect((await t.put(`/bug/${bugId}`, { cc: { add: [reporter.login] } }, admin)).status).toBe(200);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const file = async (summary: string, groups: string[] = []) => (await t.post('/bug', {
    product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary, description: 'd', groups,
  }, admin)).body.id as number;

  const bugFor = async (app: TestApp, options: { key?: string; query?: Record<string, string> } = {}) => {
    const res = await app.get(`/bug/${bugId}`, options);
    expect(res.status).toBe(200);
    return res.body.bugs[0];
  };

  it('answers the same twice (the second from kept JSON), byte for byte but the update token', async () => {
    const first = await t.get(`/bug/${bugId}`, { key: reporter.apiKey });
    const second = await t.get(`/bug/${bugId}`, { key: reporter.apiKey });
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const withoutToken = (text: string) => text.replace(/"update_token":"[^"]*"/, '');
    expect(withoutToken(second.text)).toBe(withoutToken(first.text));
    expect(Object.keys(second.body.bugs[0]).at(-1)).toBe('update_token');
  });

  it('time fields for a time tracker only, whoever read the bug before', async () => {
    expect(await bugFor(t, { key: reporter.apiKey })).not.toHaveProperty('estimated_time');
    expect((await bugFor(t, { key: tracker.apiKey })).estimated_time).toBe(3);
    expect(await bugFor(t, { key: reporter.apiKey })).not.toHaveProperty('estimated_time');
    expect((await bugFor(t, { key: tracker.apiKey })).estimated_time).toBe(3);
  });

  it('whole addresses for logged-in callers, filtered ones for anonymous callers (webservice_email_filter), in any order', async () => {
    expect((await bugFor(t, { key: reporter.apiKey })).cc).toEqual([reporter.login]);
    expect((await bugFor(t)).cc).toEqual(['kept-answers-reporter']);
    expect((await bugFor(t, { key: reporter.apiKey })).cc).toEqual([reporter.login]);
    expect((await bugFor(t)).cc).toEqual(['kept-answers-reporter']);
  });

  it('each field selection gets its own fields, on Get and on Search', async () => {
    for (let round = 0; round < 2; round++) {
      expect(Object.keys(await bugFor(t, { query: { include_fields: 'id,summary' } }))).toEqual(['id', 'summary']);
      expect(await bugFor(t, { query: { exclude_fields: 'summary' } })).not.toHaveProperty('summary');
      expect((await bugFor(t)).summary).toBe('Kept answers');
      const searched = await t.get('/bug', { query: { id: String(bugId), include_fields: 'id,status' } });
      expect(searched.body.bugs).toEqual([{ id: bugId, status: expect.any(String) }]);
    }
    const full = await t.get('/bug', { query: { id: String(bugId) }, key: reporter.apiKey });
    const got = await t.get(`/bug/${bugId}`, { key: reporter.apiKey });
    expect(full.body.bugs[0]).toEqual({ ...got.body.bugs[0], update_token: undefined });
  });

  it('tags are the caller\'s own, never kept for someone else', async () => {
    // Personal tags have no route in 5.0's REST API (routes.md); the reporter's tag is written as the web UI would.
    await t.db.transaction(async (tx) => {
      const tag = await tx.repository(Tag).save({ userId: reporter.id, name: 'mine' });
      await tx.repository(BugTag).insert({ bugId, tagId: tag.id });
    });
    const withTags = { include_fields: '_default,tags' };
    expect((await bugFor(t, { key: reporter.apiKey, query: withTags })).tags).toEqual(['mine']);
    expect((await bugFor(t, { key: tracker.apiKey, query: withTags })).tags).toEqual([]);
    expect((await bugFor(t, { key: reporter.apiKey, query: withTags })).tags).toEqual(['mine']);
    expect((await t.get('/bug', { query: { id: String(bugId), ...withTags }, key: tracker.apiKey })).body.bugs[0].tags).toEqual([]);
    expect((await t.get('/bug', { query: { id: String(bugId), ...withTags }, key: reporter.apiKey })).body.bugs[0].tags).toEqual(['mine']);
  });

  it('the update token is the caller\'s, and only logged-in callers get one', async () => {
    const mine = (await bugFor(t, { key: reporter.apiKey })).update_token;
    const theirs = (await bugFor(t, { key: tracker.apiKey })).update_token;
    expect(mine).toEqual(expect.any(String));
    expect(theirs).toEqual(expect.any(String));
    expect(mine).not.toBe(theirs);
    expect(await bugFor(t)).not.toHaveProperty('update_token');
  });

  itWhen(needsFastPaths)('an answer with nothing of the caller\'s own is hashed once, then kept whole with its ETag', async () => {
    const path = `/bug/${bugId}`;
    await t.get(path);
    expect(await hashings(() => t.get(path))).toBe(0);
  });

  it('an answer with nothing of the caller\'s own has the same bytes and tag each time, each output format the tag of its own bytes', async () => {
    const path = `/bug/${bugId}`;
    const first = await t.get(path);
    const second = await t.get(path);
    expect({ text: second.text, etag: second.headers.get('etag') }).toEqual({ text: first.text, etag: first.headers.get('etag') });
    expect(second.headers.get('etag')).toBe(etagOf(second.text, 'application/json; charset=utf-8'));
    expect((await t.get(path, { headers: { 'if-none-match': second.headers.get('etag')! } })).status).toBe(304);
    for (const [options, type] of [
      [{ query: { callback: 'cb' } }, 'text/javascript; charset=utf-8'],
      [{ headers: { accept: 'text/html' } }, 'text/html; charset=utf-8'],
      [{ headers: { accept: 'application/javascript' } }, 'application/javascript; charset=utf-8'],
    ] as const) {
      const res = await t.get(path, options);
      expect(res.headers.get('etag')).toBe(etagOf(res.text, type));
      // HEAD carries GET's headers: the tag of this representation, not the kept JSON's.
      const query = 'query' in options ? `?${new URLSearchParams(options.query).toString()}` : '';
      const head = await fetch(`${t.baseUrl}/rest${path}${query}`, { method: 'HEAD', headers: 'headers' in options ? options.headers : {} });
      expect(head.headers.get('etag')).toBe(res.headers.get('etag'));
    }
    // Tags asked for are the caller's own (an empty list for anonymous callers): not kept whole.
    const withTags = await t.get(path, { query: { include_fields: 'id,tags' } });
    expect(withTags.body.bugs).toEqual([{ id: bugId, tags: [] }]);
    expect(withTags.headers.get('etag')).not.toBe(second.headers.get('etag'));
    expect((await t.get(path, { key: reporter.apiKey })).headers.get('etag')).not.toBe(second.headers.get('etag'));
  });

  it('an answer with the caller\'s own fields, or a page of bugs, is tagged by what it is made of: the same bytes the same tag (304), other bytes another', async () => {
    const path = `/bug/${bugId}`;
    // Tags, not the update_token, make these the caller's own: their bytes do not move with the clock.
    const own = { include_fields: 'id,summary,tags' };
    const mine = await t.get(path, { key: reporter.apiKey, query: own });
    const again = await t.get(path, { key: reporter.apiKey, query: own });
    expect(mine.body.bugs).toEqual([{ id: bugId, summary: 'Kept answers', tags: ['mine'] }]);
    expect({ text: again.text, etag: again.headers.get('etag') }).toEqual({ text: mine.text, etag: mine.headers.get('etag') });
    expect((await t.get(path, { key: reporter.apiKey, query: own, headers: { 'if-none-match': mine.headers.get('etag')! } })).status).toBe(304);
    // The other instance on the same database tags the same bytes alike; a change there moves this one's tag.
    const elsewhere = await other.get(path, { key: reporter.apiKey, query: own });
    expect({ text: elsewhere.text, etag: elsewhere.headers.get('etag') }).toEqual({ text: mine.text, etag: mine.headers.get('etag') });
    const theirs = await t.get(path, { key: tracker.apiKey, query: own });
    expect(theirs.body.bugs).toEqual([{ id: bugId, summary: 'Kept answers', tags: [] }]);
    expect(theirs.headers.get('etag')).not.toBe(mine.headers.get('etag'));
    // The same bytes through the search route: a tag of its own (the shape is an input), stable, 304 on a match.
    const page = { id: String(bugId), include_fields: 'id,summary' };
    const searched = await t.get('/bug', { key: reporter.apiKey, query: page });
    expect((await t.get('/bug', { key: reporter.apiKey, query: page })).headers.get('etag')).toBe(searched.headers.get('etag'));
    expect((await t.get('/bug', { key: reporter.apiKey, query: page, headers: { 'if-none-match': searched.headers.get('etag')! } })).status).toBe(304);
    // Another URL answering the same bytes: the same tag.
    expect((await t.get('/bug', { key: reporter.apiKey, query: { ...page, limit: '1' } })).headers.get('etag')).toBe(searched.headers.get('etag'));
    // A change to the bug (through the other instance) changes every tag that covered it.
    expect((await other.put(path, { summary: 'Kept answers, renamed' }, admin)).status).toBe(200);
    try {
      const renamed = await t.get(path, { key: reporter.apiKey, query: own });
      expect(renamed.body.bugs[0].summary).toBe('Kept answers, renamed');
      expect(renamed.headers.get('etag')).not.toBe(mine.headers.get('etag'));
      expect((await t.get(path, { key: reporter.apiKey, query: own, headers: { 'if-none-match': mine.headers.get('etag')! } })).status).toBe(200);
      expect((await t.get('/bug', { key: reporter.apiKey, query: page })).headers.get('etag')).not.toBe(searched.headers.get('etag'));
    } finally {
      await t.put(path, { summary: 'Kept answers' }, admin);
    }
  });

  it('a change through another instance on the same database shows at once in the kept answer', async () => {
    expect((await bugFor(t)).summary).toBe('Kept answers');
    expect((await bugFor(other)).summary).toBe('Kept answers');
    expect((await other.put(`/bug/${bugId}`, { summary: 'Changed elsewhere' }, admin)).status).toBe(200);
    expect((await bugFor(t)).summary).toBe('Changed elsewhere');
    expect((await t.get('/bug', { query: { id: String(bugId), include_fields: 'summary' } })).body.bugs).toEqual([{ summary: 'Changed elsewhere' }]);
  });

  it('a renamed user shows at once in a kept answer of the other instance (the settings mark)', async () => {
    expect((await bugFor(t, { key: tracker.apiKey })).cc_detail[0].real_name).toBe('Rep Orter');
    expect((await other.put(`/user/${reporter.login}`, { full_name: 'Renamed' }, admin)).status).toBe(200);
    expect((await bugFor(t, { key: tracker.apiKey })).cc_detail[0].real_name).toBe('Renamed');
  });

  it('changes of the bug through the other instance within one second show one after the other (its revision)', async () => {
    // The test clock stands still: last_change_time stays the same second for all of these.
    for (const whiteboard of ['first', 'second', 'third']) {
      expect((await other.put(`/bug/${bugId}`, { whiteboard }, admin)).status).toBe(200);
      expect((await bugFor(t)).whiteboard).toBe(whiteboard);
      expect((await bugFor(t)).whiteboard).toBe(whiteboard);
    }
  });

  it('a dependency filed on another bug through the other instance shows in the kept bug\'s blocks at once', async () => {
    expect((await bugFor(t)).blocks).toEqual([]);
    const blocked = (await other.post('/bug', {
      product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Depends on the kept bug', description: 'd', depends_on: [bugId],
    }, admin)).body.id as number;
    expect((await bugFor(t)).blocks).toEqual([blocked]);
    expect((await other.put(`/bug/${blocked}`, { depends_on: { remove: [bugId] } }, admin)).status).toBe(200);
    expect((await bugFor(t)).blocks).toEqual([]);
  });

  it('a bug made private through the other instance is gone from the kept answers of outsiders', async () => {
    expect((await bugFor(t)).id).toBe(bugId);
    expect((await other.put(`/bug/${bugId}`, { groups: { add: ['kept-team'] } }, admin)).status).toBe(200);
    const hidden = await t.get(`/bug/${bugId}`);
    expect(hidden.status).toBe(401);
    expect((await t.get('/bug', { query: { id: String(bugId) } })).body.bugs).toEqual([]);
    expect((await bugFor(t, { key: tracker.apiKey })).id).toBe(bugId);
  });

  describe('the stamps read with the credential (BugStampsCompanion): one statement, never for another caller', () => {
    let outsider: { id: number; login: string; apiKey: string };
    let publicBug: number;
    let teamBug: number;

    beforeAll(async () => {
      outsider = await t.createUser('kept-answers-outsider@example.com');
      publicBug = await file('Companion public');
      teamBug = await file('Companion team', ['kept-team']);
    });

    itWhen(needsFastPaths)('a warm Get Bug of a kept bug by API key costs one statement (counts and records statements)', async () => {
      await bugFor(t, { key: tracker.apiKey });
      const read = () => t.get(`/bug/${publicBug}`, { key: tracker.apiKey });
      const counts: number[] = [];
      // The mail worker polls in the background: the fewest of a few runs is the request's own count.
      for (let run = 0; run < 3; run++) counts.push(await countQueries(read));
      expect(Math.min(...counts)).toBe(1);
      expectSqlSnapshot('bug/sql/get-bug', 'A warm Get Bug by API key of a kept bug in no group', await recordSql(read));
    });

    itWhen(needsFastPaths)('a warm anonymous Get Bug of a kept bug (records statements)', async () => {
      const read = () => t.get(`/bug/${publicBug}`);
      expect((await read()).body.bugs[0].id).toBe(publicBug);
      expectSqlSnapshot('bug/sql/get-bug-anonymous', 'A warm anonymous Get Bug of a kept bug in no group', await recordSql(read));
    });

    it('a membership granted and taken away through the other instance counts on the next request with the same key', async () => {
      const read = async () => (await t.get(`/bug/${teamBug}`, { key: outsider.apiKey })).body;
      expect((await read()).code).toBe(102);
      expect((await read()).code).toBe(102);
      await changeGroups(other, outsider.id, { add: ['kept-team'] });
      expect((await read()).bugs?.[0]?.id).toBe(teamBug);
      expect((await read()).bugs?.[0]?.id).toBe(teamBug);
      await changeGroups(other, outsider.id, { remove: ['kept-team'] });
      expect((await read()).code).toBe(102);
    });

    it('a caller taken off the cc list through the other instance loses sight at once (remembered visibility goes with the bug\'s version)', async () => {
      const ccBug = await file('Companion cc', ['kept-team']);
      const read = async () => (await t.get(`/bug/${ccBug}`, { key: outsider.apiKey })).body;
      expect((await other.put(`/bug/${ccBug}`, { cc: { add: [outsider.login] } }, admin)).status).toBe(200);
      for (let run = 0; run < 3; run++) expect((await read()).bugs?.[0]?.id).toBe(ccBug);
      expect((await other.put(`/bug/${ccBug}`, { cc: { remove: [outsider.login] } }, admin)).status).toBe(200);
      expect((await read()).code).toBe(102);
      expect((await read()).code).toBe(102);
    });

    it('a key revoked through the other instance is refused at once, also for a kept bug', async () => {
      const created = await t.post('/api_key', { description: 'short-lived' }, { key: outsider.apiKey });
      const key = created.body.api_key as string;
      for (let run = 0; run < 2; run++) expect((await t.get(`/bug/${publicBug}`, { key })).body.bugs[0].id).toBe(publicBug);
      expect((await other.put(`/api_key/${created.body.id}`, { revoked: true }, { key: outsider.apiKey })).status).toBe(200);
      const refused = await t.get(`/bug/${publicBug}`, { key });
      expect({ error: refused.body.error, code: refused.body.code, message: refused.body.message }).toMatchObject({ error: true, code: 306, message: expect.stringMatching(/revoked/) });
    });

    it('a user disabled through the other instance is refused at once, though their key has a warm guess', async () => {
      const user = await t.createUser('kept-answers-disabled@example.com');
      for (let run = 0; run < 2; run++) expect((await t.get(`/bug/${publicBug}`, { key: user.apiKey })).body.bugs[0].id).toBe(publicBug);
      expect((await other.put(`/user/${user.login}`, { login_denied_text: 'Gone' }, admin)).status).toBe(200);
      const refused = await t.get(`/bug/${publicBug}`, { key: user.apiKey });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: 301 });
    });

    /** A Get Bug of the public bug by a login token of a new user, read once. */
    const readByToken = async (login: string) => {
      const user = await t.createUser(login, { password: 'token-password-1' });
      const { token } = (await t.get('/login', { query: { login: user.login, password: 'token-password-1' } })).body as { token: string };
      const read = () => t.get(`/bug/${publicBug}`, { query: { Bugzilla_token: token } });
      expect((await read()).body.bugs[0].id).toBe(publicBug);
      return { token, read };
    };

    itWhen(needsFastPaths)('a warm Get Bug by login token costs one statement (counts statements)', async () => {
      const { read } = await readByToken('kept-answers-token-counted@example.com');
      const counts: number[] = [];
      for (let run = 0; run < 3; run++) counts.push(await countQueries(read));
      expect(Math.min(...counts)).toBe(1);
    });

    it('a login token logged out through the other instance is refused at once', async () => {
      const { token, read } = await readByToken('kept-answers-token@example.com');
      expect((await read()).body.bugs[0].id).toBe(publicBug);
      expect((await other.get('/logout', { query: { Bugzilla_token: token } })).status).toBe(200);
      const refused = await read();
      expect({ error: refused.body.error, code: refused.body.code }).toEqual({ error: true, code: 32000 });
    });

    it('an anonymous Get Bug follows a bug made private through the other instance at once', async () => {
      const bug = await file('Companion anonymous');
      expect((await t.get(`/bug/${bug}`)).body.bugs[0].id).toBe(bug);
      expect((await t.get(`/bug/${bug}`)).body.bugs[0].id).toBe(bug);
      expect((await other.put(`/bug/${bug}`, { groups: { add: ['kept-team'] } }, admin)).status).toBe(200);
      expect((await t.get(`/bug/${bug}`)).body.code).toBe(102);
    });
  });
  describeWhen(needsFastPaths)('a warm Get Bug is answered by the request hook (KeptAnswer), exactly as its handler answers it', () => {
    let answers: jest.SpiedFunction<BugGetAnswer['answer']>;
    let bug: number;
    let teamBug: number;
    beforeAll(async () => {
      bug = await file('Answered by the hook');
      teamBug = await file('Answered by the hook, for the team', ['kept-team']);
    });
    beforeEach(() => {
      answers = jest.spyOn(t.app.get(BugGetAnswer), 'answer');
    });
    afterEach(() => answers.mockRestore());

    /** The same request by a caller new to the instance (no guess: the handler answers) and again (the hook). */
    const coldThenWarm = async (login: string, path: string, options: { query?: Record<string, string>; headers?: Record<string, string> } = {}) => {
      const user = await t.createUser(login);
      const read = () => t.get(path, { ...options, key: user.apiKey });
      // Both within one second of the clock: update_token carries the request's second.
      const { cold, warm } = await t.clock.stopped(async () => {
        answers.mockClear();
        const first = await read();
        expect(answers).not.toHaveBeenCalled();
        const second = await read();
        expect(answers).toHaveBeenCalledTimes(1);
        return { cold: first, warm: second };
      });
      const headers = (res: typeof cold) => ['content-type', 'etag', 'vary', 'access-control-allow-origin'].map((name) => res.headers.get(name));
      expect({ status: warm.status, text: warm.text, headers: headers(warm) }).toEqual({ status: cold.status, text: cold.text, headers: headers(cold) });
      return warm;
    };

    it('the same bytes, status and headers (ETag included) as the handler, for JSON, JSONP and HTML', async () => {
      expect((await coldThenWarm('kept-hook-json@example.com', `/bug/${bug}`)).body.bugs[0].id).toBe(bug);
      expect((await coldThenWarm('kept-hook-jsonp@example.com', `/bug/${bug}`, { query: { callback: 'show' } })).text).toMatch(/^\/\*\*\/show\(/);
      const html = await coldThenWarm('kept-hook-html@example.com', `/bug/${bug}`, { headers: { accept: 'text/html' } });
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });

    it('with ids, a field selection and permissive faults, as the handler', async () => {
      const warm = await coldThenWarm('kept-hook-ids@example.com', `/bug/${bug}`, { query: { ids: '999999', permissive: '1', include_fields: 'id,summary' } });
      expect(warm.body).toEqual({ faults: [expect.objectContaining({ id: 999999, faultCode: 101 })], bugs: [{ id: bug, summary: 'Answered by the hook' }] });
    });

    it('errors with the handler\'s status and body: a missing bug (101), a bug the caller may not see (102)', async () => {
      const missing = await coldThenWarm('kept-hook-missing@example.com', `/bug/${bug}`, { query: { ids: '999999' } });
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 101 });
      const hidden = await coldThenWarm('kept-hook-hidden@example.com', `/bug/${teamBug}`);
      expect({ status: hidden.status, code: hidden.body.code }).toEqual({ status: 401, code: 102 });
    });

    it('the route\'s access rule applies in the hook too: with requirelogin on, a warm anonymous Get Bug is refused', async () => {
      await t.setParameters({ requirelogin: '1' });
      try {
        for (let run = 0; run < 3; run++) expect((await t.get(`/bug/${bug}`)).body.code).toBe(410);
        expect(answers).not.toHaveBeenCalled();
      } finally {
        await t.setParameters({ requirelogin: '0' });
      }
    });
  });

  describe('a bug kept as an update of this instance left it (BugLoaderService.keepWhenCommitted)', () => {
    let keptBug: number;
    let watcher: { id: number; login: string; apiKey: string };
    const withoutToken = (text: string) => text.replace(/"update_token":"[^"]*"/, '');
    const answersAsFresh = async (key?: string) => {
      const options = key ? { key } : {};
      const here = await t.get(`/bug/${keptBug}`, options);
      expect(here.status).toBe(200);
      // The other instance read the bug from the database at this version (or kept what it read so).
      expect(withoutToken(here.text)).toBe(withoutToken((await other.get(`/bug/${keptBug}`, options)).text));
    };

    beforeAll(async () => {
      watcher = await t.createUser('kept-answers-watcher@example.com', { realName: 'Watch Er' });
      keptBug = await file('Kept as updated');
    });

    it('answers what a fresh read answers, after an update of the columns, people, cc, time and a comment', async () => {
      const res = await t.put(`/bug/${keptBug}`, {
        status: 'IN_PROGRESS', priority: 'High', whiteboard: 'kept', assigned_to: tracker.login, cc: { add: [watcher.login, reporter.login] },
        deadline: '2031-02-03', estimated_time: 5, work_time: 1.5, comment: { body: 'followed' },
      }, admin);
      expect(res.status).toBe(200);
      await answersAsFresh(tracker.apiKey);
      await answersAsFresh(watcher.apiKey);
      await answersAsFresh();
    });

    itWhen(needsFastPaths)('after such an update, loads nothing for the bug: a Get Bug costs the key\'s statement alone (counts statements)', async () => {
      expect((await t.put(`/bug/${keptBug}`, { whiteboard: 'kept again', comment: { body: 'followed again' } }, admin)).status).toBe(200);
      const counts: number[] = [];
      // The mail worker polls in the background: the fewest of a few runs is the request's own count.
      for (let run = 0; run < 3; run++) counts.push(await countQueries(() => t.get(`/bug/${keptBug}`, { key: tracker.apiKey })));
      expect(Math.min(...counts)).toBe(1);
    });

    it('reads the bug again under the lock when another instance changed it in between', async () => {
      expect((await t.put(`/bug/${keptBug}`, { whiteboard: 'here' }, admin)).status).toBe(200);
      expect((await other.put(`/bug/${keptBug}`, { cc: { remove: [watcher.login] }, priority: 'Low' }, admin)).status).toBe(200);
      const res = await t.put(`/bug/${keptBug}`, { cc: { add: [watcher.login] }, priority: 'Highest' }, admin);
      expect(res.body.bugs[0].changes).toEqual({ cc: { removed: '', added: watcher.login }, priority: { removed: 'Low', added: 'Highest' } });
      await answersAsFresh(tracker.apiKey);
    });

    itWhen(needsFastPaths)('writes through both instances in turn: once an update here found the bug moved elsewhere, the next reads the state with its lock (records statements)', async () => {
      const checking = withoutKeptWriteChecks(t);
      try {
        const put = (app: TestApp, whiteboard: string) => recordSql(async () => expect((await app.put(`/bug/${keptBug}`, { whiteboard }, admin)).status).toBe(200));
        await put(t, 'here 1');
        await put(other, 'there 1');
        // Hoped for what it kept, in vain: on MySQL the state costs a round trip more. (The caller is presumed: the
        // first round trip is the transaction's.)
        const missed = await put(t, 'here 2');
        await put(other, 'there 2');
        const readWithLock = await put(t, 'here 3');
        // Nobody wrote in between: the stamp matched what it kept, so the next update hopes again.
        await put(t, 'here 4');
        const hoped = await put(t, 'here 5');
        expectSqlSnapshot('bug/sql/update-bug-kept-elsewhere', 'A one-bug Update Bug (whiteboard) of a kept bug that another instance writes too', {
          'the bug moved elsewhere since this instance kept it: hoped in vain, the state read after the stamp': missed,
          'the next update after another write elsewhere: the state read with the lock': readWithLock,
          'nobody wrote in between: hoped again, and rightly': hoped,
        });
        if (t.db.dialect === 'mysql') expect([missed, readWithLock, hoped].map((sent) => sent.length)).toEqual([3, 2, 2]);
      } finally {
        checking.restore();
      }
    });

    it('a flag rewritten with no change recorded (its requestee named in another case) keeps nothing (followsWrites)', async () => {
      await addFlagType(t, 'kept_review');
      expect((await t.put(`/bug/${keptBug}`, { flags: [{ name: 'kept_review', status: '?', requestee: watcher.login }] }, admin)).status).toBe(200);
      const [flag] = (await t.get(`/bug/${keptBug}`, admin)).body.bugs[0].flags;
      t.clock.advance(60);
      const res = await t.put(`/bug/${keptBug}`, { flags: [{ id: flag.id, status: '?', requestee: watcher.login.toUpperCase() }], priority: 'Lowest' }, admin);
      expect(res.body.bugs[0].changes).toEqual({ priority: { removed: 'Highest', added: 'Lowest' } });
      await answersAsFresh(tracker.apiKey);
    });

    it('after a change it does not follow (an alias; a duplicate filed against it), the bug is read from the database', async () => {
      expect((await t.put(`/bug/${keptBug}`, { alias: { add: ['kept-after-alias'] }, whiteboard: 'alias' }, admin)).status).toBe(200);
      await answersAsFresh(tracker.apiKey);
      const dupe = await file('A duplicate of the kept bug');
      expect((await t.put(`/bug/${dupe}`, { status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: keptBug }, admin)).status).toBe(200);
      await answersAsFresh(tracker.apiKey);
    });
  });

  itWhen(needsFastPaths)('Get Version, whose answer needs no companion read, is answered by the hook as its handler answers it', async () => {
    const answers = jest.spyOn(t.app.get(VersionAnswer), 'answer');
    try {
      const res = await t.get('/version');
      expect(answers).toHaveBeenCalledTimes(1);
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify(t.app.get(InfoController).version()));
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect((await t.get('/version', { headers: { 'if-none-match': res.headers.get('etag')! } })).status).toBe(304);
      expect((await t.get('/version', { query: { callback: 'cb' } })).text).toBe(`/**/cb(${res.text})`);
      // Version reads no API key (5.0.6): a bad one is answered here; a token naming nobody is refused as the guard refuses it.
      answers.mockClear();
      expect((await t.get('/version', { query: { api_key: 'no-such-key-no-such-key-0000' } })).text).toBe(res.text);
      expect(answers).toHaveBeenCalledTimes(1);
      answers.mockClear();
      const refused = await t.get('/version', { query: { token: '1-no-such-token' } });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 32000 });
      expect(answers).not.toHaveBeenCalled();
      // requirelogin leaves Get Version open (5.0's login-exempt methods), in the hook as in the guard.
      await t.setParameters({ requirelogin: '1' });
      try {
        expect((await t.get('/version')).text).toBe(res.text);
        expect((await t.get('/version', admin)).text).toBe(res.text);
        expect(answers).toHaveBeenCalledTimes(2);
      } finally {
        await t.setParameters({ requirelogin: '0' });
      }
    } finally {
      answers.mockRestore();
    }
  });
});
