import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, documentedParameters, expectCodedError, firstAudit, ok } from '../support/catalogue-fixtures.js';
import { fileBug } from './bug-fixtures.js';
import { FlagInclusion } from '../../src/flag/entities/flag-inclusion.entity.js';
import { ComponentCc } from '../../src/product/entities/component-cc.entity.js';

describe('Components: create, update, delete (admin-routes.md)', () => {
  let t: TestApp;
  let outsider: { id: number; apiKey: string };
  let editor: { id: number; apiKey: string };
  let productAdmin: { id: number; apiKey: string };
  let alpha: number;
  let beta: number;

  const component = async (product: string, name: string) => {
    const [p] = ok(await t.get(`/product/${product}`, { key: ADMIN_API_KEY, query: { include_fields: 'components' } })).products;
    return p?.components.find((c: any) => c.name === name);
  };

  beforeAll(async () => {
    t = await startTestApp();
    await createBugGroup(t, 'alphateam');
    await createBugGroup(t, 'hidden');
    outsider = await t.createUser('outsider@example.com');
    editor = await t.createUser('editor@example.com', { groups: ['editcomponents'] });
    productAdmin = await t.createUser('alpha-admin@example.com', { groups: ['alphateam'] });
    await t.createUser('qa@example.com');
    await t.createUser('cc1@example.com');
    await t.createUser('cc2@example.com');
    // alphateam members administer Alpha's components through the product-level editcomponents switch.
    alpha = await createProduct(t, 'Alpha', { group_controls: [{ group: 'alphateam', membercontrol: 'shown', othercontrol: 'shown', editcomponents: true }] }, false);
    beta = await createProduct(t, 'Beta', {}, false);
    await createProduct(t, 'Hidden', { group_controls: [{ group: 'hidden', membercontrol: 'mandatory', othercontrol: 'mandatory', entry: true }] });
  });
  afterAll(() => t.close());

  describe('create', () => {
    it('creates a component with its default assignee, QA contact, cc and is_open, audited', async () => {
      const id = ok(await t.post('/component', {
        product: 'Alpha', name: 'Engine', description: 'Makes it go', default_assignee: ADMIN_LOGIN,
        default_qa_contact: 'qa@example.com', default_cc: ['cc2@example.com', 'cc1@example.com'], is_open: false,
      }, { key: editor.apiKey })).id;
      expect(await component('Alpha', 'Engine')).toEqual({
        id, name: 'Engine', description: 'Makes it go', default_assigned_to: ADMIN_LOGIN, default_qa_contact: 'qa@example.com',
        sort_key: 0, is_active: false, flag_types: { bug: [], attachment: [] },
      });
      const cc = await t.db.read.repository(ComponentCc).find({ where: { componentId: id }, relations: { user: true } });
      expect(cc.map((r) => r.user!.loginName).sort()).toEqual(['cc1@example.com', 'cc2@example.com']);
      expect(await firstAudit(t, 'Tracker::Component', id))
        .toEqual({ field: '__create__', added: 'Engine' });
    });

    it('a member of a group with editcomponents on the product may create there, and only there (706)', async () => {
      const id = ok(await t.post('/component', { product: 'Alpha', name: 'Wheels', description: 'Round', default_assignee: ADMIN_LOGIN }, { key: productAdmin.apiKey })).id;
      expect(typeof id).toBe('number');
      expectCodedError(await t.post('/component', { product: 'Beta', name: 'Wheels', description: 'Round', default_assignee: ADMIN_LOGIN }, { key: productAdmin.apiKey }), 706, 400);
    });

    it('rights: 410 anonymous, 304 without editcomponents anywhere', async () => {
      const body = { product: 'Alpha', name: 'X', description: 'x', default_assignee: ADMIN_LOGIN };
      expectCodedError(await t.post('/component', body), 410, 401);
      expectCodedError(await t.post('/component', body, { key: outsider.apiKey }), 304, 401);
    });

    it('product: missing 50, unknown 106, invisible 106', async () => {
      const body = { name: 'X', description: 'x', default_assignee: ADMIN_LOGIN };
      expectCodedError(await t.post('/component', body, { key: editor.apiKey }), 50, 400);
      expectCodedError(await t.post('/component', { ...body, product: 'NoSuch' }, { key: editor.apiKey }), 106, 401);
      expectCodedError(await t.post('/component', { ...body, product: 'Hidden' }, { key: editor.apiKey }), 106, 401);
    });

    it('validation: 1210 blank name, 105 long name, 1200 existing name (any case), 1211 blank description, 1213 no assignee, 51 unknown users', async () => {
      const create = (body: Record<string, unknown>) =>
        t.post('/component', { product: 'Alpha', name: 'Fresh', description: 'd', default_assignee: ADMIN_LOGIN, ...body }, { key: editor.apiKey });
      expectCodedError(await create({ name: ' ' }), 1210, 400);
      expectCodedError(await create({ name: 'n'.repeat(65) }), 105, 400);
      expectCodedError(await create({ name: 'engine' }), 1200, 400);
      expectCodedError(await create({ description: '  ' }), 1211, 400);
      expectCodedError(await create({ default_assignee: '' }), 1213, 400);
      expectCodedError(await create({ default_assignee: 'nobody@example.com' }), 51, 404);
      expectCodedError(await create({ default_qa_contact: 'nobody@example.com' }), 51, 404);
      expectCodedError(await create({ default_cc: ['cc1@example.com', 'nobody@example.com'] }), 51, 404);
      expect(await component('Alpha', 'Fresh')).toBeUndefined();
    });
  });

  describe('state', () => {
    it('an inactive component refuses new bugs (value_inactive, 32000); an active one takes them', async () => {
      const bug = (component: string) => t.post('/bug', {
        product: 'Alpha', component, version: '1.0', summary: 'A bug', op_sys: 'All', platform: 'All',
      }, { key: ADMIN_API_KEY });
      ok(await t.post('/component', { product: 'Alpha', name: 'Retired', description: 'Old', default_assignee: ADMIN_LOGIN, is_open: false }, { key: editor.apiKey }));
      expectCodedError(await bug('Retired'), 32000, 400);
      ok(await t.post('/component', { product: 'Alpha', name: 'Current', description: 'New', default_assignee: ADMIN_LOGIN }, { key: editor.apiKey }));
      expect(typeof ok(await bug('Current')).id).toBe('number');
      const retired = await component('Alpha', 'Retired');
      ok(await t.request('DELETE', `/component/${retired.id}`, { key: editor.apiKey }));
    });
  });

  describe('update', () => {
    it('by product and name: changes with logins and booleans as "1"/"0"', async () => {
      const engine = await component('Alpha', 'Engine');
      const res = ok(await t.put('/component/Alpha/Engine', {
        name: 'Motor', description: 'Makes it go faster', default_assignee: 'qa@example.com', default_qa_contact: '',
        default_cc: ['cc1@example.com'], is_open: true,
      }, { key: editor.apiKey }));
      expect(res).toEqual({
        components: [{
          id: engine.id,
          changes: {
            name: { removed: 'Engine', added: 'Motor' },
            description: { removed: 'Makes it go', added: 'Makes it go faster' },
            default_assignee: { removed: ADMIN_LOGIN, added: 'qa@example.com' },
            default_qa_contact: { removed: 'qa@example.com', added: '' },
            default_cc: { removed: 'cc1@example.com, cc2@example.com', added: 'cc1@example.com' },
            is_open: { removed: '0', added: '1' },
          },
        }],
      });
      expect(await component('Alpha', 'Motor')).toMatchObject({ is_active: true, default_assigned_to: 'qa@example.com', default_qa_contact: '' });
    });

    it('by id, with body ids; unchanged values give empty changes; unknown ids are skipped', async () => {
      const motor = await component('Alpha', 'Motor');
      const wheels = await component('Alpha', 'Wheels');
      const res = ok(await t.put(`/component/${motor.id}`, { ids: [wheels.id, 9999], description: 'Makes it go faster' }, { key: editor.apiKey }));
      expect(res.components).toEqual([
        { id: motor.id, changes: {} },
        { id: wheels.id, changes: { description: { removed: 'Round', added: 'Makes it go faster' } } },
      ]);
    });

    it('one new name for several components of one product is 1212, nothing changes', async () => {
      const motor = await component('Alpha', 'Motor');
      const wheels = await component('Alpha', 'Wheels');
      expectCodedError(await t.put(`/component/${motor.id}`, { ids: [wheels.id], name: 'Same' }, { key: editor.apiKey }), 1212, 400);
      expectCodedError(await t.put('/component/Alpha/Motor', { name: 'wheels' }, { key: editor.apiKey }), 1200, 400);
      expect(await component('Alpha', 'Motor')).toBeDefined();
    });

    it('errors: 410, 304, 106 for an unknown product, 706 for a product the caller does not administer, 32614 for a non-numeric id', async () => {
      expectCodedError(await t.put('/component/Alpha/Motor', { description: 'x' }), 410, 401);
      expectCodedError(await t.put('/component/Alpha/Motor', { description: 'x' }, { key: outsider.apiKey }), 304, 401);
      expectCodedError(await t.put('/component/NoSuch/Motor', { description: 'x' }, { key: editor.apiKey }), 106, 401);
      ok(await t.post('/component', { product: 'Beta', name: 'Only', description: 'd', default_assignee: ADMIN_LOGIN }, { key: editor.apiKey }));
      expectCodedError(await t.put('/component/Beta/Only', { description: 'x' }, { key: productAdmin.apiKey }), 706, 400);
      const only = await component('Beta', 'Only');
      expectCodedError(await t.put(`/component/${only.id}`, { description: 'x' }, { key: productAdmin.apiKey }), 706, 400);
      expectCodedError(await t.put('/component/Motor', { description: 'x' }, { key: editor.apiKey }), 32614, 404);
      expectCodedError(await t.put('/component/Alpha/Motor', { description: ' ' }, { key: editor.apiKey }), 1211, 400);
    });
  });

  describe('delete', () => {
    it('a component that still has bugs is not deleted (1202)', async () => {
      const motor = await component('Alpha', 'Motor');
      await fileBug(t, { product: 'Alpha', component: motor.name, version: '1.0' });
      expectCodedError(await t.request('DELETE', '/component/Alpha/Motor', { key: editor.apiKey }), 1202, 400);
      expect(await component('Alpha', 'Motor')).toBeDefined();
    });

    it('the last component of a product is not deleted (1201)', async () => {
      expectCodedError(await t.request('DELETE', '/component/Beta/Only', { key: editor.apiKey }), 1201, 400);
    });

    it('deletes a component without bugs, with its cc and flag type inclusions', async () => {
      const wheels = await component('Alpha', 'Wheels');
      ok(await t.put(`/component/${wheels.id}`, { default_cc: [ADMIN_LOGIN] }, { key: ADMIN_API_KEY }));
      ok(await t.post('/flag_type', { name: 'review', description: 'r', inclusions: { Alpha: ['Wheels'] } }, { key: ADMIN_API_KEY }));
      expect((await t.db.read.repository(FlagInclusion).findBy({ componentId: wheels.id })).map(({ productId }) => ({ product_id: productId })))
        .toEqual([{ product_id: alpha }]);
      const res = ok(await t.request('DELETE', `/component/${wheels.id}`, { key: editor.apiKey }));
      expect(res).toEqual({ components: [{ id: wheels.id }] });
      expect(await component('Alpha', 'Wheels')).toBeUndefined();
      expect(await t.db.read.repository(ComponentCc).findBy({ componentId: wheels.id })).toEqual([]);
      expect(await t.db.read.repository(FlagInclusion).findBy({ componentId: wheels.id })).toEqual([]);
    });

    it('errors: 410 anonymous, 304 without rights, 706 for a product not administered', async () => {
      expectCodedError(await t.request('DELETE', '/component/Alpha/Motor'), 410, 401);
      expectCodedError(await t.request('DELETE', '/component/Alpha/Motor', { key: outsider.apiKey }), 304, 401);
      expectCodedError(await t.request('DELETE', '/component/Beta/Only', { key: productAdmin.apiKey }), 706, 400);
      expect(beta).toBeGreaterThan(0);
    });
  });

  describe('typed input (DTOs)', () => {
    it('default_cc as a comma list in the query; a list of objects or an object name is 53', async () => {
      const id = ok(await t.request('POST', '/component', {
        query: { product: 'Alpha', name: 'Typed', description: 'd', default_assignee: ADMIN_LOGIN, default_cc: 'cc1@example.com, cc2@example.com', is_open: 'False' },
        key: editor.apiKey,
      })).id;
      const [typed] = ok(await t.get(`/product/Alpha`, { key: ADMIN_API_KEY, query: { include_fields: 'components.name,components.is_active' } })).products[0].components
        .filter((c: any) => c.name === 'Typed');
      expect(typed).toEqual({ name: 'Typed', is_active: false });
      const audit = await t.db.read.repository(ComponentCc).findBy({ componentId: id });
      expect(audit).toHaveLength(2);
      expectCodedError(await t.put(`/component/${id}`, { default_cc: [{ login: 'cc1@example.com' }] }, { key: editor.apiKey }), 53, 400);
      expectCodedError(await t.post('/component', { product: 'Alpha', name: { n: 1 } }, { key: editor.apiKey }), 53, 400);
    });

    it('the OpenAPI document lists the parameters of create, update and delete', async () => {
      const create = ['product', 'name', 'component', 'description', 'default_assignee', 'default_cc', 'default_qa_contact', 'is_open', 'sort_key'];
      expect((await documentedParameters(t, '/component', 'post')).body).toEqual(create);
      for (const path of ['/component/{id}', '/component/{product}/{component}']) {
        expect((await documentedParameters(t, path, 'put')).body).toEqual(['ids', 'names', ...create.filter((p) => p !== 'product')]);
        expect((await documentedParameters(t, path, 'delete')).body).toEqual(['ids', 'names']);
      }
    });
  });

  describe('python-bugzilla wire shapes (addcomponent / editcomponent)', () => {
    it('creates with `component` as the name and updates with values inside `updates`', async () => {
      const created = ok(await t.post('/component', { product: 'Alpha', component: 'FromPython', description: 'made by python-bugzilla', default_assignee: ADMIN_LOGIN }, { key: editor.apiKey }));
      const updated = ok(await t.put('/component/Alpha/FromPython', {
        names: [{ product: 'Alpha', component: 'FromPython' }],
        updates: { description: 'edited by python-bugzilla' },
      }, { key: editor.apiKey }));
      expect(updated.components).toEqual([{ id: created.id, changes: { description: { removed: 'made by python-bugzilla', added: 'edited by python-bugzilla' } } }]);
    });
  });
});
