import { jest } from '@jest/globals';
import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { itWhen, onDialect } from '../support/conditions.js';
import { sentStatements } from '../support/round-trips.js';
import { CountingLogger } from '../../src/database/counting-logger.js';
import { VersionAnswer } from '../../src/info/store/version.answer.js';

/**
 * TRACKER_FAST_PATHS=off (AppConfig.fastPaths) turns the speed mechanisms off: an instance so answers exactly as one
 * with them on — the same bytes and headers, ETag included — while keeping nothing and holding nothing back.
 */
describe('TRACKER_FAST_PATHS=off', () => {
  let plain: TestApp;
  let fast: TestApp;
  let bugId: number;
  const admin = { key: ADMIN_API_KEY };

  beforeAll(async () => {
    plain = await startTestApp({ TRACKER_FAST_PATHS: 'off' });
    fast = await startTestApp({ TRACKER_FAST_PATHS: 'on' }, { sharing: plain });
    const created = await plain.post('/bug', {
      product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Plain path', description: 'd', cc: ['admin@example.com'],
    }, admin);
    expect(created.status).toBe(200);
    bugId = created.body.id;
    expect((await fast.post(`/bug/${bugId}/comment`, { comment: 'a second comment' }, admin)).status).toBe(200);
  });
  afterAll(async () => {
    await fast.close();
    await plain.close();
  });

  /** What a client sees of an answer: status, body and the headers that describe it. */
  const wire = async (app: TestApp, path: string, query?: Record<string, string>) => {
    const res = await app.get(path, { query });
    return { status: res.status, text: res.text, etag: res.headers.get('etag'), type: res.headers.get('content-type'), vary: res.headers.get('vary') };
  };

  it.each([
    ['Get Version', '/version', undefined],
    ['Get Version as JSONP, with a field selection', '/version', { callback: 'cb', include_fields: 'nothing' }],
    ['Get Bug', '/bug/{id}', undefined],
    ['Get Bug with a field selection', '/bug/{id}', { include_fields: 'id,summary,cc' }],
    ['Get Bug as JSONP', '/bug/{id}', { callback: 'cb' }],
    ['Get Comments', '/bug/{id}/comment', undefined],
    ['Search Bugs', '/bug', { summary: 'Plain path' }],
    ['an unknown bug', '/bug/999999', undefined],
  ])('%s answers as an instance with them on, kept or not (same status, body, ETag)', async (_name, path, query) => {
    const at = path.replace('{id}', String(bugId));
    // The instance with fast paths answers the second time from what it kept.
    const [cold, kept, off] = [await wire(fast, at, query), await wire(fast, at, query), await wire(plain, at, query)];
    expect(kept).toEqual(cold);
    expect(off).toEqual(cold);
  });

  it('sends the kept answer\'s routes through Nest\'s pipeline, never the request hook\'s answer', async () => {
    const answer = jest.spyOn(plain.app.get(VersionAnswer), 'answer');
    try {
      expect((await plain.get('/version')).status).toBe(200);
      expect(answer).not.toHaveBeenCalled();
    } finally {
      answer.mockRestore();
    }
  });

  it('keeps no bug, caller or setting: a warm Get Bug sends the statements of the one before it', async () => {
    const statements = async () => {
      const sent: string[] = [];
      const logged = jest.spyOn(CountingLogger.prototype, 'logQuery').mockImplementation((text?: string) => void sent.push(String(text)));
      try {
        expect((await plain.get(`/bug/${bugId}`, admin)).status).toBe(200);
      } finally {
        logged.mockRestore();
      }
      return sent;
    };
    await statements();
    const before = await statements();
    // The key, its user, memberships and parameters, the bug's row and its relations: read again every time.
    expect(before.length).toBeGreaterThanOrEqual(5);
    expect(await statements()).toEqual(before);
  });

  itWhen(onDialect('mysql', 'SQLite holds nothing back whatever the switch says'))('holds nothing back on MySQL: an update sends each statement on its own, none named, none prepared by name', async () => {
    const sent = await sentStatements(() => plain.put(`/bug/${bugId}`, { status: 'IN_PROGRESS', comment: { body: 'plain' }, cc: { remove: ['admin@example.com'] } }, admin));
    expect(sent.length).toBeGreaterThan(5);
    for (const text of sent) {
      expect(text).not.toMatch(/;\n|tracker_held_|@tracker_new_row/);
    }
    expect(sent.filter((text) => /^\s*START TRANSACTION/i.test(text))).toHaveLength(1);
    expect((await plain.get(`/bug/${bugId}`)).body.bugs[0]).toMatchObject({ status: 'IN_PROGRESS', cc: [] });
  });
});
