import { ADMIN_API_KEY, startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { inProcessDescribe, loginNamed, named } from '../support/in-process.js';
import { inProcess, itWhen, onDialect } from '../support/conditions.js';
import { createBugGroup, expectCodedError, ok } from '../support/catalogue-fixtures.js';
import { fileBug, setProductControl } from './bug-fixtures.js';
import { mirrorOf, Mirror, serviceView, type MirrorUser } from './mirror-fixtures.js';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { BugChange } from '../../src/change-feed/entities/bug-change.entity.js';
import { ChangeFeedService } from '../../src/change-feed/change-feed.service.js';
import { toDbDateTime } from '../../src/common/time/datetime.js';

/**
 * The change feed (issue 44): GET /rest/changes pages, in commit order, the bugs changed since a cursor, as the
 * caller may see them; a mirror that searches once and reads the feed after stays equal to the service's view.
 */
describe('change feed (GET /rest/changes)', () => {
  let t: TestApp;
  let mirror: MirrorUser;
  const admin = { key: ADMIN_API_KEY };
  const hidden = named('feed-hidden');

  beforeAll(async () => {
    t = await startTestApp();
    mirror = await t.createUser(loginNamed('feed-mirror'));
    await createBugGroup(t, hidden);
    // Admin (a member of every group made) may put TestProduct's bugs in it; the mirror's user is no member.
    await setProductControl(t, hidden, { membercontrol: 1, othercontrol: 0 });
  });
  afterAll(() => t.close());

  const changes = (since: string | undefined, options: { key?: string; headers?: Record<string, string>; limit?: number } = {}) =>
    t.get('/changes', { key: options.key ?? mirror.apiKey, headers: options.headers, query: { ...(since === undefined ? {} : { since }), ...(options.limit ? { limit: options.limit } : {}) } });

  /** Reads the feed from `since` to its end, as the mirror's user. */
  async function readAll(since: string): Promise<{ entries: any[]; cursor: string }> {
    const entries: any[] = [];
    let cursor = since;
    for (;;) {
      const page = ok(await changes(cursor, { limit: 50 }));
      entries.push(...page.changes);
      cursor = page.cursor;
      if (!page.more) return { entries, cursor };
    }
  }

  it('names each bug changed since the cursor once, with what changed, in commit order; the last one changed comes last', async () => {
    const start = ok(await changes(undefined));
    expect(start).toEqual({ changes: [], cursor: expect.any(String), more: false });
    const first = await fileBug(t, { summary: 'Feed one' });
    const second = await fileBug(t, { summary: 'Feed two' });
    ok(await t.post(`/bug/${first}/comment`, { comment: 'a comment' }, admin));
    ok(await t.put(`/bug/${second}`, { whiteboard: 'feed', comment: { body: 'and a comment' } }, admin));
    const { entries } = await readAll(start.cursor);
    const ours = entries.filter((e) => e.id === first || e.id === second);
    expect(ours).toEqual([
      { id: first, kinds: ['create', 'comment'] },
      { id: second, kinds: ['create', 'update', 'comment'] },
    ]);
  });

  it('names the bugs a new bug blocks or depends on: their lists changed', async () => {
    const blocked = await fileBug(t, { summary: 'Feed blocked' });
    const { cursor } = await readAll(ok(await changes(undefined)).cursor);
    const blocker = await fileBug(t, { summary: 'Feed blocker', blocks: [blocked] });
    const { entries } = await readAll(cursor);
    expect(entries.filter((e) => e.id === blocked || e.id === blocker)).toEqual([{ id: blocker, kinds: ['create'] }, { id: blocked, kinds: ['update'] }]);
  });

  itWhen(inProcess, onDialect('mysql', 'SQLite has one writer at a time: its change numbers commit in their order'))(
    'hands out a change whose transaction took its number before a later one committed, once it commits (MariaDB)', async () => {
      const late = await fileBug(t, { summary: 'Feed committed late' });
      const { cursor } = await readAll(ok(await changes(undefined)).cursor);
      let numbered!: () => void;
      let release!: () => void;
      const hasNumber = new Promise<void>((resolve) => (numbered = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      // A bug change that took its number and has not committed yet.
      const open = t.db.transaction(async (tx) => {
        await tx.repository(BugChange).insert({ bugId: late, kinds: 'update', changedAt: toDbDateTime(t.clock.now()) });
        numbered();
        await released;
      });
      await hasNumber;
      const early = await fileBug(t, { summary: 'Feed committed early' });
      const before = await readAll(cursor);
      expect(before.entries.filter((e) => e.id === late || e.id === early)).toEqual([{ id: early, kinds: ['create'] }]);
      release();
      await open;
      const after = await readAll(before.cursor);
      expect(after.entries.filter((e) => e.id === late || e.id === early)).toEqual([{ id: late, kinds: ['update'] }]);
    });

  it('answers an unchanged poll 304 to If-None-Match, and the next change 200', async () => {
    let { cursor } = await readAll(ok(await changes(undefined)).cursor);
    // Against a shared instance another file may write between two polls: then poll again from the new cursor.
    let unchanged: ApiResponse | undefined;
    for (let attempt = 0; attempt < 5 && unchanged?.status !== 304; attempt++) {
      const poll = await changes(cursor);
      unchanged = await changes(cursor, { headers: { 'if-none-match': poll.headers.get('etag')! } });
      cursor = ok(poll).cursor;
    }
    expect(unchanged!.status).toBe(304);
    expect(unchanged!.text).toBe('');
    const etag = (await changes(cursor)).headers.get('etag')!;
    const id = await fileBug(t, { summary: 'Feed after a 304' });
    const next = await changes(cursor, { headers: { 'if-none-match': etag } });
    expect(ok(next).changes).toContainEqual({ id, kinds: ['create'] });
  });

  it('says gone for a bug that left the caller\'s view, and names it again when it comes back', async () => {
    const id = await fileBug(t, { summary: 'Feed hidden' });
    const { cursor } = await readAll(ok(await changes(undefined)).cursor);
    ok(await t.put(`/bug/${id}`, { groups: { add: [hidden] } }, admin));
    const away = await readAll(cursor);
    expect(away.entries.filter((e) => e.id === id)).toEqual([{ id, gone: true }]);
    // Get Bug agrees: the mirror's user may not see it.
    expectCodedError(await t.get(`/bug/${id}`, { key: mirror.apiKey }), 102, 401);
    ok(await t.put(`/bug/${id}`, { groups: { remove: [hidden] } }, admin));
    const back = await readAll(away.cursor);
    expect(back.entries.filter((e) => e.id === id)).toEqual([{ id, kinds: ['update', 'access'] }]);
  });

  it('refuses an altered or malformed cursor (400, cursor_invalid) and one given to another user (410, resync)', async () => {
    const { cursor } = ok(await changes(undefined));
    const [body, signature] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const altered = Buffer.from(JSON.stringify({ ...decoded, h: decoded.h + 1000 })).toString('base64url');
    expectCodedError(await changes(`${altered}.${signature}`), 10600, 400);
    expectCodedError(await changes('not-a-cursor'), 10600, 400);
    expectCodedError(await changes(cursor, { key: ADMIN_API_KEY }), 10602, 410);
  });

  it('bounds a page: limit, and at most 1000', async () => {
    const { cursor } = ok(await changes(undefined));
    await fileBug(t, { summary: 'Feed page 1' });
    await fileBug(t, { summary: 'Feed page 2' });
    const page = ok(await changes(cursor, { limit: 1 }));
    expect(page.changes).toHaveLength(1);
    expect(page.more).toBe(true);
  });
});

inProcessDescribe('a mirror against two instances written to concurrently (issue 44)', () => {
  let t: TestApp;
  let other: TestApp;
  let mirrorUser: MirrorUser;
  const admin = { key: ADMIN_API_KEY };

  beforeAll(async () => {
    t = await startTestApp();
    other = await startTestApp({}, { sharing: t });
    mirrorUser = await t.createUser('feed-mirror@example.com');
    await createBugGroup(t, 'feed-away');
    await setProductControl(t, 'feed-away', { membercontrol: 1, othercontrol: 0 });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('ends equal to the service\'s view, with no bug missed or twice: cursor search once, then the feed', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await fileBug(t, { summary: `Mirror seed ${i}` }));
    const instances = [t, other];
    const until = Date.now() + 4000;
    const failures: string[] = [];
    const written = { creates: 0, hides: 0 };
    const check = (label: string, res: ApiResponse) => {
      if (res.status !== 200) failures.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
      return res;
    };
    const writer = async (n: number) => {
      for (let round = 0; Date.now() < until; round++) {
        const on = instances[(n + round) % 2];
        const id = ids[(n * 5 + round * 7) % ids.length];
        switch (round % 5) {
          case 0: {
            const res = check('create', await on.post('/bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: `Mirror new ${n}-${round}` }, admin));
            if (res.status === 200) ids.push(res.body.id);
            written.creates++;
            break;
          }
          case 1: check('update', await on.put(`/bug/${id}`, { whiteboard: `w${n}-${round}` }, admin)); break;
          case 2: check('comment', await on.post(`/bug/${id}/comment`, { comment: `c${n}-${round}` }, admin)); break;
          case 3:
            check('hide', await on.put(`/bug/${id}`, { groups: { add: ['feed-away'] } }, admin));
            written.hides++;
            break;
          default: check('show', await on.put(`/bug/${id}`, { groups: { remove: ['feed-away'] } }, admin)); break;
        }
      }
    };
    const mirror: Mirror = await mirrorOf(instances, mirrorUser, 'TestProduct');
    const follow = async () => {
      for (let round = 0; Date.now() < until; round++) await mirror.sync(instances[round % 2]);
    };
    await Promise.all([writer(0), writer(1), writer(2), follow()]);
    expect(failures.slice(0, 5)).toEqual([]);
    await mirror.sync(other);
    await mirror.sync(t);
    expect(written.creates).toBeGreaterThan(2);
    expect(written.hides).toBeGreaterThan(2);
    expect(mirror.goneSeen).toBeGreaterThan(0);
    expect(mirror.snapshot()).toEqual(await serviceView(t, mirrorUser, 'TestProduct'));
  }, 60_000);
});

// The buckets in the database, and in Redis (TEST_REDIS_URL, as test/e2e/rate-limit.e2e-spec.ts).
const REDIS_PREFIX = `tracker-feed-test-${randomBytes(6).toString('hex')}:`;
const BUCKET_STORES: Array<[string, Record<string, string>]> = [
  ['the database', {}],
  ['Redis', { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', TRACKER_REDIS_PREFIX: REDIS_PREFIX }],
];

/** Deletes this file's buckets from Redis. */
async function forgetBuckets(url: string): Promise<void> {
  const redis = new Redis(url);
  const keys = await redis.keys(`${REDIS_PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
}

for (const [store, env] of BUCKET_STORES) {
  inProcessDescribe(`an unchanged poll does not count against the rate limit (TRACKER_RATE_LIMIT_READ=3, buckets in ${store})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ TRACKER_RATE_LIMIT_READ: '3', ...env });
    });
    afterAll(async () => {
      await t.close();
      if (env.REDIS_URL) await forgetBuckets(env.REDIS_URL);
    });

    it('answers many 304s in a row, and the bucket still holds the tokens it had; a changed poll takes one', async () => {
      const admin = { key: ADMIN_API_KEY };
      const { cursor } = ok(await t.get('/changes', admin));
      const poll = await t.get('/changes', { ...admin, query: { since: cursor } });
      const etag = poll.headers.get('etag')!;
      const remaining = Number(poll.headers.get('x-ratelimit-remaining'));
      for (let i = 0; i < 6; i++) {
        const unchanged = await t.get('/changes', { ...admin, query: { since: cursor }, headers: { 'if-none-match': etag } });
        expect({ status: unchanged.status, limit: unchanged.headers.get('x-ratelimit-limit') }).toEqual({ status: 304, limit: '3' });
      }
      // The 304s gave their tokens back: the bucket is as the last 200 left it, or fuller (it refills with time).
      const after = await t.get('/changes', { ...admin, query: { since: cursor } });
      expect(after.status).toBe(200);
      expect(Number(after.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(remaining - 1);
    });
  });
}

inProcessDescribe('a cursor older than the retained window (TRACKER_CHANGE_FEED_RETENTION_DAYS=1)', () => {
  let t: TestApp;
  const admin = { key: ADMIN_API_KEY };
  beforeAll(async () => {
    t = await startTestApp({ TRACKER_CHANGE_FEED_RETENTION_DAYS: '1' });
  });
  afterAll(() => t.close());

  it('answers 410 change_cursor_expired once changes after it were pruned; a cursor inside the window reads on', async () => {
    const { cursor: start } = ok(await t.get('/changes', admin));
    await fileBug(t, { summary: 'Retained one' });
    const { cursor: old } = ok(await t.get('/changes', { ...admin, query: { since: start } }));
    const missed = await fileBug(t, { summary: 'Pruned before it was read' });
    t.clock.advance(3 * 86_400);
    const fresh = await fileBug(t, { summary: 'Written three days later' });
    // The hourly pruning, run now.
    await t.app.get(ChangeFeedService).pruneExpired();
    expectCodedError(await t.get('/changes', { ...admin, query: { since: old } }), 10601, 410);
    // A cursor inside the window reads on: the change pruned before it was read is no more, the later one is there.
    const { cursor: now } = ok(await t.get('/changes', admin));
    const next = await fileBug(t, { summary: 'After the pruning' });
    const read = ok(await t.get('/changes', { ...admin, query: { since: now } })).changes.map((e: { id: number }) => e.id);
    expect(read).toEqual([next]);
    expect(read).not.toContain(missed);
    expect(read).not.toContain(fresh);
  });
});
