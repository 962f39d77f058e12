import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, documentedParameters, expectCodedError, firstAudit, ok, withOwnFlagTypes } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { fileBug } from './bug-fixtures.js';
import { FlagInclusion } from '../../src/flag/entities/flag-inclusion.entity.js';
import { ComponentCc } from '../../src/product/entities/component-cc.entity.js';

/** A component id no instance holds. */
const UNKNOWN_COMPONENT_ID = 99999999;

describe('Components: create, update, delete (admin-routes.md)', () => {
  let t: TestApp;
  let outsider: { id: number; apiKey: string };
  let editor: { id: number; apiKey: string };
  let productAdmin: { id: number; apiKey: string };
  let alpha: number;
  let beta: number;
  const alphaTeam = named('alphateam');
  const hiddenGroup = named('hidden');
  const names = { Alpha: named('Alpha'), Beta: named('Beta'), Hidden: named('Hidden') };
  const logins = { qa: loginNamed('qa'), cc1: loginNamed('cc1'), cc2: loginNamed('cc2') };

  const component = async (product: string, name: string) => {
    const [p] = ok(await t.get(`/product/${product}`, { key: ADMIN_API_KEY, query: { include_fields: 'components' } })).products;
    const found = p?.components.find((c: any) => c.name === name);
    return found && withOwnFlagTypes(t, found);
  };

  beforeAll(async () => {
    t = await startTestApp();
    await createBugGroup(t, alphaTeam);
    await createBugGroup(t, hiddenGroup);
    outsider = await t.createUser(loginNamed('outsider'));
    editor = await t.createUser(loginNamed('editor'), { groups: ['editcomponents'] });
    productAdmin = await t.createUser(loginNamed('alpha-admin'), { groups: [alphaTeam] });
    for (const login of Object.values(logins)) await t.createUser(login);
    // alphateam members administer Alpha's components through the product-level editcomponents switch.
    alpha = await createProduct(t, names.Alpha, { group_controls: [{ group: alphaTeam, membercontrol: 'shown', othercontrol: 'shown', editcomponents: true }] }, false);
    beta = await createProduct(t, names.Beta, {}, false);
    await createProduct(t, names.Hidden, { group_controls: [{ group: hiddenGroup, membercontrol: 'mandatory', othercontrol: 'mandatory', entry: true }] });
  });
  afterAll(() => t.close());

  describe('create', () => {
    let engineId: number;

    it('creates a component with its default assignee, QA contact, cc and is_open', async () => {
      engineId = ok(await t.post('/component', {
        product: names.Alpha, name: 'Engine', description: 'Makes it go', default_assignee: ADMIN_LOGIN,
        default_qa_contact: logins.qa, default_cc: [logins.cc2, logins.cc1], is_open: false,
      }, { key: editor.apiKey })).id;
      expect(await component(names.Alpha, 'Engine')).toEqual({
        id: engineId, name: 'Engine', description: 'Makes it go', default_assigned_to: ADMIN_LOGIN, default_qa_contact: logins.qa,
        sort_key: 0, is_active: false, flag_types: { bug: [], attachment: [] },
      });
    });

    inProcessIt('stores the default cc and audits the creation (reads the database)', async () => {
      const cc = await t.db.read.repository(ComponentCc).find({ where: { componentId: engineId }, relations: { user: true } });
      expect(cc.map((r) => r.user!.loginName).sort()).toEqual([logins.cc1, logins.cc2]);
      expect(await firstAudit(t, 'Tracker::Component', engineId))
        .toEqual({ field: '__create__', added: 'Engine' });
    });

    it('a member of a group with editcomponents on the product may create there, and only there (706)', async () => {
      const id = ok(await t.post('/component', { product: names.Alpha, name: 'Wheels', description: 'Round', default_assignee: ADMIN_LOGIN }, { key: productAdmin.apiKey })).id;
      expect(typeof id).toBe('number');
      expectCodedError(await t.post('/component', { product: names.Beta, name: 'Wheels', description: 'Round', default_assignee: ADMIN_LOGIN }, { key: productAdmin.apiKey }), 706, 400);
    });

    it('rights: 410 anonymous, 304 without editcomponents anywhere', async () => {
      const body = { product: names.Alpha, name: 'X', description: 'x', default_assignee: ADMIN_LOGIN };
      expectCodedError(await t.post('/component', body), 410, 401);
      expectCodedError(await t.post('/component', body, { key: outsider.apiKey }), 304, 401);
    });

    it('product: missing 50, unknown 106, invisible 106', async () => {
      const body = { name: 'X', description: 'x', default_assignee: ADMIN_LOGIN };
      expectCodedError(await t.post('/component', body, { key: editor.apiKey }), 50, 400);
      expectCodedError(await t.post('/component', { ...body, product: 'NoSuch' }, { key: editor.apiKey }), 106, 401);
      expectCodedError(await t.post('/component', { ...body, product: names.Hidden }, { key: editor.apiKey }), 106, 401);
    });

    it('validation: 1210 blank name, 105 long name, 1200 existing name (any case), 1211 blank description, 1213 no assignee, 51 unknown users', async () => {
      const create = (body: Record<string, unknown>) =>
        t.post('/component', { product: names.Alpha, name: 'Fresh', description: 'd', default_assignee: ADMIN_LOGIN, ...body }, { key: editor.apiKey });
      expectCodedError(await create({ name: ' ' }), 1210, 400);
      expectCodedError(await create({ name: 'n'.repeat(65) }), 105, 400);
      expectCodedError(await create({ name: 'engine' }), 1200, 400);
      expectCodedError(await create({ description: '  ' }), 1211, 400);
      expectCodedError(await create({ default_assignee: '' }), 1213, 400);
      expectCodedError(await create({ default_assignee: 'nobody@example.com' }), 51, 404);
      expectCodedError(await create({ default_qa_contact: 'nobody@example.com' }), 51, 404);
      expectCodedError(await create({ default_cc: [logins.cc1, 'nobody@example.com'] }), 51, 404);
      expect(await component(names.Alpha, 'Fresh')).toBeUndefined();
    });
  });

  describe('state', () => {
    it('an inactive component refuses new bugs (value_inactive, 32000); an active one takes them', async () => {
      const bug = (component: string) => t.post('/bug', {
        product: names.Alpha, component, version: '1.0', summary: 'A bug', op_sys: 'All', platform: 'All',
      }, { key: ADMIN_API_KEY });
      ok(await t.post('/component', { product: names.Alpha, name: 'Retired', description: 'Old', default_assignee: ADMIN_LOGIN, is_open: false }, { key: editor.apiKey }));
      expectCodedError(await bug('Retired'), 32000, 400);
      ok(await t.post('/component', { product: names.Alpha, name: 'Current', description: 'New', default_assignee: ADMIN_LOGIN }, { key: editor.apiKey }));
      expect(typeof ok(await bug('Current')).id).toBe('number');
      const retired = await component(names.Alpha, 'Retired');
      ok(await t.request('DELETE', `/component/${retired.id}`, { key: editor.apiKey }));
    });
  });

  describe('update', () => {
    it('by product and name: changes with logins and booleans as "1"/"0"', async () => {
      const engine = await component(names.Alpha, 'Engine');
      const res = ok(await t.put(`/component/${names.Alpha}/Engine`, {
        name: 'Motor', description: 'Makes it go faster', default_assignee: logins.qa, default_qa_contact: '',
        default_cc: [logins.cc1], is_open: true,
      }, { key: editor.apiKey }));
      expect(res).toEqual({
        components: [{
          id: engine.id,
          changes: {
            name: { removed: 'Engine', added: 'Motor' },
            description: { removed: 'Makes it go', added: 'Makes it go faster' },
            default_assignee: { removed: ADMIN_LOGIN, added: logins.qa },
            default_qa_contact: { removed: logins.qa, added: '' },
            default_cc: { removed: `${logins.cc1}, ${logins.cc2}`, added: logins.cc1 },
            is_open: { removed: '0', added: '1' },
          },
        }],
      });
      expect(await component(names.Alpha, 'Motor')).toMatchObject({ is_active: true, default_assigned_to: logins.qa, default_qa_contact: '' });
    });

    it('by id, with body ids; unchanged values give empty changes; unknown ids are skipped', async () => {
      const motor = await component(names.Alpha, 'Motor');
      const wheels = await component(names.Alpha, 'Wheels');
      const res = ok(await t.put(`/component/${motor.id}`, { ids: [wheels.id, UNKNOWN_COMPONENT_ID], description: 'Makes it go faster' }, { key: editor.apiKey }));
      expect(res.components).toEqual([
        { id: motor.id, changes: {} },
        { id: wheels.id, changes: { description: { removed: 'Round', added: 'Makes it go faster' } } },
      ]);
    });

    it('one new name for several components of one product is 1212, nothing changes', async () => {
      const motor = await component(names.Alpha, 'Motor');
      const wheels = await component(names.Alpha, 'Wheels');
      expectCodedError(await t.put(`/component/${motor.id}`, { ids: [wheels.id], name: 'Same' }, { key: editor.apiKey }), 1212, 400);
      expectCodedError(await t.put(`/component/${names.Alpha}/Motor`, { name: 'wheels' }, { key: editor.apiKey }), 1200, 400);
      expect(await component(names.Alpha, 'Motor')).toBeDefined();
    });

    it('errors: 410, 304, 106 for an unknown product, 706 for a product the caller does not administer, 32614 for a non-numeric id', async () => {
      expectCodedError(await t.put(`/component/${names.Alpha}/Motor`, { description: 'x' }), 410, 401);
      expectCodedError(await t.put(`/component/${names.Alpha}/Motor`, { description: 'x' }, { key: outsider.apiKey }), 304, 401);
      expectCodedError(await t.put('/component/NoSuch/Motor', { description: 'x' }, { key: editor.apiKey }), 106, 401);
      ok(await t.post('/component', { product: names.Beta, name: 'Only', description: 'd', default_assignee: ADMIN_LOGIN }, { key: editor.apiKey }));
      expectCodedError(await t.put(`/component/${names.Beta}/Only`, { description: 'x' }, { key: productAdmin.apiKey }), 706, 400);
      const only = await component(names.Beta, 'Only');
      expectCodedError(await t.put(`/component/${only.id}`, { description: 'x' }, { key: productAdmin.apiKey }), 706, 400);
      expectCodedError(await t.put('/component/Motor', { description: 'x' }, { key: editor.apiKey }), 32614, 404);
      expectCodedError(await t.put(`/component/${names.Alpha}/Motor`, { description: ' ' }, { key: editor.apiKey }), 1211, 400);
    });
  });

  describe('delete', () => {
    it('a component that still has bugs is not deleted (1202)', async () => {
      const motor = await component(names.Alpha, 'Motor');
      await fileBug(t, { product: names.Alpha, component: motor.name, version: '1.0' });
      expectCodedError(await t.request('DELETE', `/component/${names.Alpha}/Motor`, { key: editor.apiKey }), 1202, 400);
      expect(await component(names.Alpha, 'Motor')).toBeDefined();
    });

    it('the last component of a product is not deleted (1201)', async () => {
      expectCodedError(await t.request('DELETE', `/component/${names.Beta}/Only`, { key: editor.apiKey }), 1201, 400);
    });

    describe('a component without bugs, with a cc and a flag type inclusion', () => {
      let wheels: { id: number };

      it('offers the flag type included for it', async () => {
        wheels = await component(names.Alpha, 'Wheels');
        ok(await t.put(`/component/${wheels.id}`, { default_cc: [ADMIN_LOGIN] }, { key: ADMIN_API_KEY }));
        const review = ok(await t.post('/flag_type', { name: named('review'), description: 'r', inclusions: { [names.Alpha]: ['Wheels'] } }, { key: ADMIN_API_KEY })).id;
        expect(withOwnFlagTypes(t, { flag_types: ok(await t.get(`/flag_type/${names.Alpha}/Wheels`)) }).flag_types!.bug.map((type: any) => type.id)).toEqual([review]);
      });

      inProcessIt('has the inclusion stored with its product (reads the database)', async () => {
        expect((await t.db.read.repository(FlagInclusion).findBy({ componentId: wheels.id })).map(({ productId }) => ({ product_id: productId })))
          .toEqual([{ product_id: alpha }]);
      });

      it('is deleted', async () => {
        const res = ok(await t.request('DELETE', `/component/${wheels.id}`, { key: editor.apiKey }));
        expect(res).toEqual({ components: [{ id: wheels.id }] });
        expect(await component(names.Alpha, 'Wheels')).toBeUndefined();
      });

      inProcessIt('is deleted with its cc and flag type inclusions (reads the database)', async () => {
        expect(await t.db.read.repository(ComponentCc).findBy({ componentId: wheels.id })).toEqual([]);
        expect(await t.db.read.repository(FlagInclusion).findBy({ componentId: wheels.id })).toEqual([]);
      });
    });

    it('errors: 410 anonymous, 304 without rights, 706 for a product not administered', async () => {
      expectCodedError(await t.request('DELETE', `/component/${names.Alpha}/Motor`), 410, 401);
      expectCodedError(await t.request('DELETE', `/component/${names.Alpha}/Motor`, { key: outsider.apiKey }), 304, 401);
      expectCodedError(await t.request('DELETE', `/component/${names.Beta}/Only`, { key: productAdmin.apiKey }), 706, 400);
      expect(beta).toBeGreaterThan(0);
    });
  });

  describe('typed input (DTOs)', () => {
    it('default_cc as a comma list in the query; a list of objects or an object name is 53', async () => {
      const id = ok(await t.request('POST', '/component', {
        query: { product: names.Alpha, name: 'Typed', description: 'd', default_assignee: ADMIN_LOGIN, default_cc: `${logins.cc1}, ${logins.cc2}`, is_open: 'False' },
        key: editor.apiKey,
      })).id;
      const [typed] = ok(await t.get(`/product/${names.Alpha}`, { key: ADMIN_API_KEY, query: { include_fields: 'components.name,components.is_active' } })).products[0].components
        .filter((c: any) => c.name === 'Typed');
      expect(typed).toEqual({ name: 'Typed', is_active: false });
      expectCodedError(await t.put(`/component/${id}`, { default_cc: [{ login: logins.cc1 }] }, { key: editor.apiKey }), 53, 400);
      // Emptying the cc list answers what it held: both logins of the comma list.
      const emptied = ok(await t.put(`/component/${id}`, { default_cc: [] }, { key: editor.apiKey }));
      expect(emptied.components[0].changes.default_cc).toEqual({ removed: `${logins.cc1}, ${logins.cc2}`, added: '' });
      expectCodedError(await t.post('/component', { product: names.Alpha, name: { n: 1 } }, { key: editor.apiKey }), 53, 400);
    });

    it('the OpenAPI document lists the parameters of create, update and delete', async () => {
      const create = [
        'product', 'name', 'component', 'description', 'default_assignee', 'default_cc', 'default_qa_contact', 'is_open', 'sort_key',
        'triage_owner', 'default_bug_type',
      ];
      expect((await documentedParameters(t, '/component', 'post')).body).toEqual(create);
      for (const path of ['/component/{id}', '/component/{product}/{component}']) {
        expect((await documentedParameters(t, path, 'put')).body).toEqual(['ids', 'names', ...create.filter((p) => p !== 'product')]);
        expect((await documentedParameters(t, path, 'delete')).body).toEqual(['ids', 'names']);
      }
    });
  });

  describe('python-bugzilla wire shapes (addcomponent / editcomponent)', () => {
    it('creates with `component` as the name and updates with values inside `updates`', async () => {
      const created = ok(await t.post('/component', { product: names.Alpha, component: 'FromPython', description: 'made by python-bugzilla', default_assignee: ADMIN_LOGIN }, { key: editor.apiKey }));
      const updated = ok(await t.put(`/component/${names.Alpha}/FromPython`, {
        names: [{ product: names.Alpha, component: 'FromPython' }],
        updates: { description: 'edited by python-bugzilla' },
      }, { key: editor.apiKey }));
      expect(updated.components).toEqual([{ id: created.id, changes: { description: { removed: 'made by python-bugzilla', added: 'edited by python-bugzilla' } } }]);
    });
  });
});
