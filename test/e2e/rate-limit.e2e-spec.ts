import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ADMIN_API_KEY, startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';

/**
 * Rate limits (issue 15, beyond Bugzilla 5.0): a token bucket per credential, or per client address for anonymous
 * callers, separately for reads and writes; shared by all instances through the database or Redis.
 */
const LIMITS = { TRACKER_RATE_LIMIT_READ: '3', TRACKER_RATE_LIMIT_WRITE: '2' };
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const rateHeaders = (res: ApiResponse) => ({
  limit: res.headers.get('x-ratelimit-limit'),
  remaining: res.headers.get('x-ratelimit-remaining'),
  reset: res.headers.get('x-ratelimit-reset'),
});

function expectLimited(res: ApiResponse, kind: 'read' | 'write'): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ error: true, code: -32029, message: expect.stringContaining(`Too many ${kind} requests`) });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
}

/** Two instances on one database, as behind a load balancer. */
async function startTwoInstances(env: Record<string, string>): Promise<[TestApp, TestApp]> {
  const first = await startTestApp(env);
  return [first, await startTestApp(env, { sharing: first })];
}

async function closeAll(...apps: TestApp[]): Promise<void> {
  for (const app of apps) await app.close();
}

describe('rate limits are off unless configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('sends no X-RateLimit headers and never answers 429', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.get('/version');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});

describe('rate limits in the database (TRACKER_RATE_LIMIT_READ=3, _WRITE=2)', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    [t, other] = await startTwoInstances(LIMITS);
  });
  afterAll(() => closeAll(other, t));
  // The instances share the buckets and each reads its own clock: they move together, as NTP keeps hosts together.
  const advance = (seconds: number) => [t, other].forEach((app) => app.clock.advance(seconds));

  it('a key gets its burst of reads with the headers counting down, then 429 with Retry-After; errors count and carry the headers', async () => {
    const user = await t.createUser('limited-reader@example.com');
    const key = { key: user.apiKey };
    expect(rateHeaders(await t.get('/whoami', key))).toEqual({ limit: '3', remaining: '2', reset: '20' });
    const error = await t.get('/bug/999999', key);
    expect(error.status).toBe(404);
    expect(rateHeaders(error)).toMatchObject({ limit: '3', remaining: '1' });
    expect(rateHeaders(await t.get('/whoami', key))).toMatchObject({ remaining: '0' });
    expectLimited(await t.get('/whoami', key), 'read');
    // Another key, and anonymous callers (per address), have buckets of their own.
    expect((await t.get('/whoami', { key: ADMIN_API_KEY })).status).toBe(200);
    expect((await t.get('/version')).status).toBe(200);
  });

  it('the bucket refills at the per-minute rate: one read every 20 s', async () => {
    const user = await t.createUser('refilled-reader@example.com');
    for (let i = 0; i < 3; i++) expect((await t.get('/whoami', { key: user.apiKey })).status).toBe(200);
    expectLimited(await t.get('/whoami', { key: user.apiKey }), 'read');
    advance(20);
    expect(rateHeaders(await t.get('/whoami', { key: user.apiKey }))).toMatchObject({ remaining: '0' });
    expectLimited(await t.get('/whoami', { key: user.apiKey }), 'read');
    advance(60);
    expect(rateHeaders(await t.get('/whoami', { key: user.apiKey }))).toMatchObject({ remaining: '2' });
  });

  it('writes have their own bucket, and a refused write changes nothing', async () => {
    const user = await t.createUser('limited-writer@example.com');
    const bug = { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'limited', description: 'd' };
    expect((await t.post('/bug', bug, { key: user.apiKey })).status).toBe(200);
    expect((await t.post('/bug', bug, { key: user.apiKey })).status).toBe(200);
    const refused = await t.post('/bug', { ...bug, summary: 'never filed' }, { key: user.apiKey });
    expectLimited(refused, 'write');
    expect((await t.get('/bug', { query: { summary: 'never filed' }, key: ADMIN_API_KEY })).body.bugs).toEqual([]);
    // Reads of the same key are still admitted.
    expect((await t.get('/whoami', { key: user.apiKey })).status).toBe(200);
  });

  it('a login and password in the body are the bucket, not the address', async () => {
    const user = await t.createUser('limited-login@example.com', { password: 'limited-password-1' });
    const body = { Bugzilla_login: user.login, Bugzilla_password: 'limited-password-1', comment: 'c' };
    const bug = await t.post('/bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 's', description: 'd' }, { key: ADMIN_API_KEY });
    expect((await t.post(`/bug/${bug.body.id}/comment`, body)).status).toBe(200);
    expect((await t.post(`/bug/${bug.body.id}/comment`, body)).status).toBe(200);
    expectLimited(await t.post(`/bug/${bug.body.id}/comment`, body), 'write');
    expect((await t.post(`/bug/${bug.body.id}/comment`, { comment: 'c' }, { key: ADMIN_API_KEY })).status).toBe(200);
  });

  it('health and metrics are never limited', async () => {
    for (let i = 0; i < 5; i++) expect((await fetch(`${t.baseUrl}/health/live`)).status).toBe(200);
  });

  it('two instances on one database share the buckets', async () => {
    const user = await t.createUser('shared-reader@example.com');
    expect((await t.get('/whoami', { key: user.apiKey })).status).toBe(200);
    expect((await other.get('/whoami', { key: user.apiKey })).status).toBe(200);
    expect((await t.get('/whoami', { key: user.apiKey })).status).toBe(200);
    expectLimited(await other.get('/whoami', { key: user.apiKey }), 'read');
  });

  it('concurrent requests through both instances never get more than the burst (the bucket moves atomically)', async () => {
    const user = await t.createUser('racing-reader@example.com');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? t : other).get('/whoami', { key: user.apiKey })));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(3);
    expect(answers.map((res) => [res.status, res.body.code]).filter(([status]) => status !== 200)).toEqual(Array(9).fill([429, -32029]));
  });
});

