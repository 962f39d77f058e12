import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessDescribe, loginNamed } from '../support/in-process.js';
import { itWhen, needsFastPaths, onDialect } from '../support/conditions.js';
import { outputDuring } from '../support/capture-output.js';
import { metricsRegistry } from '../../src/common/metrics/metrics.js';
import { DEFAULT_BUG } from './bug-fixtures.js';

/** The number of writes run again for another caller so far (PresumedCallerInterceptor). */
async function reruns(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('tracker_presumed_caller_reruns_total')!.get();
  return metric.values.reduce((sum, value) => sum + value.value, 0);
}

/**
 * Create and Update Bug presume the caller their credential named last on this instance (presumesCaller,
 * src/fast-paths.ts); a write
 * whose presumption was wrong rolls back and runs again. A settings change made through this instance is known here:
 * the next write must not presume a caller kept under the settings before it, or it runs its transaction twice (a
 * rolled-back INSERT on MySQL skips its bug id and comment id). A change made elsewhere cannot be known in advance:
 * the write then runs twice, counted in metrics and logged.
 */
inProcessDescribe('the first write after a settings change runs once', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    // At info, for the line a write run again leaves in the log (Nest's Logger writes through the app started last).
    t = await startTestApp({}, { logLevel: 'info' });
    other = await startTestApp({}, { logLevel: 'info', sharing: t });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const create = async (key: string, summary: string) => {
    const res = await t.post('/bug', { ...DEFAULT_BUG, summary }, { key });
    expect(res.status).toBe(200);
    return Number(res.body.id);
  };
  const descriptionIdOf = async (id: number) => Number((await t.get(`/bug/${id}/comment`, { key: ADMIN_API_KEY })).body.bugs[id].comments[0].id);
  const settingsChanges: Array<[string, () => Promise<unknown>]> = [
    ['a parameter', () => t.put('/parameters', { maintainer: `maintainer-${Date.now()}@example.com` }, { key: ADMIN_API_KEY })],
    ['a new component', () => t.post('/component', { product: 'TestProduct', name: `Component ${Date.now()}`, description: 'd', default_assignee: ADMIN_LOGIN }, { key: ADMIN_API_KEY })],
  ];

  it.each(settingsChanges)('after %s changed through this instance, the next bug takes the next bug id and comment id', async (_change, change) => {
    const user = await t.createUser(loginNamed(`filer-${Date.now()}`));
    await create(user.apiKey, 'naming the caller to this instance');
    const warm = await create(user.apiKey, 'presuming the caller');
    const changed = await change();
    expect((changed as { status: number }).status).toBe(200);
    const rerunsBefore = await reruns();
    const next = await create(user.apiKey, 'after the change');
    expect(next).toBe(warm + 1);
    expect(await descriptionIdOf(next)).toBe((await descriptionIdOf(warm)) + 1);
    expect(await reruns()).toBe(rerunsBefore);
  });

  it('an update after a settings change through this instance runs once', async () => {
    const user = await t.createUser(loginNamed(`updater-${Date.now()}`));
    const id = await create(user.apiKey, 'to update');
    expect((await t.put(`/bug/${id}`, { whiteboard: 'warm' }, { key: user.apiKey })).status).toBe(200);
    expect((await t.put('/parameters', { maintainer: `updater-${Date.now()}@example.com` }, { key: ADMIN_API_KEY })).status).toBe(200);
    const rerunsBefore = await reruns();
    expect((await t.put(`/bug/${id}`, { whiteboard: 'after the change' }, { key: user.apiKey })).status).toBe(200);
    expect(await reruns()).toBe(rerunsBefore);
  });

  itWhen(onDialect('mysql', 'nothing is presumed on SQLite, so nothing runs again'), needsFastPaths)('after a settings change through another instance, the write runs again here once, and that is counted', async () => {
    const user = await t.createUser(loginNamed(`elsewhere-${Date.now()}`));
    await create(user.apiKey, 'warm');
    await other.setParameters({ maintainer: `elsewhere-${Date.now()}@example.com` });
    const rerunsBefore = await reruns();
    let id = 0;
    const log = await outputDuring(async () => {
      id = await create(user.apiKey, 'after a change elsewhere');
    });
    expect(await reruns()).toBe(rerunsBefore + 1);
    expect(log).toMatch(new RegExp(`"context":"PresumedCaller".*POST /rest/bug presumed user ${user.id} under settings mark \\d+; the credential names user ${user.id} under mark \\d+ now`));
    expect((await t.get(`/bug/${id}`, { key: user.apiKey })).body.bugs[0]).toMatchObject({ summary: 'after a change elsewhere', creator: user.login });
  });
});
