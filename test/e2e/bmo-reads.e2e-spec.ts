import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { inProcessIt, named } from '../support/in-process.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { expectError, fileBug, productGroup } from './bug-fixtures.js';

/** BMO's read extras beyond Bugzilla 5.0 (issue 43): Possible Duplicates and User Suggest. */
describe('BMO read extras', () => {
  let t: TestApp;
  const admin = { key: ADMIN_API_KEY };
  let outsider: { id: number; login: string; apiKey: string };
  let insider: { id: number; login: string; apiKey: string };

  beforeAll(async () => {
    t = await startTestApp();
    outsider = await t.createUser(`${named('dupes-outsider')}@example.com`);
  });
  afterAll(() => t.close());

  describe('GET /rest/bug/possible_duplicates', () => {
    const product = named('Dupland');
    const hiders = named('dupland-hiders');
    // Words no other bug of a shared instance has.
    const [w1, w2, w3] = ['quaggle', 'frobnitz', 'wibbler'].map((w) => named(w));
    const idsOf = (res: { body: { bugs: Array<{ id: number }> } }) => res.body.bugs.map((bug) => bug.id);
    const ask = (query: Record<string, string | number | boolean | Array<string | number>>, key = outsider.apiKey) => t.get('/bug/possible_duplicates', { key, query });
    let a: number; let b: number; let c: number; let d: number; let hidden: number; let elsewhere: number;

    beforeAll(async () => {
      await createProduct(t, product);
      await productGroup(t, hiders, { product });
      insider = await t.createUser(`${named('dupes-insider')}@example.com`, { groups: [hiders] });
      const file = (summary: string, extra: Record<string, unknown> = {}) =>
        fileBug(t, { product, component: 'General', version: '1.0', summary, ...extra });
      a = await file(`${w1} ${w2} ${w3}: crash`);
      b = await file(`${w1}, ${w2} other`);
      c = await file(`(${w1}) nothing`);
      d = await file(`${w1} ${w2} ${w3} again`);
      expect((await t.put(`/bug/${d}`, { status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: a }, admin)).status).toBe(200);
      hidden = await file(`${w1} ${w2} ${w3} secret`, { groups: [hiders] });
      elsewhere = await fileBug(t, { summary: `${w1} ${w2} ${w3} in the test product` });
    });

    it('ranks by the words shared, newest first among equals; a duplicate counts as its original; hidden bugs never show', async () => {
      const summary = `${w1} ${w2} ${w3}`;
      const res = await ask({ summary, product });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['bugs']);
      expect(idsOf(res)).toEqual([a, b, c]);
      expect(idsOf(await ask({ summary, product }, insider.apiKey))).toEqual([hidden, a, b, c]);
      expect(idsOf(await ask({ summary }))).toEqual([elsewhere, a, b, c]);
      expect(idsOf(await ask({ summary, product, limit: 2 }))).toEqual([a, b]);
    });

    it('a duplicate of a duplicate counts as the last original', async () => {
      const chained = await fileBug(t, { product, component: 'General', version: '1.0', summary: `${w1} ${w2} ${w3} chained` });
      expect((await t.put(`/bug/${chained}`, { status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: d }, admin)).status).toBe(200);
      expect(idsOf(await ask({ summary: `${w1} ${w2} ${w3}`, product }))).toEqual([a, b, c]);
    });

    it('at most 25 bugs, whatever the limit (unset, 0 or larger)', async () => {
      const word = named('manymatch');
      const filed: number[] = [];
      for (let i = 0; i < 26; i++) filed.push(await fileBug(t, { product, component: 'General', version: '1.0', summary: `${word} ${i}` }));
      const newest = filed.slice(1).reverse();
      for (const limit of [undefined, 0, 26]) {
        expect(idsOf(await ask({ summary: word, product, ...(limit === undefined ? {} : { limit }) }))).toEqual(newest);
      }
    });

    it('the bugs are Get Bug\'s objects, include_fields as Get Bug', async () => {
      const full = await ask({ summary: `${w1} ${w2} ${w3}`, product, limit: 1 });
      const got = await t.get(`/bug/${a}`, { key: outsider.apiKey });
      // update_token carries the second it was made in: the two reads may fall in different seconds.
      const withoutToken = ({ update_token: token, ...bug }: { update_token: string }) => {
        expect(token).toMatch(/^\d+-\S+$/);
        return bug;
      };
      expect(full.body.bugs.map(withoutToken)).toEqual(got.body.bugs.map(withoutToken));
      const some = await ask({ summary: `${w1} ${w2} ${w3}`, product, include_fields: 'id,summary' });
      expect(some.body.bugs[0]).toEqual({ id: a, summary: `${w1} ${w2} ${w3}: crash` });
    });

    it('by id: the bug\'s own summary is searched for and the bug left out; 101 unknown, 102 hidden', async () => {
      expect(idsOf(await ask({ id: b, product }))).toEqual([a, c]);
      expectError(await ask({ id: 99999999 }), 101, 404);
      expectError(await ask({ id: hidden }), 102, 401);
    });

    it('words of 2 characters or fewer do not count; no id nor summary is 50; other parameters are 53, as BMO', async () => {
      expect((await ask({ summary: 'a to ?! of' })).body).toEqual({ bugs: [] });
      expectError(await ask({}), 50, 400);
      expectError(await ask({ summary: w1, exclude_fields: 'id' }), 53, 400);
      expectError(await ask({ summary: w1, status: 'NEW' }), 53, 400);
      expectError(await ask({ summary: w1, limit: 'many' }), 52, 400);
    });

    it('a product must be one the caller may file bugs in (106)', async () => {
      expectError(await ask({ summary: w1, product: named('no-such-product') }), 106, 401);
      const closed = named('Dupland-closed');
      await createProduct(t, closed);
      await productGroup(t, named('dupland-entry'), { product: closed, entry: true });
      expectError(await ask({ summary: w1, product: [product, closed] }), 106, 401);
    });

    // Aliases are one namespace per instance: this one would be left behind on a running instance.
    inProcessIt('the route wins over a bug aliased possible_duplicates, which Get Bug still reaches by id', async () => {
      const aliased = await fileBug(t, { summary: 'aliased', alias: ['possible_duplicates'] });
      expectError(await t.get('/bug/possible_duplicates', admin), 50, 400);
      expect((await t.get(`/bug/${aliased}`, admin)).body.bugs[0].alias).toEqual(['possible_duplicates']);
    });
  });

  describe('GET /rest/user/suggest', () => {
    const prefix = `${named('zq')}-`;
    const realName = named('Quillon');
    let ann: { id: number; login: string };
    let bob: { id: number; login: string };
    const suggest = (match: string | undefined) => t.get('/user/suggest', { key: outsider.apiKey, query: match === undefined ? {} : { match } });
    const loginsOf = (res: { body: { users: Array<{ name: string }> } }) => res.body.users.map((u) => u.name);

    beforeAll(async () => {
      ann = await t.createUser(`${prefix}ann@example.com`, { realName: `${realName} Zephyr` });
      bob = await t.createUser(`${prefix}bob@example.com`, { realName: 'bob smith' });
      await t.createUser(`${prefix}gone@example.com`, { disabled: 'Gone' });
    });

    it('a login\'s beginning: enabled accounts by login, {id, real_name, nick, name} each', async () => {
      const res = await suggest(prefix);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        users: [
          { id: ann.id, real_name: `${realName} Zephyr`, nick: ann.login.split('@')[0], name: ann.login },
          { id: bob.id, real_name: 'bob smith', nick: bob.login.split('@')[0], name: bob.login },
        ],
      });
    });

    it(':nick and @nick match a nick\'s beginning, text with an @ a login\'s', async () => {
      expect(loginsOf(await suggest(`:${prefix}a`))).toEqual([ann.login]);
      expect(loginsOf(await suggest(`@${prefix}b`))).toEqual([bob.login]);
      expect(loginsOf(await suggest(`${prefix}ann@exa`))).toEqual([ann.login]);
    });

    it('real names: text with a space matches their words, capitalised text too, lower-case text only logins', async () => {
      expect(loginsOf(await suggest(`${realName} Zeph`))).toEqual([ann.login]);
      expect(loginsOf(await suggest(`zephyr ${realName}`))).toEqual([ann.login]);
      expect(loginsOf(await suggest(realName))).toEqual([ann.login]);
      expect(loginsOf(await suggest(realName.toLowerCase()))).toEqual([]);
    });

    it('at most 25 accounts', async () => {
      const many = `${named('zcap')}-`;
      for (let i = 0; i < 26; i++) await t.createUser(`${many}${String(i).padStart(2, '0')}@example.com`);
      const res = await suggest(many);
      expect(loginsOf(res)).toEqual(Array.from({ length: 25 }, (_, i) => `${many}${String(i).padStart(2, '0')}@example.com`));
    });

    it('under 3 characters answers none; no match is 50; anonymous callers get 505', async () => {
      expect((await suggest('  zq  ')).body).toEqual({ users: [] });
      const missing = await suggest(undefined);
      expectError(missing, 50, 400);
      expect(missing.body.message).toContain('User.suggest');
      expectError(await t.get('/user/suggest', { query: { match: prefix } }), 505, 401);
    });
  });

  it('both routes are marked beyond Bugzilla 5.0 (BMO) in the OpenAPI document', async () => {
    const { paths } = (await t.get('/openapi.json')).body;
    expect(paths['/rest/bug/possible_duplicates'].get.summary).toContain('Beyond Bugzilla 5.0 (BMO)');
    expect(paths['/rest/user/suggest'].get.summary).toContain('Beyond Bugzilla 5.0 (BMO)');
  });
});
