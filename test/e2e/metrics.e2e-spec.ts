import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { DEFAULT_BUG } from './bug-fixtures.js';
import { fastPathsOn } from '../support/conditions.js';

/** Prometheus metrics (issue 14): off by default, on with TRACKER_METRICS=1, outside /rest. */
describe('metrics', () => {
  let t: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    [t, off] = [await startTestApp({ TRACKER_METRICS: '1' }), await startTestApp()];
  });
  afterAll(async () => {
    await t.close();
    await off.close();
  });

  const scrape = (app: TestApp) => fetch(`${app.baseUrl}/metrics`).then(async (res) => ({
    status: res.status, type: res.headers.get('content-type'), nosniff: res.headers.get('x-content-type-options'), text: await res.text(),
  }));

  it('is not served unless TRACKER_METRICS=1', async () => {
    expect((await scrape(off)).status).toBe(404);
  });

  it('counts requests by route template and status, times them, and reports kept reads, the outbox and the pool', async () => {
    await t.post('/bug', { ...DEFAULT_BUG, summary: 'counted', cc: [] }, { key: ADMIN_API_KEY });
    await t.post('/bug', { ...DEFAULT_BUG, summary: 'counted again' }, { key: ADMIN_API_KEY });
    await t.get('/bug/999999', { key: ADMIN_API_KEY });
    const { status, type, nosniff, text } = await scrape(t);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    expect(nosniff).toBe('nosniff');
    expect(text).toMatch(/tracker_http_requests_total\{method="POST",route="\/rest\/bug",status="200"\} [2-9]/);
    expect(text).toMatch(/tracker_http_requests_total\{method="GET",route="\/rest\/bug\/:id_or_alias",status="404"\} [1-9]/);
    expect(text).toMatch(/tracker_http_request_duration_seconds_bucket\{le="[0-9.]+",method="POST",route="\/rest\/bug"\}/);
    // the second Create Bug found the catalogue kept; with the fast paths off nothing is kept
    const keptHit = /tracker_kept_reads_total\{kind="productByName",outcome="hit"\} [1-9]/;
    if (fastPathsOn()) expect(text).toMatch(keptHit);
    else expect(text).not.toMatch(keptHit);
    expect(text).toMatch(/tracker_mail_outbox\{state="waiting"\} \d+/);
    if (t.db.dialect === 'mysql') expect(text).toMatch(/tracker_db_pool_connections\{state="idle"\} \d+/);
  });
});
