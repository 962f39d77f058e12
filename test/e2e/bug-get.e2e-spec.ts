import { createHmac } from 'node:crypto';
import { ADMIN_API_KEY, ADMIN_LOGIN, countQueries, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcess, itWhen, needsFastPaths } from '../support/conditions.js';
import { ok, ownEntries } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { BugTag } from '../../src/bug/entities/bug-tag.entity.js';
import { Tag } from '../../src/bug/entities/tag.entity.js';
import { Parameter } from '../../src/params/entities/parameter.entity.js';
import { insertRows } from '../../src/database/entity-rows.js';
import { expectError, fileBug } from './bug-fixtures.js';
import { customFieldNamed } from './bug-update-fixtures.js';

const DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('Get Bug (GET /rest/bug/(id_or_alias)) and the client search form (GET /rest/bug?id=…)', () => {
  let t: TestApp;
  let dev: { id: number; login: string; apiKey: string };
  let full: number;
  let plain: number;
  let reviewTypeId: number;
  // Summaries of this file's own: a running instance holds other files' bugs, and earlier runs' of this one.
  const [plainWord, fullWord] = [named('plain'), named('full')];
  const [plainSummary, fullSummary] = [`${plainWord} bug`, `${fullWord} bug`];
  const [fullAlias, crash, regression, review] = [named('full-alias'), named('crash'), named('regression'), named('review')];
  /** A search criterion that keeps a search to this file's two bugs (a running instance holds others). */
  const ownBugs = () => ({ id: [plain, full] });

  beforeAll(async () => {
    t = await startTestApp();
    await t.setParameters({ useqacontact: '1' });
    dev = await t.createUser(loginNamed('dev'), { realName: 'Dev Eloper' });
    const admin = { key: ADMIN_API_KEY };
    ok(await t.post('/keyword', { name: crash, description: 'crashes' }, admin));
    ok(await t.post('/keyword', { name: regression, description: 'regressions' }, admin));
    reviewTypeId = ok(await t.post('/flag_type', { name: review, description: 'review', target_type: 'bug', is_requestable: true, is_requesteeble: true, is_multiplicable: true }, admin)).id;
    plain = await fileBug(t, { summary: plainSummary });
    full = await fileBug(t, {
      summary: fullSummary,
      alias: [fullAlias],
      cc: [dev.login, ADMIN_LOGIN],
      keywords: [regression, crash],
      depends_on: [plain],
      see_also: ['https://bugs.example.org/show_bug.cgi?id=12'],
      flags: [{ name: review, status: '?', requestee: dev.login }],
      qa_contact: dev.login,
      url: 'https://example.org/page',
      whiteboard: 'wb',
      estimated_time: 5,
      deadline: '2030-01-31',
    });
  });
  afterAll(async () => {
    // A running instance keeps its parameters for the files after this one.
    await t.setParameters({ useqacontact: '0' });
    await t.close();
  });

  it('answers every field of the spec Bug table with its type, and faults []', async () => {
    const res = await t.get(`/bug/${full}`, { key: ADMIN_API_KEY });
    expect(res.status).toBe(200);
    expect(res.body.faults).toEqual([]);
    const bug = res.body.bugs[0];
    expect(bug).toMatchObject({
      id: full, alias: [fullAlias], summary: fullSummary, status: 'CONFIRMED', resolution: '', is_open: true, is_confirmed: true,
      product: 'TestProduct', component: 'TestComponent', classification: 'Unclassified', version: 'unspecified',
      target_milestone: '---', op_sys: 'All', platform: 'All', priority: '---', severity: 'enhancement',
      creator: ADMIN_LOGIN, assigned_to: ADMIN_LOGIN, qa_contact: dev.login,
      cc: [ADMIN_LOGIN, dev.login].sort(), blocks: [], depends_on: [plain], dupe_of: null, groups: [],
      keywords: [crash, regression], see_also: ['https://bugs.example.org/show_bug.cgi?id=12'],
      url: 'https://example.org/page', whiteboard: 'wb', is_cc_accessible: true, is_creator_accessible: true,
      deadline: '2030-01-31', estimated_time: 5, remaining_time: 5, actual_time: 0,
    });
    expect(bug.creation_time).toMatch(DATETIME);
    expect(bug.last_change_time).toBe(bug.creation_time);
    expect(bug.qa_contact_detail).toEqual({ id: dev.id, real_name: 'Dev Eloper', name: dev.login, email: dev.login });
    expect(bug.creator_detail).toEqual({ id: 1, real_name: expect.any(String), name: ADMIN_LOGIN, email: ADMIN_LOGIN });
    expect(bug.cc_detail.map((u: any) => u.name)).toEqual(bug.cc);
    expect(bug.flags).toEqual([{
      id: expect.any(Number), name: review, type_id: reviewTypeId, status: '?', setter: ADMIN_LOGIN, requestee: dev.login,
      creation_date: bug.creation_time, modification_date: bug.creation_time,
    }]);
    expect(bug).not.toHaveProperty('tags');
  });

  it('shows blocks on the other side of a dependency', async () => {
    const res = await t.get(`/bug/${plain}`);
    expect(res.body.bugs[0]).toMatchObject({ blocks: [full], depends_on: [] });
  });

  it('qa_contact is "" and qa_contact_detail absent when the bug has none', async () => {
    const bug = (await t.get(`/bug/${plain}`)).body.bugs[0];
    expect(bug.qa_contact).toBe('');
    expect(bug).not.toHaveProperty('qa_contact_detail');
  });

  it('finds a bug by alias and by #id; answers the numeric id', async () => {
    expect((await t.get(`/bug/${fullAlias}`)).body.bugs.map((b: any) => b.id)).toEqual([full]);
    expect((await t.get(`/bug/%23${full}`)).body.bugs.map((b: any) => b.id)).toEqual([full]);
  });

  it('merges the path bug with ids from the query, in order (GET /rest/bug/35?ids=36)', async () => {
    const res = await t.get(`/bug/${full}`, { query: { ids: [plain] } });
    expect(res.body.bugs.map((b: any) => b.id)).toEqual([full, plain]);
  });

  it('an unknown id is 101 / 404, an unknown alias 100 / 400', async () => {
    expectError(await t.get('/bug/999999'), 101, 404);
    expectError(await t.get('/bug/no-such-alias'), 100, 400);
  });

  it('an id beyond the id column (2^31 - 1) is an invalid id echoed as sent, never a rounded float', async () => {
    for (const huge of ['9223372036854775808', '2147483648', '123456789012345678901234567890']) {
      const res = await t.get(`/bug/${huge}`);
      expectError(res, 100, 400);
      expect(res.body.message).toContain(`'${huge}'`);
    }
    expectError(await t.get('/bug/2147483647'), 101, 404);
    const res = await t.get(`/bug/${full}`, { query: { ids: ['9223372036854775808'], permissive: 1 } });
    expect(res.body.faults).toEqual([{ id: '9223372036854775808', faultCode: 100, faultString: expect.stringContaining('9223372036854775808') }]);
  });

  it('permissive turns each failure into a fault and answers the rest', async () => {
    const res = await t.get(`/bug/${full}`, { query: { ids: ['999999', 'nope'], permissive: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.bugs.map((b: any) => b.id)).toEqual([full]);
    expect(res.body.faults).toEqual([
      { id: 999999, faultCode: 101, faultString: expect.stringContaining('999999') },
      { id: 'nope', faultCode: 100, faultString: expect.any(String) },
    ]);
  });

  it('without permissive, the first failing reference fails the whole call', async () => {
    expectError(await t.get(`/bug/${full}`, { query: { ids: ['999998'] } }), 101, 404);
  });

  it('time-tracking fields only for the time-tracking group; the deadline key for everyone, null outside it', async () => {
    const anonymous = (await t.get(`/bug/${full}`)).body.bugs[0];
    for (const field of ['estimated_time', 'remaining_time', 'actual_time']) expect(anonymous).not.toHaveProperty(field);
    expect(anonymous).toHaveProperty('deadline', null);
    await t.setParameters({ timetrackinggroup: 'canconfirm' });
    try {
      const notTracker = (await t.get(`/bug/${full}`, { key: dev.apiKey })).body.bugs[0];
      expect(notTracker).not.toHaveProperty('estimated_time');
      expect(notTracker).toHaveProperty('deadline', null);
      const tracker = (await t.get(`/bug/${full}`, { key: ADMIN_API_KEY })).body.bugs[0];
      expect(tracker).toMatchObject({ estimated_time: 5, remaining_time: 5, actual_time: 0, deadline: '2030-01-31' });
    } finally {
      await t.setParameters({ timetrackinggroup: 'editbugs' });
    }
  });

  it('update_token only for logged-in callers: <time>-<43 characters of base64url>', async () => {
    expect((await t.get(`/bug/${full}`)).body.bugs[0]).not.toHaveProperty('update_token');
    const bug = (await t.get(`/bug/${full}`, { key: dev.apiKey })).body.bugs[0];
    // The MAC is base64url, which may itself begin with '-': the time is what comes before the first one.
    const [, time] = /^(\d+)-[A-Za-z0-9_-]{43}$/.exec(bug.update_token) ?? [];
    expect(time).toBeDefined();
    expect(Math.abs(Number(time) - Date.now() / 1000)).toBeLessThan(60);
  });

  inProcessIt('update_token\'s MAC: HMAC-SHA256 base64url of time*user*bug*last_change_time (reads the site secret)', async () => {
    const bug = (await t.get(`/bug/${full}`, { key: dev.apiKey })).body.bugs[0];
    const [time] = bug.update_token.split('-', 1);
    const secret = (await t.db.read.repository(Parameter).findOneByOrFail({ name: 'site_wide_secret' })).value;
    const stored = (await t.db.read.repository(Bug).findOneByOrFail({ id: full })).lastChangeTime;
    const expected = createHmac('sha256', secret).update(`${time}*${dev.id}*${full}*${stored}`).digest('base64url');
    expect(bug.update_token.slice(time.length + 1)).toBe(expected);
  });

  describe('field selection', () => {
    it('include_fields returns only those fields (repeated keys and commas)', async () => {
      const res = await t.get(`/bug/${full}`, { query: { include_fields: ['id', 'summary,alias'] } });
      expect(res.body.bugs).toEqual([{ id: full, summary: fullSummary, alias: [fullAlias] }]);
    });

    it('a base field brings its *_detail; exclude_fields drops the detail alone', async () => {
      const withDetail = (await t.get(`/bug/${full}`, { query: { include_fields: 'assigned_to' } })).body.bugs[0];
      expect(Object.keys(withDetail).sort()).toEqual(['assigned_to', 'assigned_to_detail']);
      const without = (await t.get(`/bug/${full}`, { query: { include_fields: 'assigned_to', exclude_fields: 'assigned_to_detail' } })).body.bugs[0];
      expect(without).toEqual({ assigned_to: ADMIN_LOGIN });
    });

    inProcessIt('tags is extra: returned with _extra or by name, for the caller\'s own tags (writes tags in the database)', async () => {
      // Personal tags have no API yet: through their entities.
      await t.db.transaction(async (tx) => {
        const tagIds = [await insertRows(tx.repository(Tag), [{ userId: dev.id, name: 'mine' }]), await insertRows(tx.repository(Tag), [{ userId: 1, name: 'admins' }])];
        await insertRows(tx.repository(BugTag), tagIds.map((tagId) => ({ bugId: full, tagId })));
      });
      const res = await t.get(`/bug/${full}`, { key: dev.apiKey, query: { include_fields: ['_default', 'tags'] } });
      expect(res.body.bugs[0].tags).toEqual(['mine']);
      expect(res.body.bugs[0].summary).toBe(fullSummary);
      expect((await t.get(`/bug/${full}`, { key: dev.apiKey, query: { include_fields: '_extra' } })).body.bugs[0]).toEqual({ tags: ['mine'] });
    });

    it('exclude_fields removes fields from the default set', async () => {
      const bug = (await t.get(`/bug/${full}`, { query: { exclude_fields: 'cc,flags,keywords' } })).body.bugs[0];
      expect(bug).not.toHaveProperty('cc');
      expect(bug).not.toHaveProperty('cc_detail');
      expect(bug).not.toHaveProperty('flags');
      expect(bug).toHaveProperty('summary');
    });
  });

  describe('the search form clients use (GET /rest/bug?id=…&alias=…)', () => {
    it('answers only bugs (no faults), without update_token; unknown ids are absent, not errors', async () => {
      const res = await t.get('/bug', { key: dev.apiKey, query: { id: [plain, full, 999999], permissive: 1 } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['bugs']);
      expect(res.body.bugs.map((b: any) => b.id)).toEqual([plain, full]);
      expect(res.body.bugs[0]).not.toHaveProperty('update_token');
    });

    it('takes comma lists, aliases and repeated include_fields', async () => {
      const res = await t.get('/bug', { query: { id: `${plain},${full}`, include_fields: ['id', 'summary'] } });
      expect(res.body.bugs).toEqual([{ id: plain, summary: plainSummary }, { id: full, summary: fullSummary }]);
      expect((await t.get('/bug', { query: { alias: fullAlias, include_fields: 'id' } })).body.bugs).toEqual([{ id: full }]);
    });

    it('limit and offset page the result; offset without limit is 50', async () => {
      expect((await t.get('/bug', { query: { ...ownBugs(), limit: 1, offset: 1, include_fields: 'id' } })).body.bugs).toEqual([{ id: full }]);
      expectError(await t.get('/bug', { query: { offset: 1 } }), 50, 400);
      expectError(await t.get('/bug', { query: { limit: 'x' } }), 52, 400);
    });

    it('matches summary substrings (case-insensitive, % and _ literal) and people by login', async () => {
      expect((await t.get('/bug', { query: { summary: `${fullWord.toUpperCase()} B`, include_fields: 'id' } })).body.bugs).toEqual([{ id: full }]);
      expect((await t.get('/bug', { query: { ...ownBugs(), summary: ['nothing', plainWord], include_fields: 'id' } })).body.bugs).toEqual([{ id: plain }]);
      expect((await t.get('/bug', { query: { ...ownBugs(), summary: '%', include_fields: 'id' } })).body.bugs).toEqual([]);
      expect((await t.get('/bug', { query: { qa_contact: dev.login, include_fields: 'id' } })).body.bugs).toEqual([{ id: full }]);
      expect((await t.get('/bug', { query: { creator: 'nobody@example.com' } })).body.bugs).toEqual([]);
    });

    it('a search without criteria is 1000 while search_allow_no_criteria is off', async () => {
      await t.setParameters({ search_allow_no_criteria: '0' });
      try {
        expectError(await t.get('/bug'), 1000, 400);
      } finally {
        await t.setParameters({ search_allow_no_criteria: '1' });
      }
    });

    inProcessIt('a search without criteria answers every bug (all bugs of the instance)', async () => {
      expect((await t.get('/bug', { query: { include_fields: 'id' } })).body.bugs.map((b: any) => b.id)).toEqual([plain, full]);
    });

    it('filters by select fields and status pseudo-values', async () => {
      const res = await t.get('/bug', { query: { ...ownBugs(), product: 'TestProduct', status: '__open__', include_fields: 'id' } });
      expect(res.body.bugs.map((b: any) => b.id)).toEqual([plain, full]);
      expect((await t.get('/bug', { query: { ...ownBugs(), status: '__closed__' } })).body.bugs).toEqual([]);
      expect((await t.get('/bug', { query: { product: 'NoSuchProduct' } })).body.bugs).toEqual([]);
    });
  });

  describe('OpenAPI', () => {
    it('documents the query of Search Bugs, Get Bug and Bug history', async () => {
      const { paths } = (await t.get('/openapi.json')).body;
      const parameters = (path: string) => Object.fromEntries(paths[path].get.parameters.map((p: any) => [p.name, p]));
      const search = parameters('/rest/bug');
      expect(Object.keys(search)).toEqual(expect.arrayContaining([
        'id', 'alias', 'product', 'component', 'version', 'target_milestone', 'status', 'resolution', 'priority', 'severity',
        'op_sys', 'platform', 'summary', 'whiteboard', 'url', 'assigned_to', 'creator', 'qa_contact', 'tags',
        'creation_time', 'last_change_time', 'limit', 'offset', 'include_fields', 'exclude_fields',
      ]));
      expect(search.status).toMatchObject({ in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } } });
      expect(search.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'number' } });
      expect(search.product.description).toEqual(expect.any(String));
      expect(Object.keys(parameters('/rest/bug/{id_or_alias}'))).toEqual(expect.arrayContaining(['id_or_alias', 'ids', 'permissive', 'include_fields']));
      expect(Object.keys(parameters('/rest/bug/{id_or_alias}/history'))).toEqual(expect.arrayContaining(['id_or_alias', 'ids', 'new_since']));
    });
  });

  describe('custom fields', () => {
    let bugId: number;
    const cf = {
      text: customFieldNamed('cf_text'), select: customFieldNamed('cf_select'), multi: customFieldNamed('cf_multi'),
      bug: customFieldNamed('cf_bug'), when: customFieldNamed('cf_when'), count: customFieldNamed('cf_count'),
    };
    beforeAll(async () => {
      const fields: Array<[string, string, number, string[]?]> = [
        [cf.text, 'Text', 1], [cf.select, 'Select', 2, ['one']], [cf.multi, 'Multi', 3, ['one', 'two']], [cf.bug, 'Bug', 6],
        [cf.when, 'When', 5], [cf.count, 'Count', 10],
      ];
      for (const [i, [name, description, type, values]] of fields.entries()) {
        ok(await t.post('/field/bug', { name, description, type, sort_key: (i + 1) * 10, ...(values ? { values } : {}) }, { key: ADMIN_API_KEY }));
      }
      bugId = await fileBug(t, {
        summary: 'custom', [cf.text]: 'hello', [cf.select]: 'one', [cf.multi]: ['two', 'one'], [cf.bug]: plain, [cf.when]: '2031-02-03 04:05:06', [cf.count]: '42',
      });
    });

    it('every custom field is shown by name, typed per field type', async () => {
      const bug = (await t.get(`/bug/${bugId}`)).body.bugs[0];
      expect(bug).toMatchObject({ [cf.text]: 'hello', [cf.select]: 'one', [cf.bug]: plain, [cf.when]: '2031-02-03T04:05:06Z', [cf.count]: 42 });
      expect([...bug[cf.multi]].sort()).toEqual(['one', 'two']);
    });

    it('a bug without values shows the empty value of each type', async () => {
      const bug = (await t.get(`/bug/${plain}`)).body.bugs[0];
      expect(bug).toMatchObject({ [cf.text]: '', [cf.select]: '---', [cf.multi]: [], [cf.bug]: null, [cf.when]: null, [cf.count]: 0 });
    });

    it('_custom selects only custom fields; a custom field named alone is returned alone', async () => {
      const custom = Object.keys((await t.get(`/bug/${bugId}`, { query: { include_fields: '_custom' } })).body.bugs[0]);
      expect(ownEntries(t, custom, (name) => Object.values(cf).includes(name)).sort()).toEqual([cf.bug, cf.count, cf.multi, cf.select, cf.text, cf.when]);
      expect((await t.get(`/bug/${bugId}`, { query: { include_fields: cf.text } })).body.bugs[0]).toEqual({ [cf.text]: 'hello' });
    });
  });

  describe('batching (one query per relation per page)', () => {
    // The mail worker polls the database in the background: the fewest of a few runs is the request's own count.
    const queries = async (work: () => Promise<unknown>, options: { cold?: boolean } = {}) => {
      const counts: number[] = [];
      for (let run = 0; run < 3; run++) {
        // Any audit row makes every kept bug stale (LoadedBugCache): the run then loads from the database.
        if (options.cold) await t.forgetKeptBugs();
        counts.push(await countQueries(work));
      }
      return Math.min(...counts);
    };
    const cold = { cold: true };

    /** Eleven bugs with every kind of relation, and `full`: a page of twelve. */
    let more: number[];
    beforeAll(async () => {
      more = [];
      for (let i = 0; i < 11; i++) {
        more.push(await fileBug(t, { summary: `batch ${i}`, cc: [dev.login], keywords: [crash], depends_on: [plain], alias: [`batch-${i}`], flags: [{ name: review, status: '+' }] }));
      }
    });

    inProcessIt('Get Bug of 1 bug and of 12 bugs costs the same number of queries (counts statements)', async () => {
      const one = await queries(() => t.get(`/bug/${more[0]}`), cold);
      const twelve = await queries(() => t.get(`/bug/${more[0]}`, { query: { ids: [...more.slice(1), full] } }), cold);
      expect(twelve).toBe(one);
      const searchOne = await queries(() => t.get('/bug', { query: { id: more[0] } }), cold);
      const searchMany = await queries(() => t.get('/bug', { query: { id: more } }), cold);
      expect(searchMany).toBe(searchOne);
    });

    itWhen(inProcess, needsFastPaths)('an anonymous Get Bug costs 3 statements cold, 1 warm, 3 by alias (counts statements)', async () => {
      // Anonymous, cold: the settings mark with the stamps and their visibility (1, BugStampsCompanion), rows (1),
      // relations in one UNION (1); the parameters stay kept (under the settings mark, which filing bugs does not move).
      expect(await queries(() => t.get(`/bug/${more[0]}`), cold)).toBe(3);
      // Warm: the settings mark and the bugs' stamps (their revisions), in one statement.
      expect(await queries(() => t.get(`/bug/${more[0]}`, { query: { ids: [...more.slice(1), full] } }))).toBe(1);
      // By alias the route resolves the reference itself: the aliases, then the stamps.
      expect(await queries(() => t.get('/bug/batch-0'))).toBe(3);
    });

    it('a kept bug is never served stale: a change to it, or a rename it shows, is seen at once', async () => {
      const id = await fileBug(t, { summary: 'kept', cc: [dev.login] });
      expect((await t.get(`/bug/${id}`)).body.bugs[0].summary).toBe('kept');
      expect((await t.put(`/bug/${id}`, { summary: 'changed' }, { key: ADMIN_API_KEY })).status).toBe(200);
      expect((await t.get(`/bug/${id}`)).body.bugs[0].summary).toBe('changed');
      expect((await t.put(`/user/${dev.login}`, { full_name: 'Renamed Developer' }, { key: ADMIN_API_KEY })).status).toBe(200);
      const [bug] = (await t.get(`/bug/${id}`, { key: ADMIN_API_KEY })).body.bugs;
      expect(bug.cc_detail[0].real_name).toBe('Renamed Developer');
    });

    itWhen(inProcess, needsFastPaths)('a page larger than one chunk (500 bugs) is loaded in slices, still not per bug (writes bugs in the database, counts statements)', async () => {
      const bugs = t.db.read.repository(Bug);
      const { id: _plainId, ...copy } = await bugs.findOneByOrFail({ id: plain });
      const missing = 1100 - (await bugs.count());
      await t.db.transaction((tx) => insertRows(tx.repository(Bug), Array.from({ length: missing }, () => ({ ...copy, summary: 'copy' }))));
      const total = await bugs.count();
      let res: any;
      const count = await queries(async () => { res = await t.get('/bug', { query: { product: 'TestProduct', include_fields: 'id,cc' } }); }, cold);
      expect(res.body.bugs).toHaveLength(total);
      // the settings mark, the search, then stamps, rows and relations for each of the three slices.
      expect(count).toBe(2 + 3 * Math.ceil(total / 500));
    });

    itWhen(inProcess, needsFastPaths)('relations left out by include_fields are not queried at all (counts statements)', async () => {
      expect(await queries(() => t.get(`/bug/${plain}`, { query: { include_fields: 'id,summary' } }), cold)).toBe(2);
    });
  });

  // Last: it files bugs, which the searches above would count.
  it('lists the open bugs of depends_on and blocks first, then the closed ones, each by id (Bugzilla\'s EmitDependList)', async () => {
    const [first, second, third] = [await fileBug(t), await fileBug(t), await fileBug(t)];
    const hub = await fileBug(t, { depends_on: [first, second, third] });
    const lists = async (id: number) => (await t.get(`/bug/${id}`, { query: { include_fields: 'depends_on,blocks' } })).body.bugs[0];
    const blocker = await fileBug(t, { blocks: [first, second, third] });
    expect((await lists(hub)).depends_on).toEqual([first, second, third]);
    expect((await lists(blocker)).blocks).toEqual([first, second, third]);
    // Closing a bug reorders the lists of the bugs that name it, though they did not change themselves.
    ok(await t.put(`/bug/${first}`, { status: 'RESOLVED', resolution: 'FIXED' }, { key: ADMIN_API_KEY }));
    expect((await lists(hub)).depends_on).toEqual([second, third, first]);
    expect((await lists(blocker)).blocks).toEqual([second, third, first]);
    ok(await t.put(`/bug/${third}`, { status: 'RESOLVED', resolution: 'FIXED' }, { key: ADMIN_API_KEY }));
    expect((await lists(hub)).depends_on).toEqual([second, first, third]);
    ok(await t.put(`/bug/${first}`, { status: 'CONFIRMED', resolution: '' }, { key: ADMIN_API_KEY }));
    expect((await lists(hub)).depends_on).toEqual([first, second, third]);
    expect((await lists(blocker)).blocks).toEqual([first, second, third]);
  });
});
