import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { documentedParameters, expectCodedError, firstAudit, ok, ownEntries } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { fileBug } from './bug-fixtures.js';

describe('Keywords (beyond 5.0): list, create, update; a keyword in use stays on its bugs', () => {
  let t: TestApp;
  let outsider: { id: number; apiKey: string };
  let keyworder: { id: number; apiKey: string };
  let crash: number;
  let bug: number;
  const [crashName, crasherName, a11yName] = [named('crash'), named('crasher'), named('a11y')];
  const ownKeywords = (keywords: Array<{ name: string }>) => ownEntries(t, keywords, (k) => [crashName, crasherName, a11yName].includes(k.name));

  beforeAll(async () => {
    t = await startTestApp();
    outsider = await t.createUser(loginNamed('outsider'));
    keyworder = await t.createUser(loginNamed('keyworder'), { groups: ['editkeywords'] });
  });
  afterAll(() => t.close());

  inProcessIt('a fresh installation has no keywords', async () => {
    expect(ok(await t.get('/keyword'))).toEqual({ keywords: [] });
  });

  it('creates keywords (editkeywords), listed by name for everybody with their bug counts', async () => {
    crash = ok(await t.post('/keyword', { name: crashName, description: 'It falls over' }, { key: keyworder.apiKey })).id;
    ok(await t.post('/keyword', { name: a11yName, description: 'Accessibility', is_active: false }, { key: keyworder.apiKey }));
    expect(ownKeywords(ok(await t.get('/keyword', { key: outsider.apiKey })).keywords)).toEqual([
      { id: expect.any(Number), name: a11yName, description: 'Accessibility', is_active: false, bug_count: 0 },
      { id: crash, name: crashName, description: 'It falls over', is_active: true, bug_count: 0 },
    ]);
  });

  inProcessIt('a created keyword is audited', async () => {
    expect(await firstAudit(t, 'Tracker::Keyword', crash)).toEqual({ field: '__create__', added: crashName });
  });

  it('lists some by ids or names (case-insensitive); unknown is 51; field selection applies', async () => {
    expect(ok(await t.get('/keyword', { query: { names: crashName.toUpperCase() } })).keywords.map((k: any) => k.id)).toEqual([crash]);
    expect(ok(await t.get('/keyword', { query: { ids: crash, include_fields: 'name' } })).keywords).toEqual([{ name: crashName }]);
    expectCodedError(await t.get('/keyword', { query: { names: 'nosuch' } }), 51, 404);
  });

  it('validation: blank name, spaces or commas, too long, taken (any case), blank description: 32000, nothing created', async () => {
    const before = ok(await t.get('/keyword')).keywords;
    for (const body of [
      { name: '', description: 'd' }, { name: 'two words', description: 'd' }, { name: 'a,b', description: 'd' },
      { name: 'k'.repeat(65), description: 'd' }, { name: crashName.toUpperCase(), description: 'd' }, { name: 'fresh', description: ' ' },
    ]) {
      expectCodedError(await t.post('/keyword', body, { key: keyworder.apiKey }), 32000, 400);
    }
    expect(ok(await t.get('/keyword')).keywords).toEqual(before);
  });

  it('rights: 410 anonymous, 304 without editkeywords', async () => {
    expectCodedError(await t.post('/keyword', { name: 'x', description: 'd' }), 410, 401);
    expectCodedError(await t.post('/keyword', { name: 'x', description: 'd' }, { key: outsider.apiKey }), 304, 401);
    expectCodedError(await t.put(`/keyword/${crashName}`, { description: 'd' }, { key: outsider.apiKey }), 304, 401);
  });

  it('renaming and disabling a keyword in use keeps it on its bugs, with changes', async () => {
    bug = await fileBug(t, { keywords: [crashName] });
    const res = ok(await t.put(`/keyword/${crashName}`, { name: crasherName, description: 'Falls over', is_active: false }, { key: keyworder.apiKey }));
    expect(res).toEqual({
      keywords: [{
        id: crash,
        changes: {
          name: { removed: crashName, added: crasherName },
          description: { removed: 'It falls over', added: 'Falls over' },
          is_active: { removed: '1', added: '0' },
        },
      }],
    });
    expect(ok(await t.get(`/bug/${bug}`, { key: ADMIN_API_KEY, query: { include_fields: 'keywords' } })).bugs[0].keywords).toEqual([crasherName]);
    const listed = ok(await t.get('/keyword', { query: { ids: crash } })).keywords[0];
    expect(listed).toMatchObject({ name: crasherName, is_active: false, bug_count: 1 });
    const keywordsField = ok(await t.get('/field/bug/keywords')).fields[0];
    expect(ownKeywords(keywordsField.values)).toEqual([]);
  });

  it('update errors: unknown 51, one name for several 32000, taken name 32000, blank description 32000', async () => {
    expectCodedError(await t.put('/keyword/nosuch', { description: 'd' }, { key: keyworder.apiKey }), 51, 404);
    expectCodedError(await t.put('/keyword/9999', { description: 'd' }, { key: keyworder.apiKey }), 51, 404);
    expectCodedError(await t.put(`/keyword/${crasherName}`, { names: [a11yName], name: 'same' }, { key: keyworder.apiKey }), 32000, 400);
    expectCodedError(await t.put(`/keyword/${crasherName}`, { name: a11yName.toUpperCase() }, { key: keyworder.apiKey }), 32000, 400);
    expectCodedError(await t.put(`/keyword/${crasherName}`, { description: '' }, { key: keyworder.apiKey }), 32000, 400);
    const both = ok(await t.put(`/keyword/${crasherName}`, { names: [a11yName], is_active: true }, { key: ADMIN_API_KEY }));
    expect(both.keywords.map((k: any) => Object.keys(k.changes))).toEqual([['is_active'], ['is_active']]);
  });

  it('the OpenAPI document lists the parameters of list, create and update', async () => {
    expect((await documentedParameters(t, '/keyword', 'get')).query).toEqual(expect.arrayContaining(['ids', 'names', 'include_fields']));
    expect((await documentedParameters(t, '/keyword', 'post')).body).toEqual(['name', 'description', 'is_active']);
    expect((await documentedParameters(t, '/keyword/{id_or_name}', 'put')).body).toEqual(['ids', 'names', 'name', 'description', 'is_active']);
  });
});
