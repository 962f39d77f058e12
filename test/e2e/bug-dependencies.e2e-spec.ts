import { startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { expectError, fileBug, letSecondPass, restrictBugs } from './bug-fixtures.js';
import { expectUncoded, getBug, historyOf, plainUser, update, updated } from './bug-update-fixtures.js';

describe('Update Bug: dependencies (blocks / depends_on stay mirror images; loops refused)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('depends_on.add shows on the other bug’s blocks, with its own history and last_change_time', async () => {
    const a = await fileBug(t);
    const b = await fileBug(t);
    const before = (await getBug(t, b)).last_change_time;
    await letSecondPass(t);
    const res = updated(await update(t, a, { depends_on: { add: [b] } }));
    expect(res.changes).toEqual({ depends_on: { removed: '', added: String(b) } });
    expect((await getBug(t, a)).depends_on).toEqual([b]);
    const other = await getBug(t, b);
    expect(other.blocks).toEqual([a]);
    expect(other.last_change_time).toBe(res.last_change_time);
    expect(other.last_change_time).not.toBe(before);
    expect(await historyOf(t, b)).toEqual([{ when: res.last_change_time, who: 'admin@example.com', changes: [{ field_name: 'blocks', removed: '', added: String(a) }] }]);
  });

  it('blocks.add and .remove mirror onto depends_on; removing an absent id is a no-op', async () => {
    const a = await fileBug(t);
    const b = await fileBug(t);
    const c = await fileBug(t);
    expect(updated(await update(t, a, { blocks: { add: [c, b] } })).changes).toEqual({ blocks: { removed: '', added: `${b}, ${c}` } });
    expect((await getBug(t, b)).depends_on).toEqual([a]);
    // Another second: within one, the history joins both rows of depends_on into one change (join_activity_entries).
    await letSecondPass(t);
    expect(updated(await update(t, a, { blocks: { remove: [b, 999999] } })).changes).toEqual({ blocks: { removed: String(b), added: '' } });
    expect((await getBug(t, b)).depends_on).toEqual([]);
    expect((await historyOf(t, b)).pop()!.changes).toEqual([{ field_name: 'depends_on', removed: String(a), added: '' }]);
  });

  it('set replaces the list and wins over add/remove; aliases name bugs', async () => {
    const a = await fileBug(t);
    const aliasOfB = named('dep-b');
    const b = await fileBug(t, { alias: [aliasOfB] });
    const c = await fileBug(t);
    await update(t, a, { depends_on: { add: [c] } });
    const res = updated(await update(t, a, { depends_on: { set: [aliasOfB], add: [c] } }));
    expect(res.changes).toEqual({ depends_on: { removed: String(c), added: String(b) } });
    expect((await getBug(t, a)).depends_on).toEqual([b]);
    expect((await getBug(t, c)).blocks).toEqual([]);
  });

  it('a bug cannot depend on or block itself — 116', async () => {
    const a = await fileBug(t);
    expectError(await update(t, a, { depends_on: { add: [a] } }), 116, 400);
    expectError(await update(t, a, { blocks: { add: [a] } }), 116, 400);
  });

  it('a dependency loop is refused — 116 — directly or through other bugs, and nothing is stored', async () => {
    const a = await fileBug(t);
    const b = await fileBug(t);
    const c = await fileBug(t);
    updated(await update(t, a, { depends_on: { add: [b] } }));
    expectError(await update(t, b, { depends_on: { add: [a] } }), 116, 400);
    updated(await update(t, b, { depends_on: { add: [c] } }));
    expectError(await update(t, c, { depends_on: { add: [a] } }), 116, 400);
    expectError(await update(t, a, { blocks: { add: [c] } }), 116, 400);
    expect((await getBug(t, c)).depends_on).toEqual([]);
    expect((await getBug(t, a)).blocks).toEqual([]);
  });

  it('an unknown id is 101, an unknown alias 100, a hidden bug 102', async () => {
    const dev = await t.createUser(loginNamed('dep-dev'));
    const a = await fileBug(t, {}, dev.apiKey);
    const hidden = await fileBug(t);
    await restrictBugs(t, named('dep-secret'), [hidden]);
    expectError(await update(t, a, { depends_on: { add: [999999] } }, dev.apiKey), 101, 404);
    expectError(await update(t, a, { depends_on: { add: ['no-such-bug'] } }, dev.apiKey), 100, 400);
    expectError(await update(t, a, { blocks: { add: [hidden] } }, dev.apiKey), 102, 401);
  });

  it('several bugs may gain the same dependency in one request; each side keeps its history', async () => {
    const a = await fileBug(t);
    const b = await fileBug(t);
    const c = await fileBug(t);
    const res = await update(t, a, { ids: [b], depends_on: { add: [c] } });
    expect(res.status).toBe(200);
    expect((await getBug(t, c)).blocks).toEqual([a, b]);
    // Two rows of blocks in one change set, shown as one change (Bugzilla's join_activity_entries).
    expect((await historyOf(t, c))[0].changes).toEqual([{ field_name: 'blocks', removed: '', added: `${a}, ${b}` }]);
  });

  it('a bug of the request changed only through another one of it reports the update time', async () => {
    const a = await fileBug(t);
    const b = await fileBug(t);
    await update(t, b, { depends_on: { add: [a] } });
    await letSecondPass(t);
    // For a, removing a from its own depends_on is a no-op; for b it removes the dependency, which changes a's blocks.
    const res = await update(t, a, { ids: [b], depends_on: { remove: [a] } });
    expect(res.status).toBe(200);
    const [first, second] = res.body.bugs;
    expect(first).toMatchObject({ id: a, changes: {} });
    expect(second).toMatchObject({ id: b, changes: { depends_on: { removed: String(a), added: '' } } });
    expect(first.last_change_time).toBe(second.last_change_time);
    expect((await getBug(t, a)).last_change_time).toBe(first.last_change_time);
    expect((await historyOf(t, a)).pop()!.changes).toEqual([{ field_name: 'blocks', removed: String(b), added: '' }]);
  });

  it('two concurrent updates that would close a loop between them: one succeeds, the other is 116', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await fileBug(t);
      const b = await fileBug(t);
      const results = await Promise.all([update(t, a, { depends_on: { add: [b] } }), update(t, b, { depends_on: { add: [a] } })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.code).toBe(116);
      const [bugA, bugB] = [await getBug(t, a), await getBug(t, b)];
      expect(bugA.depends_on.length + bugB.depends_on.length).toBe(1);
    }
  });

  it('…nor through a third bug (a → b stored; b → c and c → a at once)', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b, c] = [await fileBug(t), await fileBug(t), await fileBug(t)];
      updated(await update(t, a, { depends_on: { add: [b] } }));
      const results = await Promise.all([update(t, b, { depends_on: { add: [c] } }), update(t, c, { depends_on: { add: [a] } })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.code).toBe(116);
    }
  });

  it('noresolveonopenblockers: FIXED while a dependency is open is still_unresolved_bugs 32000', async () => {
    await t.setParameters({ noresolveonopenblockers: '1' });
    const a = await fileBug(t);
    const b = await fileBug(t);
    await update(t, a, { depends_on: { add: [b] } });
    expectUncoded(await update(t, a, { status: 'RESOLVED', resolution: 'FIXED' }), /1 unresolved dependencies/);
    updated(await update(t, a, { status: 'RESOLVED', resolution: 'WONTFIX' }));
    updated(await update(t, b, { status: 'RESOLVED', resolution: 'FIXED' }));
    updated(await update(t, a, { resolution: 'FIXED' }));
    await t.setParameters({ noresolveonopenblockers: '0' });
  });

  inProcessIt('only those who may edit the field change dependencies — 115 for a stranger (a caller outside editbugs)', async () => {
    const stranger = await plainUser(t, 'dep-stranger@example.com');
    const a = await fileBug(t);
    const b = await fileBug(t);
    expectError(await update(t, a, { depends_on: { add: [b] } }, stranger.apiKey), 115, 401);
  });
});
