import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_API_KEY, startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { describeWhen, onDialect } from '../support/conditions.js';
import { DEFAULT_BUG, fileBug } from './bug-fixtures.js';

/** Faults of a database server: only MariaDB/MySQL has connections to lose (SQLite is a file in the process). */
const onServerDatabase = describeWhen(onDialect('mysql', 'only a database server has connections to lose (SQLite is a file in the process)'));

onServerDatabase('database faults (issue 12: a lost connection is never a 500)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('connections killed under load: coded 503s with Retry-After at worst, recovery without restart, nothing acknowledged lost', async () => {
    const seeded = await Promise.all(Array.from({ length: 10 }, (_, i) => fileBug(t, { summary: `fault seed ${i}` })));
    const outcomes: ApiResponse[] = [];
    const acknowledged: number[] = [];
    const until = Date.now() + 3_000;
    const load = async (request: () => Promise<ApiResponse>, onSuccess?: (res: ApiResponse) => void) => {
      while (Date.now() < until) {
        const res = await request();
        outcomes.push(res);
        if (res.status === 200) onSuccess?.(res);
      }
    };
    const kill = async () => {
      let killed = 0;
      while (Date.now() < until) {
        killed += await t.database.killConnections();
        await sleep(100);
      }
      return killed;
    };
    const [killed] = await Promise.all([
      kill(),
      ...[0, 1].map(() => load(() => t.post('/bug', { ...DEFAULT_BUG, summary: 'filed under faults' }, { key: ADMIN_API_KEY }), (res) => acknowledged.push(res.body.id))),
      ...[0, 1].map((i) => load(() => t.get(`/bug/${seeded[i]}`, { key: ADMIN_API_KEY }))),
      load(() => t.get('/bug', { key: ADMIN_API_KEY, query: { summary: 'fault seed' } })),
    ]);
    expect(killed).toBeGreaterThan(0);

    const unexpected = outcomes.filter((res) => res.status >= 500 && !(res.status === 503 && res.body?.code === -32001 && res.headers.get('retry-after') === '1'));
    expect(unexpected.map((res) => `${res.status} ${res.text}`)).toEqual([]);
    for (const res of outcomes.filter((o) => o.status !== 200)) expect(res.body).toMatchObject({ error: true, code: expect.any(Number) });
    expect(acknowledged.length).toBeGreaterThan(0);

    // Recovery without a restart: the next requests are served.
    for (let i = 0; i < 5; i++) expect((await t.get(`/bug/${seeded[0]}`, { key: ADMIN_API_KEY })).status).toBe(200);
    // Nothing acknowledged was lost.
    const found = await t.get('/bug', { key: ADMIN_API_KEY, query: { id: acknowledged.join(','), include_fields: 'id' } });
    expect(found.body.bugs.map((bug: { id: number }) => bug.id).sort((a: number, b: number) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
  });
});
