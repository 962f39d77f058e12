import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { ROOT, buildService, servicePort, startService } from '../support/service-process.js';

/**
 * The built service loads @nestjs/swagger only when its OpenAPI document is first asked for (issue 13: ~20 MB and an
 * eighth of a cold start), and the document it then makes describes the routes (src/common/openapi). A package that
 * loads @nestjs/swagger on its own at start (as @nestjs/terminus's @HealthCheck() does unless told not to) fails this.
 */
describe('the OpenAPI document, made when first asked for', () => {
  let database: TestDatabase;
  let service: ChildProcess | undefined;
  let report: string;
  const port = servicePort() + 2;
  const base = `http://127.0.0.1:${port}`;

  beforeAll(buildService);
  beforeEach(async () => {
    database = await createTestDatabase();
    report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-openapi-')), 'swagger-modules');
  });
  afterEach(async () => {
    service?.kill('SIGKILL');
    await database.drop();
    fs.rmSync(path.dirname(report), { recursive: true, force: true });
  });

  it('is not loaded by a start and a request, and is served whole once asked for', async () => {
    service = await startService({
      DATABASE_URL: database.url, PORT: String(port), TRACKER_TEST_SWAGGER_REPORT: report,
      NODE_OPTIONS: `--import ${path.join(ROOT, 'test/support/swagger-load-report.mjs')}`,
    });
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    expect((await fetch(`${base}/rest/bug/1`)).status).toBeLessThan(500);
    expect(fs.existsSync(report)).toBe(false);

    const document = await fetch(`${base}/rest/openapi.json`);
    expect(document.status).toBe(200);
    const { paths } = (await document.json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/rest/bug', '/rest/bug/{id_or_alias}', '/health/ready']));
    expect(Object.keys(paths['/health/ready'].get.responses).sort()).toEqual(['200', '503']);
    expect(fs.readFileSync(report, 'utf8')).toContain('/node_modules/@nestjs/swagger/');

    const head = await fetch(`${base}/rest/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(10_000);
    const missing = await fetch(`${base}/rest/openapi/no-such-file.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: true, code: 32614 });
  });
});
