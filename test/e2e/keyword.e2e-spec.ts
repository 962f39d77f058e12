import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { documentedParameters, expectCodedError, firstAudit, ok } from '../support/catalogue-fixtures.js';
import { fileBug } from './bug-fixtures.js';
import { BugKeyword } from '../../src/bug/entities/bug-keyword.entity.js';

describe('Keywords (beyond 5.0): list, create, update; a keyword in use stays on its bugs', () => {
  let t: TestApp;
  let outsider: { id: number; apiKey: string };
  let keyworder: { id: number; apiKey: string };
  let crash: number;
  let bug: number;

  beforeAll(async () => {
    t = await startTestApp();
    outsider = await t.createUser('outsider@example.com');
    keyworder = await t.createUser('keyworder@example.com', { groups: ['editkeywords'] });
  });
  afterAll(() => t.close());

  it('a fresh installation has no keywords', async () => {
    expect(ok(await t.get('/keyword'))).toEqual({ keywords: [] });
  });

  it('creates keywords (editkeywords), listed by name for everybody with their bug counts, audited', async () => {
    crash = ok(await t.post('/keyword', { name: 'crash', description: 'It falls over' }, { key: keyworder.apiKey })).id;
    ok(await t.post('/keyword', { name: 'a11y', description: 'Accessibility', is_active: false }, { key: keyworder.apiKey }));
    expect(ok(await t.get('/keyword', { key: outsider.apiKey }))).toEqual({
      keywords: [
        { id: expect.any(Number), name: 'a11y', description: 'Accessibility', is_active: false, bug_count: 0 },
        { id: crash, name: 'crash', description: 'It falls over', is_active: true, bug_count: 0 },
      ],
    });
    expect(await firstAudit(t, 'Tracker::Keyword', crash))
      .toEqual({ field: '__create__', added: 'crash' });
  });

  it('lists some by ids or names (case-insensitive); unknown is 51; field selection applies', async () => {
    expect(ok(await t.get('/keyword', { query: { names: 'CRASH' } })).keywords.map((k: any) => k.id)).toEqual([crash]);
    expect(ok(await t.get('/keyword', { query: { ids: crash, include_fields: 'name' } })).keywords).toEqual([{ name: 'crash' }]);
    expectCodedError(await t.get('/keyword', { query: { names: 'nosuch' } }), 51, 404);
  });

  it('validation: blank name, spaces or commas, too long, taken (any case), blank description: 32000, nothing created', async () => {
    for (const body of [
      { name: '', description: 'd' }, { name: 'two words', description: 'd' }, { name: 'a,b', description: 'd' },
      { name: 'k'.repeat(65), description: 'd' }, { name: 'Crash', description: 'd' }, { name: 'fresh', description: ' ' },
    ]) {
      expectCodedError(await t.post('/keyword', body, { key: keyworder.apiKey }), 32000, 400);
    }
    expect(ok(await t.get('/keyword')).keywords).toHaveLength(2);
  });

  it('rights: 410 anonymous, 304 without editkeywords', async () => {
    expectCodedError(await t.post('/keyword', { name: 'x', description: 'd' }), 410, 401);
    expectCodedError(await t.post('/keyword', { name: 'x', description: 'd' }, { key: outsider.apiKey }), 304, 401);
    expectCodedError(await t.put('/keyword/crash', { description: 'd' }, { key: outsider.apiKey }), 304, 401);
  });

  it('renaming and disabling a keyword in use keeps it on its bugs, with changes', async () => {
    bug = await fileBug(t, { keywords: ['crash'] });
    const res = ok(await t.put('/keyword/crash', { name: 'crasher', description: 'Falls over', is_active: false }, { key: keyworder.apiKey }));
    expect(res).toEqual({
      keywords: [{
        id: crash,
        changes: {
          name: { removed: 'crash', added: 'crasher' },
          description: { removed: 'It falls over', added: 'Falls over' },
          is_active: { removed: '1', added: '0' },
        },
      }],
    });
    expect((await t.db.read.repository(BugKeyword).findBy({ bugId: bug })).map((row) => ({ keyword_id: row.keywordId }))).toEqual([{ keyword_id: crash }]);
    const listed = ok(await t.get('/keyword', { query: { ids: crash } })).keywords[0];
    expect(listed).toMatchObject({ name: 'crasher', is_active: false, bug_count: 1 });
    const keywordsField = ok(await t.get('/field/bug/keywords')).fields[0];
    expect(keywordsField.values).toEqual([]);
  });

  it('update errors: unknown 51, one name for several 32000, taken name 32000, blank description 32000', async () => {
    expectCodedError(await t.put('/keyword/nosuch', { description: 'd' }, { key: keyworder.apiKey }), 51, 404);
    expectCodedError(await t.put('/keyword/9999', { description: 'd' }, { key: keyworder.apiKey }), 51, 404);
    expectCodedError(await t.put('/keyword/crasher', { names: ['a11y'], name: 'same' }, { key: keyworder.apiKey }), 32000, 400);
    expectCodedError(await t.put('/keyword/crasher', { name: 'A11Y' }, { key: keyworder.apiKey }), 32000, 400);
    expectCodedError(await t.put('/keyword/crasher', { description: '' }, { key: keyworder.apiKey }), 32000, 400);
    const both = ok(await t.put('/keyword/crasher', { names: ['a11y'], is_active: true }, { key: ADMIN_API_KEY }));
    expect(both.keywords.map((k: any) => Object.keys(k.changes))).toEqual([['is_active'], ['is_active']]);
  });

  it('the OpenAPI document lists the parameters of list, create and update', async () => {
    expect((await documentedParameters(t, '/keyword', 'get')).query).toEqual(expect.arrayContaining(['ids', 'names', 'include_fields']));
    expect((await documentedParameters(t, '/keyword', 'post')).body).toEqual(['name', 'description', 'is_active']);
    expect((await documentedParameters(t, '/keyword/{idOrName}', 'put')).body).toEqual(['ids', 'names', 'name', 'description', 'is_active']);
  });
});