describe('rate limits in Redis (REDIS_URL)', () => {
  const prefix = `tracker-test-${randomBytes(6).toString('hex')}:`;
  const env = { ...LIMITS, REDIS_URL, TRACKER_REDIS_PREFIX: prefix };
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    [t, other] = await startTwoInstances(env);
  });
  afterAll(async () => {
    await closeAll(other, t);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('two instances share the buckets through Redis; anonymous callers per address', async () => {
    expect(rateHeaders(await t.get('/version'))).toMatchObject({ limit: '3', remaining: '2' });
    expect((await other.get('/version')).status).toBe(200);
    expect((await t.get('/version')).status).toBe(200);
    expectLimited(await other.get('/version'), 'read');
    expect((await t.get('/version', { key: ADMIN_API_KEY })).status).toBe(200);
  });

  it('concurrent requests through both instances never get more than the burst', async () => {
    const user = await t.createUser('redis-racer@example.com');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? t : other).get('/whoami', { key: user.apiKey })));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(3);
  });

  it('writes separately, and the bucket refills with time', async () => {
    const user = await t.createUser('redis-writer@example.com');
    const bug = { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'r', description: 'd' };
    expect((await t.post('/bug', bug, { key: user.apiKey })).status).toBe(200);
    expect((await other.post('/bug', bug, { key: user.apiKey })).status).toBe(200);
    expectLimited(await t.post('/bug', bug, { key: user.apiKey }), 'write');
    [t, other].forEach((app) => app.clock.advance(30));
    expect((await t.post('/bug', bug, { key: user.apiKey })).status).toBe(200);
  });
});

describe('rate limits with Redis down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A port nothing listens on: every take fails at once.
    t = await startTestApp({ ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(() => t.close());

  it('answers 503 with Retry-After (as with the database down), never a 500 and never unlimited', async () => {
    const res = await t.get('/version');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: true, code: -32001 });
    expect(res.headers.get('retry-after')).toBe('1');
  });
});
