import { startTestApp, type TestApp } from '../support/test-app.js';
import { ok } from '../support/catalogue-fixtures.js';

type Operation = { summary?: string; parameters?: Array<{ in: string; name: string }> };

/**
 * The OpenAPI page is what a newcomer reads first: every route says what it does in a summary, in the words of
 * its users (no internal shorthand), and path parameters are spelled one way, as Bugzilla's documentation does
 * (`{id_or_name}`, snake case).
 */
describe('the OpenAPI document speaks to its readers', () => {
  let t: TestApp;
  let operations: Array<[string, Operation]>;

  beforeAll(async () => {
    t = await startTestApp();
    const { paths } = ok<{ paths: Record<string, Record<string, Operation>> }>(await t.get('/openapi.json'));
    operations = Object.entries(paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]));
  });
  afterAll(() => t.close());

  it('gives every route a summary', () => {
    expect(operations.length).toBeGreaterThan(70);
    expect(operations.filter(([, op]) => !op.summary?.trim()).map(([route]) => route)).toEqual([]);
  });

  it('speaks no internal shorthand', () => {
    const jargon = /\bseed\b|answered \d{3}|routes\.md|errors\.md|service-spec/i;
    expect(operations.filter(([, op]) => jargon.test(op.summary ?? '')).map(([route, op]) => `${route}: ${op.summary}`)).toEqual([]);
  });

  it('spells path parameters in snake case, in the path and in the parameter list alike', () => {
    const names = operations.flatMap(([route, op]) => [
      ...[...route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      ...(op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
    ]);
    expect(names.length).toBeGreaterThan(20);
    expect([...new Set(names.filter((name) => !/^[a-z]+(_[a-z]+)*$/.test(name)))]).toEqual([]);
  });
});
