import { ADMIN_API_KEY, countQueries, startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, documentedParameters, expectCodedError, ok, ownEntries, withOwnFlagTypes } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { fileBug } from './bug-fixtures.js';

/** A product id no instance holds. */
const UNKNOWN_PRODUCT_ID = 99999999;

describe('Products: lists, Get, Create, Update, group controls, versions and milestones', () => {
  let t: TestApp;
  let outsider: { id: number; apiKey: string };
  let insider: { id: number; apiKey: string };
  let editor: { id: number; login: string; apiKey: string };
  const secretGroup = named('secretgrp');
  const entryGroup = named('entrygrp');
  const names = {
    Public: named('Public'), Secret: named('Secret'), EntryOnly: named('EntryOnly'), Closed: named('Closed'), Empty: named('Empty'),
    TestProduct: 'TestProduct',
  };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp();
    await createBugGroup(t, secretGroup);
    await createBugGroup(t, entryGroup);
    outsider = await t.createUser(loginNamed('outsider'));
    insider = await t.createUser(loginNamed('insider'), { groups: [secretGroup, entryGroup] });
    editor = await t.createUser(loginNamed('editor'), { groups: ['editcomponents'] });
    ids.Public = await createProduct(t, names.Public);
    ids.Secret = await createProduct(t, names.Secret, {
      group_controls: [{ group: secretGroup, membercontrol: 'mandatory', othercontrol: 'mandatory', entry: true }],
    });
    ids.EntryOnly = await createProduct(t, names.EntryOnly, {
      group_controls: [{ group: entryGroup, membercontrol: 'shown', othercontrol: 'shown', entry: true }],
    });
    ids.Closed = await createProduct(t, names.Closed, { is_open: false });
    ids.Empty = await createProduct(t, names.Empty, {}, false);
    ids.TestProduct = ok(await t.get('/product/TestProduct')).products[0].id;
  });
  afterAll(() => t.close());

  /** A product list of the caller, narrowed to this file's products and TestProduct on a shared instance. */
  const list = async (route: string, key?: string) =>
    ownEntries(t, ok(await t.get(route, { key })).ids as number[], (id) => Object.values(ids).includes(id));
  const productNames = (products: Array<{ name: string }>) =>
    ownEntries(t, products.map((p) => p.name), (name) => Object.values(names).includes(name));

  describe('product_selectable / _enterable / _accessible follow group controls and is_active', () => {
    it('an outsider: selectable skips the mandatory-group product; enterable also skips entry groups, closed and componentless products', async () => {
      expect((await list('/product_selectable', outsider.apiKey)).sort()).toEqual(
        [ids.TestProduct, ids.Public, ids.EntryOnly, ids.Closed, ids.Empty].sort());
      expect((await list('/product_enterable', outsider.apiKey)).sort()).toEqual([ids.TestProduct, ids.Public].sort());
      expect((await list('/product_accessible', outsider.apiKey))).toEqual(
        [ids.TestProduct, ids.Public, ids.EntryOnly, ids.Closed, ids.Empty].sort((a, b) => a - b));
    });

    it('a member of the groups: the restricted products become selectable and enterable', async () => {
      expect(await list('/product_selectable', insider.apiKey)).toContain(ids.Secret);
      expect((await list('/product_enterable', insider.apiKey)).sort()).toEqual([ids.TestProduct, ids.Public, ids.Secret, ids.EntryOnly].sort());
      expect(await list('/product_accessible', insider.apiKey)).toContain(ids.Secret);
    });

    it('anonymous callers get the same lists as an outsider, ids as JSON integers', async () => {
      const accessible = await list('/product_accessible');
      expect(accessible).not.toContain(ids.Secret);
      expect(accessible.every((id) => typeof id === 'number')).toBe(true);
    });
  });

  describe('a product restricted to a group is invisible to outsiders in every product call', () => {
    it('by path name and id, by ids and names, and by every type', async () => {
      const queries: Array<{ path: string; query?: Record<string, string | number | string[]> }> = [
        { path: `/product/${names.Secret}` },
        { path: `/product/${ids.Secret}` },
        { path: '/product', query: { ids: ids.Secret } },
        { path: '/product', query: { names: names.Secret.toLowerCase() } },
        { path: '/product', query: { type: ['accessible', 'selectable', 'enterable'] } },
      ];
      for (const query of queries) {
        const res = ok(await t.get(query.path, { key: outsider.apiKey, query: query.query }));
        expect(res.products.map((p: any) => p.name)).not.toContain(names.Secret);
        const member = ok(await t.get(query.path, { key: insider.apiKey, query: query.query }));
        expect(member.products.map((p: any) => p.name)).toContain(names.Secret);
      }
    });

    it('an unknown product is silently left out too, no error', async () => {
      expect(ok(await t.get('/product/NoSuchProduct')).products).toEqual([]);
      expect(ok(await t.get('/product', { query: { ids: [UNKNOWN_PRODUCT_ID, ids.Public] } })).products.map((p: any) => p.id)).toEqual([ids.Public]);
    });
  });

  describe('Get Product', () => {
    it('returns the product fields, components, versions and milestones (inactive ones included)', async () => {
      const [fetched] = ok(await t.get(`/product/${names.Public}`)).products;
      const product = { ...fetched, components: fetched.components.map((c: any) => withOwnFlagTypes(t, c)) };
      expect(product).toEqual({
        id: ids.Public, name: names.Public, description: `${names.Public} product`, is_active: true, default_milestone: '---',
        has_unconfirmed: true, classification: 'Unclassified',
        components: [{
          id: expect.any(Number), name: 'General', description: 'General things', default_assigned_to: 'admin@example.com',
          default_qa_contact: '', sort_key: 0, is_active: true, flag_types: { bug: [], attachment: [] },
        }],
        versions: [{ id: expect.any(Number), name: '1.0', sort_key: 0, is_active: true }],
        milestones: [{ id: expect.any(Number), name: '---', sort_key: 0, is_active: true }],
      });
      const closed = ok(await t.get(`/product/${names.Closed}`)).products[0];
      expect(closed.is_active).toBe(false);
    });

    it('names match case-insensitively; the path segment merges with ids/names (GET /rest/product/get?names=…)', async () => {
      expect(ok(await t.get('/product', { query: { names: names.Public.toUpperCase() } })).products.map((p: any) => p.name)).toEqual([names.Public]);
      expect(ok(await t.get('/product/get', { query: { names: names.Public } })).products.map((p: any) => p.name)).toEqual([names.Public]);
      const both = ok(await t.get(`/product/${ids.Public}`, { query: { names: names.Closed } })).products.map((p: any) => p.name);
      expect(both.sort()).toEqual([names.Closed, names.Public].sort());
    });

    it('type limits the result to the union of the lists; with ids or names it narrows them', async () => {
      const enterable = productNames(ok(await t.get('/product', { key: outsider.apiKey, query: { type: 'enterable' } })).products);
      expect(enterable.sort()).toEqual([names.Public, 'TestProduct'].sort());
      const narrowed = ok(await t.get('/product', { key: outsider.apiKey, query: { type: 'enterable', names: [names.Closed, names.Public] } }));
      expect(narrowed.products.map((p: any) => p.name)).toEqual([names.Public]);
    });

    it('without ids, names or type: 50; an unknown type: 32000 (get_products_invalid_type)', async () => {
      expectCodedError(await t.get('/product'), 50, 400);
      expectCodedError(await t.get('/product', { query: { type: 'everything' } }), 32000, 400);
    });

    it('field selection with subfields: components.name keeps only component names', async () => {
      const [product] = ok(await t.get(`/product/${names.Public}`, { query: { include_fields: 'name,components.name' } })).products;
      expect(product).toEqual({ name: names.Public, components: [{ name: 'General' }] });
      const [withTypes] = ok(await t.get(`/product/${names.Public}`, { query: { include_fields: 'components.flag_types' } })).products;
      expect({ components: withTypes.components.map((c: any) => withOwnFlagTypes(t, c)) }).toEqual({ components: [{ flag_types: { bug: [], attachment: [] } }] });
      const [excluded] = ok(await t.get(`/product/${names.Public}`, { query: { exclude_fields: 'components,versions,milestones,description' } })).products;
      expect(Object.keys(excluded).sort()).toEqual(['classification', 'default_milestone', 'has_unconfirmed', 'id', 'is_active', 'name']);
      const [noFlagTypes] = ok(await t.get(`/product/${names.Public}`, { query: { include_fields: 'components', exclude_fields: 'components.flag_types' } })).products;
      expect(Object.keys(noFlagTypes.components[0])).not.toContain('flag_types');
      expect(noFlagTypes.components[0].name).toBe('General');
    });

    it('group_controls are shown to editcomponents members only (beyond 5.0)', async () => {
      const [asAdmin] = ok(await t.get(`/product/${names.Secret}`, { key: ADMIN_API_KEY })).products;
      expect(asAdmin.group_controls).toEqual([{
        group: secretGroup, entry: true, membercontrol: 'mandatory', othercontrol: 'mandatory', canedit: false,
        editcomponents: false, editbugs: false, canconfirm: false,
      }]);
      const [asMember] = ok(await t.get(`/product/${names.Secret}`, { key: insider.apiKey })).products;
      expect(asMember).not.toHaveProperty('group_controls');
    });
  });

  describe('Create Product', () => {
    let createdId: number;

    it('creates the product with its first version and default milestone', async () => {
      const created = named('Created');
      const id = ok(await t.post('/product', {
        name: created, description: 'made here', version: '2.0', default_milestone: 'M1', has_unconfirmed: false,
      }, { key: editor.apiKey })).id;
      expect(typeof id).toBe('number');
      const [product] = ok(await t.get(`/product/${id}`, { key: editor.apiKey })).products;
      expect(product).toMatchObject({
        name: created, is_active: true, has_unconfirmed: false, default_milestone: 'M1', classification: 'Unclassified',
        components: [], versions: [{ name: '2.0', is_active: true }], milestones: [{ name: 'M1', sort_key: 0 }],
      });
      createdId = id;
    });

    inProcessIt('audits the creation (reads the audit log)', async () => {
      const audit = (await t.auditOf('Tracker::Product', createdId)).map(({ field, added }) => ({ field, added }));
      expect(audit).toEqual([{ field: '__create__', added: 'Created' }]);
    });

    it('needs a login (410) and editcomponents (304)', async () => {
      expectCodedError(await t.post('/product', { name: 'X', description: 'x', version: '1' }), 410, 401);
      expectCodedError(await t.post('/product', { name: 'X', description: 'x', version: '1' }, { key: outsider.apiKey }), 304, 401);
    });

    it('validates name (700, 701, 702 taken, 702 differing only in case), description (703) and version (704)', async () => {
      const valid = named('Valid');
      const create = (body: Record<string, unknown>) => t.post('/product', { name: valid, description: 'd', version: '1', ...body }, { key: ADMIN_API_KEY });
      expectCodedError(await create({ name: '  ' }), 700, 400);
      expectCodedError(await create({ name: 'x'.repeat(65) }), 701, 400);
      const taken = await create({ name: names.Public });
      expectCodedError(taken, 702, 400);
      expect(taken.body.message).toContain('already exists');
      const inCase = await create({ name: names.Public.toUpperCase() });
      expectCodedError(inCase, 702, 400);
      expect(inCase.body.message).toContain('only in case');
      expectCodedError(await create({ description: '' }), 703, 400);
      expectCodedError(await create({ version: ' ' }), 704, 400);
      expect(ok(await t.get(`/product/${valid}`)).products).toEqual([]);
    });

    it('classification is ignored while useclassification is off; when on it must exist (51)', async () => {
      const [classless, classy] = [named('Classless'), named('Classy')];
      const id = ok(await t.post('/product', { name: classless, description: 'd', version: '1', classification: 'Nope' }, { key: ADMIN_API_KEY })).id;
      expect(ok(await t.get(`/product/${id}`)).products[0].classification).toBe('Unclassified');
      await t.setParameters({ useclassification: '1' });
      try {
        expectCodedError(await t.post('/product', { name: classy, description: 'd', version: '1', classification: 'Nope' }, { key: ADMIN_API_KEY }), 51, 404);
        const made = ok(await t.post('/product', { name: classy, description: 'd', version: '1', classification: 'Unclassified' }, { key: ADMIN_API_KEY })).id;
        expect(typeof made).toBe('number');
      } finally {
        await t.setParameters({ useclassification: '0' });
      }
    });

    it('group_controls: unknown group 51, bad value 32000, illegal combination 32000, system group 32000; nothing is created', async () => {
      const grouped = named('Grouped');
      const create = (controls: unknown) => t.post('/product', { name: grouped, description: 'd', version: '1', group_controls: controls }, { key: ADMIN_API_KEY });
      expectCodedError(await create([{ group: 'nosuchgroup', membercontrol: 'shown', othercontrol: 'shown' }]), 51, 404);
      expectCodedError(await create([{ group: secretGroup, membercontrol: 'always', othercontrol: 'na' }]), 32000, 400);
      const illegal = await create([{ group: secretGroup, membercontrol: 'mandatory', othercontrol: 'na' }]);
      expectCodedError(illegal, 32000, 400);
      expect(illegal.body.message).toContain(secretGroup);
      expectCodedError(await create([{ group: 'editbugs', membercontrol: 'shown', othercontrol: 'shown' }]), 32000, 400);
      expectCodedError(await create({ group: secretGroup }), 53, 400);
      expect(ok(await t.get(`/product/${grouped}`, { key: ADMIN_API_KEY })).products).toEqual([]);
    });
  });

  describe('Update Product', () => {
    it('answers changes with booleans as "1"/"0"', async () => {
      ok(await t.post(`/product/${names.Public}/milestone`, { name: '2.0' }, { key: ADMIN_API_KEY }));
      const res = ok(await t.put(`/product/${names.Public}`, {
        description: 'Now public', has_unconfirmed: false, is_open: true, default_milestone: '2.0',
      }, { key: editor.apiKey }));
      expect(res).toEqual({
        products: [{
          id: ids.Public,
          changes: {
            description: { removed: `${names.Public} product`, added: 'Now public' },
            has_unconfirmed: { removed: '1', added: '0' },
            default_milestone: { removed: '---', added: '2.0' },
          },
        }],
      });
    });

    inProcessIt('records the changes in the audit log (reads it)', async () => {
      const audit = (await t.auditOf('Tracker::Product', ids.Public))
        .filter((a) => a.field !== '__create__')
        .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0))
        .map(({ field, removed, added }) => ({ field, removed, added }));
      expect(audit).toEqual([
        { field: 'default_milestone', removed: '---', added: '2.0' },
        { field: 'description', removed: 'Public product', added: 'Now public' },
        { field: 'has_unconfirmed', removed: '1', added: '0' },
      ]);
    });

    it('an unchanged name is no change', async () => {
      const again = ok(await t.put(`/product/${names.Public}`, { is_open: false, name: names.Public }, { key: editor.apiKey }));
      expect(again.products[0].changes).toEqual({ is_open: { removed: '1', added: '0' } });
      ok(await t.put(`/product/${names.Public}`, { is_open: true }, { key: editor.apiKey }));
    });

    it('a default_milestone that is not a milestone of the product is 705, and nothing changes', async () => {
      expectCodedError(await t.put(`/product/${names.Public}`, { description: 'changed?', default_milestone: 'NoSuch' }, { key: ADMIN_API_KEY }), 705, 400);
      expect(ok(await t.get(`/product/${names.Public}`)).products[0].description).toBe('Now public');
    });

    it('a name for several products is 702 and nothing changes; renaming one works', async () => {
      const [shared, shut] = [named('Shared'), named('Shut')];
      expectCodedError(await t.put(`/product/${names.Closed}`, { ids: [ids.Empty], name: shared }, { key: ADMIN_API_KEY }), 702, 400);
      expect(ok(await t.get(`/product/${shared}`)).products).toEqual([]);
      expectCodedError(await t.put(`/product/${names.Closed}`, { name: names.Public.toLowerCase() }, { key: ADMIN_API_KEY }), 702, 400);
      const renamed = ok(await t.put(`/product/${names.Closed}`, { name: shut }, { key: ADMIN_API_KEY }));
      expect(renamed.products[0].changes).toEqual({ name: { removed: names.Closed, added: shut } });
      ok(await t.put(`/product/${ids.Closed}`, { name: names.Closed }, { key: ADMIN_API_KEY }));
    });

    it('updates several products named by path, ids and names, in that order', async () => {
      const res = ok(await t.put(`/product/${names.Closed}`, { ids: [ids.Empty], names: [names.EntryOnly], description: 'same for all' }, { key: ADMIN_API_KEY }));
      expect(res.products.map((p: any) => p.id)).toEqual([ids.Empty, ids.Closed, ids.EntryOnly]);
      expect(res.products.every((p: any) => p.changes.description.added === 'same for all')).toBe(true);
    });

    it('an unknown or inaccessible product is 106; a blank description 703; no login 410; no editcomponents 304', async () => {
      expectCodedError(await t.put('/product/NoSuch', { description: 'x' }, { key: ADMIN_API_KEY }), 106, 401);
      expectCodedError(await t.put(`/product/${UNKNOWN_PRODUCT_ID}`, { description: 'x' }, { key: ADMIN_API_KEY }), 106, 401);
      expectCodedError(await t.put(`/product/${names.Secret}`, { description: 'x' }, { key: editor.apiKey }), 106, 401);
      expectCodedError(await t.put(`/product/${names.Public}`, { description: ' ' }, { key: ADMIN_API_KEY }), 703, 400);
      expectCodedError(await t.put(`/product/${names.Public}`, { description: 'x' }), 410, 401);
      expectCodedError(await t.put(`/product/${names.Public}`, { description: 'x' }, { key: insider.apiKey }), 304, 401);
    });

    it('group_controls change who may see the product, with a group_controls change', async () => {
      const res = ok(await t.put(`/product/${names.EntryOnly}`, {
        group_controls: [{ group: entryGroup, membercontrol: 'mandatory', othercontrol: 'mandatory' }],
      }, { key: ADMIN_API_KEY }));
      expect(res.products[0].changes).toEqual({
        group_controls: { removed: `${entryGroup}:shown/shown,entry`, added: `${entryGroup}:mandatory/mandatory,entry` },
      });
      expect(await list('/product_accessible', outsider.apiKey)).not.toContain(ids.EntryOnly);
      const cleared = ok(await t.put(`/product/${names.EntryOnly}`, {
        group_controls: [{ group: entryGroup, membercontrol: 'na', othercontrol: 'na', entry: false }],
      }, { key: ADMIN_API_KEY }));
      expect(cleared.products[0].changes.group_controls.added).toBe('');
      expect(await list('/product_enterable', outsider.apiKey)).toContain(ids.EntryOnly);
      expect(ok(await t.get(`/product/${names.EntryOnly}`, { key: ADMIN_API_KEY })).products[0].group_controls).toEqual([]);
    });

    it('PUT /rest/product without a segment matches no route (32614)', async () => {
      expectCodedError(await t.request('PUT', '/product', { body: { description: 'x' }, key: ADMIN_API_KEY }), 32614, 404);
    });
  });

  describe('versions and milestones (beyond 5.0)', () => {
    it('creates a version and a milestone with sort keys, listed in sort-key order', async () => {
      const v = ok(await t.post(`/product/${names.Public}/version`, { name: '0.9', sort_key: -5 }, { key: editor.apiKey })).id;
      const m = ok(await t.post(`/product/${ids.Public}/milestone`, { name: 'Future', sort_key: 50, is_active: false }, { key: editor.apiKey })).id;
      const [product] = ok(await t.get(`/product/${names.Public}`, { query: { include_fields: 'versions,milestones' } })).products;
      expect(product.versions).toEqual([
        { id: v, name: '0.9', sort_key: -5, is_active: true }, { id: expect.any(Number), name: '1.0', sort_key: 0, is_active: true },
      ]);
      expect(product.milestones.map((x: any) => [x.name, x.sort_key, x.is_active])).toEqual([['---', 0, true], ['2.0', 0, true], ['Future', 50, false]]);
      expect(product.milestones[2].id).toBe(m);
    });

    it('renames a version and a milestone, carrying bugs and the default milestone along', async () => {
      const bug = await fileBug(t, { product: names.Public, component: 'General', version: '0.9', target_milestone: '2.0' });
      const res = ok(await t.put(`/product/${names.Public}/version/0.9`, { name: '0.9.1', is_active: false }, { key: editor.apiKey }));
      expect(res.versions[0].changes).toEqual({ name: { removed: '0.9', added: '0.9.1' }, is_active: { removed: '1', added: '0' } });
      const renamed = ok(await t.put(`/product/${names.Public}/milestone/2.0`, { name: '2.0-final', sort_key: 7 }, { key: editor.apiKey }));
      expect(renamed.milestones[0].changes).toEqual({ name: { removed: '2.0', added: '2.0-final' }, sort_key: { removed: '0', added: '7' } });
      expect(ok(await t.get(`/product/${names.Public}`)).products[0].default_milestone).toBe('2.0-final');
      expect(ok(await t.get(`/bug/${bug}`, { key: ADMIN_API_KEY })).bugs[0]).toMatchObject({ version: '0.9.1', target_milestone: '2.0-final' });
    });

    it('errors: duplicate, blank, too long, bad sort key, unknown value 51, default milestone cannot be disabled', async () => {
      const post = (kind: string, body: Record<string, unknown>) => t.post(`/product/${names.Public}/${kind}`, body, { key: editor.apiKey });
      for (const kind of ['version', 'milestone']) {
        expectCodedError(await post(kind, { name: '' }), 32000, 400);
        expectCodedError(await post(kind, { name: 'v'.repeat(65) }), 32000, 400);
        expectCodedError(await post(kind, { name: 'ok', sort_key: 'first' }), 32000, 400);
        expectCodedError(await post(kind, { name: 'ok', sort_key: 40000 }), 32000, 400);
        expectCodedError(await t.put(`/product/${names.Public}/${kind}/nosuch`, { name: 'x' }, { key: editor.apiKey }), 51, 404);
      }
      const duplicate = await post('version', { name: '1.0' });
      expectCodedError(duplicate, 32000, 400);
      expect(duplicate.body.message).toContain('already exists');
      expectCodedError(await post('milestone', { name: '---' }), 32000, 400);
      const disabled = await t.put(`/product/${names.Public}/milestone/2.0-final`, { is_active: false }, { key: editor.apiKey });
      expectCodedError(disabled, 32000, 400);
      expect(disabled.body.message).toContain('default milestone');
    });

    it('rights: 410 anonymous, 304 without editcomponents anywhere, 106 for an unknown product', async () => {
      expectCodedError(await t.post(`/product/${names.Public}/version`, { name: 'x' }), 410, 401);
      expectCodedError(await t.post(`/product/${names.Public}/version`, { name: 'x' }, { key: outsider.apiKey }), 304, 401);
      expectCodedError(await t.post('/product/NoSuch/version', { name: 'x' }, { key: editor.apiKey }), 106, 401);
      expectCodedError(await t.post(`/product/${names.Secret}/version`, { name: 'x' }, { key: editor.apiKey }), 106, 401);
    });
  });

  describe('typed input (DTOs)', () => {
    it('query values in Bugzilla encodings reach the DTO (is_open=0, has_unconfirmed=True); a value of the wrong type is 53 naming it', async () => {
      const res = ok(await t.request('PUT', `/product/${names.Public}`, { query: { is_open: '0', has_unconfirmed: 'True' }, key: ADMIN_API_KEY }));
      expect(res.products[0].changes).toEqual({ is_open: { removed: '1', added: '0' }, has_unconfirmed: { removed: '0', added: '1' } });
      ok(await t.put(`/product/${names.Public}`, { is_open: 1, has_unconfirmed: 'false' }, { key: ADMIN_API_KEY }));
      const wrong = await t.post('/product', { name: { text: 'X' }, description: 'x', version: '1' }, { key: ADMIN_API_KEY });
      expectCodedError(wrong, 53, 400);
      expect(wrong.body.message).toContain("'name'");
      expectCodedError(await t.put(`/product/${names.Public}`, { description: [{ b: 1 }, 'a'] }, { key: ADMIN_API_KEY }), 53, 400);
      expectCodedError(await t.post(`/product/${names.Public}/version`, { name: { v: 1 } }, { key: editor.apiKey }), 53, 400);
    });

    it('the OpenAPI document lists the parameters of Get, Create and Update Product and of versions and milestones', async () => {
      expect((await documentedParameters(t, '/product', 'get')).query).toEqual(expect.arrayContaining(['ids', 'names', 'type', 'include_fields']));
      expect((await documentedParameters(t, '/product/{id_or_name}', 'get')).query).toEqual(expect.arrayContaining(['ids', 'names', 'type']));
      expect((await documentedParameters(t, '/product', 'post')).body).toEqual(expect.arrayContaining([
        'name', 'description', 'version', 'has_unconfirmed', 'classification', 'default_milestone', 'is_open', 'create_series', 'group_controls',
      ]));
      const update = (await documentedParameters(t, '/product/{id_or_name}', 'put')).body;
      expect(update).toEqual(expect.arrayContaining(['ids', 'names', 'name', 'description', 'default_milestone', 'is_open', 'has_unconfirmed', 'group_controls']));
      expect(update).not.toContain('version');
      for (const kind of ['version', 'milestone']) {
        expect((await documentedParameters(t, `/product/{product}/${kind}`, 'post')).body).toEqual(['name', 'sort_key', 'sortkey', 'is_active']);
        expect((await documentedParameters(t, `/product/{product}/${kind}/{name}`, 'put')).body).toEqual(['name', 'sort_key', 'sortkey', 'is_active']);
      }
    });
  });

  describe('batching', () => {
    inProcessIt('Get Product loads a page with one query per relation, whatever the number of products and components', async () => {
      // Both counts start with nothing kept, so neither finds the caller's parameters and memberships kept.
      const page = async () => {
        await t.forgetKeptValues();
        return countQueries(() => t.get('/product', { key: ADMIN_API_KEY, query: { type: 'accessible' } }));
      };
      const before = await page();
      for (const name of ['Batch1', 'Batch2', 'Batch3']) {
        await createProduct(t, name, { group_controls: [{ group: secretGroup, membercontrol: 'shown', othercontrol: 'shown' }] });
        ok(await t.post('/component', { product: name, name: 'Second', description: 'd', default_assignee: editor.login }, { key: ADMIN_API_KEY }));
      }
      expect(await page()).toBe(before);
    });
  });
});
