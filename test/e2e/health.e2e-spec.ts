import { countQueries, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt } from '../support/in-process.js';
import { Db } from '../../src/database/db.service.js';

/** Liveness and readiness (issue 14), outside /rest. */
describe('health endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const get = async (path: string) => {
    const { status, body } = await t.get(path);
    return { status, body: body as Record<string, any> };
  };

  it('live answers ok without credentials; ready checks the database and the migrations', async () => {
    expect(await get('/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', details: { database: { status: 'up' }, migrations: { status: 'up' } } });
    // Not under /rest, and /rest/health is no route.
    expect((await get('/rest/health/live')).status).toBe(404);
  });

  inProcessIt('live sends no statement', async () => {
    let live: unknown;
    expect(await countQueries(async () => { live = await get('/health/live'); })).toBe(0);
    expect(live).toEqual({ status: 200, body: { status: 'ok' } });
  });

  // Undoes a migration of the instance's database.
  inProcessIt('ready answers 503 naming the failing check while migrations are pending; live stays ok', async () => {
    const dataSource = t.app.get(Db).dataSource;
    await dataSource.undoLastMigration();
    try {
      const ready = await get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'error', error: { migrations: { status: 'down' } } });
      expect((await get('/health/live')).status).toBe(200);
    } finally {
      await dataSource.runMigrations();
    }
    expect((await get('/health/ready')).status).toBe(200);
  });
});
