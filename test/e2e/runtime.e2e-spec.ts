import { startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt } from '../support/in-process.js';

/**
 * Code paths that once needed Node 22's require() of ES modules (issue 14, "Runtime"): the browsable OpenAPI page
 * (@fastify/static) and Fastify's inject(). npm test runs this on Node 24 and on Node 22.
 */
describe(`on Node ${process.versions.node}: the OpenAPI page and inject()`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves the browsable OpenAPI page and its static files', async () => {
    const page = await fetch(`${t.baseUrl}/rest/openapi`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const script = /src="\.?\/?([^"]*swagger-ui-bundle\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(new URL(script!, `${t.baseUrl}/rest/openapi/`));
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(10_000);
  });

  inProcessIt('answers through Fastify inject() as over the socket', async () => {
    const fastify = t.app.getHttpAdapter().getInstance();
    const injected = await fastify.inject({ method: 'GET', url: '/rest/version' });
    expect(injected.statusCode).toBe(200);
    expect(injected.json()).toEqual((await t.get('/version')).body);
  });
});
