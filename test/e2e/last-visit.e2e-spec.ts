import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { expectError, fileBug, letSecondPass, restrictBugs } from './bug-fixtures.js';

type User = { id: number; login: string; apiKey: string };

const API_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('Last visits (GET and POST /rest/bug_user_last_visit/(bug_id))', () => {
  let t: TestApp;
  let reporter: User;
  let stranger: User;
  let ccd: User;
  let first: number;
  let second: number;
  let unvisited: number;
  const firstAlias = named('lv-first');

  beforeAll(async () => {
    t = await startTestApp();
    reporter = await t.createUser(loginNamed('reporter'));
    stranger = await t.createUser(loginNamed('stranger'));
    ccd = await t.createUser(loginNamed('ccd'));
    first = await fileBug(t, { alias: [firstAlias] }, reporter.apiKey);
    second = await fileBug(t, { cc: [ccd.login] }, reporter.apiKey);
    unvisited = await fileBug(t, {}, reporter.apiKey);
  });
  afterAll(() => t.close());

  const visit = (bug: number | string, key?: string, ids?: Array<string | number>) =>
    t.post(`/bug_user_last_visit/${bug}`, {}, { ...(key ? { key } : {}), query: ids ? { ids } : {} });
  const visits = (bug: number | string, key?: string, ids?: Array<string | number>) =>
    t.get(`/bug_user_last_visit/${bug}`, { ...(key ? { key } : {}), query: ids ? { ids } : {} });

  it('records the visit of the path\'s bug and of `ids` (id or alias) with one timestamp, and reads them back', async () => {
    const res = await visit(first, reporter.apiKey, [second, firstAlias]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: first, last_visit_ts: expect.stringMatching(API_TIME) },
      { id: second, last_visit_ts: res.body[0].last_visit_ts },
    ]);
    const read = await visits(first, reporter.apiKey, [second, unvisited]);
    expect(read.status).toBe(200);
    // A bug never visited is left out.
    expect(read.body).toEqual(res.body);

    await letSecondPass(t);
    const later = await visit(second, reporter.apiKey);
    expect(later.body[0].last_visit_ts > res.body[0].last_visit_ts).toBe(true);
    expect((await visits(second, reporter.apiKey)).body).toEqual(later.body);
    // Visits are the caller's own.
    expect((await visits(second, ccd.apiKey)).body).toEqual([]);
  });

  it('recording needs the caller to be involved in the bug (reporter, assignee, QA contact or cc), else 1300', async () => {
    expect((await visit(second, ccd.apiKey)).status).toBe(200);
    expect((await visit(first, ADMIN_API_KEY)).status).toBe(200); // the default assignee
    const res = await visit(first, stranger.apiKey);
    expectError(res, 1300, 400);
    expect(res.body.message).toContain(String(first));
    // All or nothing: the involved bug of the same request is not recorded either.
    expectError(await visit(second, ccd.apiKey, [first]), 1300, 400);
    expect((await visits(first, ccd.apiKey)).body).toEqual([]);
    // Reading needs no involvement.
    expect((await visits(first, stranger.apiKey)).body).toEqual([]);
  });

  it('a hidden bug is 102, an unknown one 101, an unknown alias 100; anonymous callers get 410', async () => {
    const hidden = await fileBug(t, {}, reporter.apiKey);
    await restrictBugs(t, named('lv-secret'), [hidden]);
    expectError(await visit(hidden, stranger.apiKey), 102, 401);
    expectError(await visits(hidden, stranger.apiKey), 102, 401);
    expectError(await visits(first, stranger.apiKey, [hidden]), 102, 401);
    expectError(await visit(999999, reporter.apiKey), 101, 404);
    expectError(await visits(first, reporter.apiKey, ['no-such-alias']), 100, 400);
    expectError(await visit(first), 410, 401);
    expectError(await visits(first), 410, 401);
  });

  it('without a numeric id no route matches (32614), as in 5.0', async () => {
    expectError(await t.get('/bug_user_last_visit', { key: reporter.apiKey }), 32614, 404);
    expectError(await t.post('/bug_user_last_visit', {}, { key: reporter.apiKey }), 32614, 404);
    expectError(await visits(firstAlias, reporter.apiKey), 32614, 404);
  });

  inProcessIt('visits older than last_visit_keep_days are not kept (moves the clock)', async () => {
    await visit(unvisited, reporter.apiKey);
    expect((await visits(unvisited, reporter.apiKey)).body).toHaveLength(1);
    t.clock.advance(11 * 24 * 3600);
    expect((await visits(unvisited, reporter.apiKey)).body).toEqual([]);
    await visit(first, reporter.apiKey);
    expect((await visits(first, reporter.apiKey, [unvisited])).body).toEqual([{ id: first, last_visit_ts: expect.stringMatching(API_TIME) }]);
  });
});
