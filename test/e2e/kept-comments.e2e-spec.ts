import { jest } from '@jest/globals';
import { ADMIN_API_KEY, countQueries, startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { createBugGroup } from '../support/catalogue-fixtures.js';
import { fileBug } from './bug-fixtures.js';
import { hashings } from '../support/hashings.js';
import { describeWhen, itWhen, needsFastPaths } from '../support/conditions.js';
import { etagOf } from '../../src/common/http/output-format.js';
import { CommentsAnswer } from '../../src/comment/store/comment-get.answer.js';

type User = { id: number; login: string; apiKey: string };

/**
 * Get Comments of one bug is kept whole beside the kept bug, per field selection, caller class (insider, whole
 * addresses) and new_since (CommentViewService). A kept answer must never differ from a freshly made one: not for
 * another caller or selection, not after a change through this instance or another one on the same database — a
 * comment, its privacy, its tags, its author's login.
 */
describe('kept Get Comments answers are never another caller\'s, another selection\'s or stale', () => {
  let t: TestApp;
  let other: TestApp;
  let insider: User;
  let outsider: User;
  let bug: number;
  let second: number;
  let privateComment: number;
  let publicComment: number;
  const admin = { key: ADMIN_API_KEY };

  beforeAll(async () => {
    t = await startTestApp();
    other = await startTestApp({}, { sharing: t });
    await createBugGroup(t, 'kept-insiders');
    await t.setParameters({ insidergroup: 'kept-insiders', comment_taggers_group: 'kept-insiders', webservice_email_filter: '1' });
    insider = await t.createUser('kept-insider@example.com', { groups: ['kept-insiders'] });
    outsider = await t.createUser('kept-outsider@example.com');
    bug = await fileBug(t);
    second = await fileBug(t);
    publicComment = (await t.post(`/bug/${bug}/comment`, { comment: 'public words' }, { key: outsider.apiKey })).body.id;
    privateComment = (await t.post(`/bug/${bug}/comment`, { comment: 'insiders only', is_private: true }, { key: insider.apiKey })).body.id;
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const read = async (app: TestApp, key?: string, query: Record<string, string | string[]> = {}): Promise<ApiResponse> => {
    const res = await app.get(`/bug/${bug}/comment`, { ...(key ? { key } : {}), query });
    expect(res.status).toBe(200);
    return res;
  };
  const texts = (res: ApiResponse) => res.body.bugs[String(bug)].comments.map((c: { text: string }) => c.text);

  it('answers the same bytes and ETag twice', async () => {
    const first = await read(t, outsider.apiKey);
    const again = await read(t, outsider.apiKey);
    expect({ text: again.text, etag: again.headers.get('etag') }).toEqual({ text: first.text, etag: first.headers.get('etag') });
    expect(again.headers.get('etag')).toBe(etagOf(again.text, 'application/json; charset=utf-8'));
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  itWhen(needsFastPaths)('the second time from the kept answer: hashed once', async () => {
    await read(t, outsider.apiKey);
    expect(await hashings(() => read(t, outsider.apiKey))).toBe(0);
  });

  it('the kept answer is the one the handler makes for the same bug among others, for each caller class and selection', async () => {
    const cases: Array<[string | undefined, Record<string, string>]> = [
      [undefined, {}], [outsider.apiKey, {}], [insider.apiKey, {}], [insider.apiKey, { include_fields: 'id,text,tags' }],
      [outsider.apiKey, { exclude_fields: 'text' }], [undefined, { include_fields: 'creator' }],
    ];
    for (const [key, query] of cases) {
      await read(t, key, query);
      const kept = (await read(t, key, query)).body;
      const fresh = (await t.get(`/bug/${bug}/comment`, { ...(key ? { key } : {}), query: { ...query, ids: String(second) } })).body;
      expect(kept).toEqual({ bugs: { [bug]: fresh.bugs[bug] }, comments: {} });
    }
  });

  it('private comments for insiders only, filtered addresses for anonymous callers, in any order', async () => {
    for (let round = 0; round < 2; round++) {
      expect(texts(await read(t, insider.apiKey))).toContain('insiders only');
      expect(texts(await read(t, outsider.apiKey))).not.toContain('insiders only');
      expect(texts(await read(t))).not.toContain('insiders only');
      const creators = (res: ApiResponse) => res.body.bugs[String(bug)].comments.map((c: { creator: string }) => c.creator);
      expect(creators(await read(t, outsider.apiKey))).toContain(outsider.login);
      expect(creators(await read(t))).toContain('kept-outsider');
      expect(creators(await read(t))).not.toContain(outsider.login);
    }
  });

  it('each field selection and each new_since gets its own answer', async () => {
    for (let round = 0; round < 2; round++) {
      expect(Object.keys((await read(t, outsider.apiKey, { include_fields: 'id,text' })).body.bugs[bug].comments[0])).toEqual(['id', 'text']);
      expect((await read(t, outsider.apiKey, { exclude_fields: 'text' })).body.bugs[bug].comments[0]).not.toHaveProperty('text');
      expect((await read(t, outsider.apiKey)).body.bugs[bug].comments[0]).toHaveProperty('text');
      expect(texts(await read(t, outsider.apiKey, { new_since: '2999-01-01T00:00:00Z' }))).toEqual([]);
      expect(texts(await read(t, outsider.apiKey, { new_since: '2000-01-01T00:00:00Z' }))).toContain('public words');
    }
  });

  itWhen(needsFastPaths)('a warm read of the kept answer costs the key\'s statement alone (counts statements)', async () => {
    await read(t, outsider.apiKey);
    expect(await countQueries(() => read(t, outsider.apiKey))).toBe(1);
  });

  it('a comment added through the other instance shows at once', async () => {
    expect(texts(await read(t, outsider.apiKey))).not.toContain('from elsewhere');
    expect((await other.post(`/bug/${bug}/comment`, { comment: 'from elsewhere' }, { key: outsider.apiKey })).status).toBe(200);
    expect(texts(await read(t, outsider.apiKey))).toContain('from elsewhere');
  });

  it('a comment made private through the other instance is gone at once from outsiders\' kept answers, and back when public again', async () => {
    expect(texts(await read(t, outsider.apiKey))).toContain('public words');
    expect((await other.put(`/bug/${bug}`, { comment_is_private: { [publicComment]: true } }, { key: insider.apiKey })).status).toBe(200);
    expect(texts(await read(t, outsider.apiKey))).not.toContain('public words');
    expect(texts(await read(t, insider.apiKey))).toContain('public words');
    expect((await other.put(`/bug/${bug}`, { comment_is_private: { [publicComment]: false } }, { key: insider.apiKey })).status).toBe(200);
    expect(texts(await read(t, outsider.apiKey))).toContain('public words');
  });

  it('a tag added and removed through the other instance shows at once (the bug\'s revision moves, its last_change_time stays)', async () => {
    const tagsOf = async () => (await read(t, insider.apiKey)).body.bugs[bug].comments.find((c: { id: number }) => c.id === privateComment).tags;
    const changed = async () => (await t.get(`/bug/${bug}`, { ...admin, query: { include_fields: 'last_change_time' } })).body.bugs[0].last_change_time;
    expect(await tagsOf()).toEqual([]);
    const before = await changed();
    expect((await other.put(`/bug/comment/${privateComment}/tags`, { add: ['kept-tag'] }, { key: insider.apiKey })).status).toBe(200);
    expect(await tagsOf()).toEqual(['kept-tag']);
    expect(await changed()).toBe(before);
    expect((await other.put(`/bug/comment/${privateComment}/tags`, { remove: ['kept-tag'] }, { key: insider.apiKey })).status).toBe(200);
    expect(await tagsOf()).toEqual([]);
  });

  describeWhen(needsFastPaths)('a warm Get Comments is answered by the request hook (KeptAnswer), exactly as its handler answers it', () => {
    let answers: jest.SpiedFunction<CommentsAnswer['answer']>;
    beforeEach(() => {
      answers = jest.spyOn(t.app.get(CommentsAnswer), 'answer');
    });
    afterEach(() => answers.mockRestore());

    /** The same request by a caller new to the instance (no guess: the handler answers) and again (the hook). */
    const coldThenWarm = async (login: string, path: string, options: { query?: Record<string, string>; headers?: Record<string, string> } = {}) => {
      const user = await t.createUser(login);
      answers.mockClear();
      const first = await t.get(path, { ...options, key: user.apiKey });
      expect(answers).not.toHaveBeenCalled();
      const second = await t.get(path, { ...options, key: user.apiKey });
      expect(answers).toHaveBeenCalledTimes(1);
      const headers = (res: ApiResponse) => ['content-type', 'etag', 'vary', 'access-control-allow-origin'].map((name) => res.headers.get(name));
      expect({ status: second.status, text: second.text, headers: headers(second) }).toEqual({ status: first.status, text: first.text, headers: headers(first) });
      return second;
    };

    it('the same bytes, status and headers (ETag included) as the handler, for JSON, JSONP and HTML', async () => {
      expect(texts(await coldThenWarm('kept-comments-json@example.com', `/bug/${bug}/comment`))).toContain('public words');
      expect((await coldThenWarm('kept-comments-jsonp@example.com', `/bug/${bug}/comment`, { query: { callback: 'show' } })).text).toMatch(/^\/\*\*\/show\(/);
      const html = await coldThenWarm('kept-comments-html@example.com', `/bug/${bug}/comment`, { headers: { accept: 'text/html' } });
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });

    it('with ids, a field selection and new_since, as the handler', async () => {
      const warm = await coldThenWarm('kept-comments-ids@example.com', `/bug/${bug}/comment`, { query: { ids: String(second), include_fields: 'id', new_since: '2000-01-01T00:00:00Z' } });
      expect(Object.keys(warm.body.bugs).sort()).toEqual([String(bug), String(second)].sort());
      expect(Object.keys(warm.body.bugs[bug].comments[0])).toEqual(['id']);
    });

    it('errors with the handler\'s status and body: a missing bug (101)', async () => {
      const missing = await coldThenWarm('kept-comments-missing@example.com', `/bug/${bug}/comment`, { query: { ids: '999999' } });
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 101 });
    });
  });

  it('an author\'s new login shows at once in the other instance\'s kept answer (the settings mark)', async () => {
    const creators = async () => (await read(t, insider.apiKey)).body.bugs[bug].comments.map((c: { creator: string }) => c.creator);
    expect(await creators()).toContain(outsider.login);
    expect((await other.put(`/user/${outsider.login}`, { email: 'kept-renamed@example.com' }, admin)).status).toBe(200);
    expect(await creators()).toContain('kept-renamed@example.com');
    expect(await creators()).not.toContain(outsider.login);
  });
});
