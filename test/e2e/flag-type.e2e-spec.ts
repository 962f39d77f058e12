import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { confineFlagTypes, createBugGroup, createProduct, documentedParameters, expectCodedError, firstAudit, ok, ownEntries } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';

/** A flag type id no instance holds. */
const UNKNOWN_FLAG_TYPE_ID = 99999999;

describe('Flag types: get for a product/component, create, update (admin-routes.md)', () => {
  let t: TestApp;
  let outsider: { id: number; apiKey: string };
  let granter: { id: number; apiKey: string };
  let editor: { id: number; apiKey: string };
  let alphaAdmin: { id: number; apiKey: string };
  let granters: number;
  let requesters: number;
  let review: number;
  let approval: number;
  let alphaOnly: number;
  const groups = { granters: named('granters'), requesters: named('requesters'), alphaTeam: named('alphateam'), hidden: named('hidden') };
  const names = { Alpha: named('Alpha'), Beta: named('Beta'), Hidden: named('Hidden') };
  const typeNames = { review: named('review'), codeReview: named('code-review'), approval: named('approval'), qa: named('qa'), alphaOnly: named('alphaonly'), typed: named('typed') };
  /** The flag types this file made. */
  const made: number[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    granters = await createBugGroup(t, groups.granters);
    requesters = await createBugGroup(t, groups.requesters);
    await createBugGroup(t, groups.alphaTeam);
    await createBugGroup(t, groups.hidden);
    outsider = await t.createUser(loginNamed('outsider'));
    granter = await t.createUser(loginNamed('granter'), { groups: [groups.granters] });
    editor = await t.createUser(loginNamed('editor'), { groups: ['editcomponents'] });
    alphaAdmin = await t.createUser(loginNamed('alpha-admin'), { groups: [groups.alphaTeam] });
    await createProduct(t, names.Alpha, { group_controls: [{ group: groups.alphaTeam, membercontrol: 'shown', othercontrol: 'shown', editcomponents: true }] });
    ok(await t.post('/component', { product: names.Alpha, name: 'Excluded', description: 'd', default_assignee: ADMIN_LOGIN }, { key: ADMIN_API_KEY }));
    await createProduct(t, names.Beta);
    await createProduct(t, names.Hidden, { group_controls: [{ group: groups.hidden, membercontrol: 'mandatory', othercontrol: 'mandatory', entry: true }] });
  });
  afterAll(async () => {
    await confineFlagTypes(t, made, names.Alpha);
    await t.close();
  });

  /** Flag types as listed, on a shared instance only those this file made (another file's may reach every product). */
  const ownTypes = (types: any[]) => ownEntries(t, types, (type) => made.includes(type.id));
  const typesOf = async (path: string, key?: string) => {
    const types = ok(await t.get(path, { key }));
    return { ...types, bug: ownTypes(types.bug), attachment: ownTypes(types.attachment) };
  };
  /** A flag type as Get Product shows it under a component. */
  const typeUnder = async (product: string, component: string, id: number) => {
    const [{ components }] = ok(await t.get(`/product/${product}`, { query: { include_fields: 'components.name,components.flag_types' } })).products;
    const { flag_types: types } = components.find((c: any) => c.name === component);
    return [...types.bug, ...types.attachment].find((type: any) => type.id === id);
  };

  describe('create', () => {
    it('with defaults: a bug type for every product, requestable, sort key 1', async () => {
      review = ok(await t.post('/flag_type', { name: typeNames.review, description: 'Code review' }, { key: editor.apiKey })).id;
      made.push(review);
      expect(await typesOf('/flag_type/TestProduct')).toEqual({
        bug: [{
          id: review, name: typeNames.review, description: 'Code review', type: 'bug', values: ['X', '?', '+', '-'],
          is_requesteeble: true, is_multiplicable: true, is_active: true,
        }],
        attachment: [],
      });
      expect(await typeUnder('TestProduct', 'TestComponent', review)).toMatchObject({ sort_key: 1, cc_list: '' });
    });

    inProcessIt('audits the creation (reads the audit log)', async () => {
      expect(await firstAudit(t, 'Tracker::FlagType', review))
        .toEqual({ field: '__create__', added: typeNames.review });
    });

    it('an attachment type with inclusions, exclusions in object form, groups, cc list and switches', async () => {
      approval = ok(await t.post('/flag_type', {
        name: typeNames.approval, description: 'Release approval', target_type: 'attachment', inclusions: [names.Alpha],
        exclusions: { [names.Alpha]: ['Excluded'] }, is_requestable: false, is_specifically_requestable: false,
        is_multiplicable: false, grant_group: groups.granters, request_group: groups.requesters, cc_list: ['a@example.com', 'b@example.com'], sortkey: 5,
      }, { key: editor.apiKey })).id;
      made.push(approval);
      const alpha = await typesOf(`/flag_type/${names.Alpha}/General`, outsider.apiKey);
      expect(alpha.attachment).toEqual([{
        id: approval, name: typeNames.approval, description: 'Release approval', type: 'attachment', values: ['X'],
        is_requesteeble: false, is_multiplicable: false, is_active: true,
      }]);
      expect((await typesOf(`/flag_type/${names.Alpha}/General`, granter.apiKey)).attachment[0].values).toEqual(['X', '+', '-']);
      expect((await typesOf(`/flag_type/${names.Alpha}/Excluded`)).attachment).toEqual([]);
      expect((await typesOf(`/flag_type/${names.Beta}`)).attachment).toEqual([]);
      // Without a component, any inclusion in the product counts and only product-wide exclusions exclude.
      expect((await typesOf(`/flag_type/${names.Alpha}`)).attachment.map((x: any) => x.id)).toEqual([approval]);
    });

    it('Get Product shows every Flagtype field under each component', async () => {
      const [alpha] = ok(await t.get(`/product/${names.Alpha}`, { query: { include_fields: 'components.name,components.flag_types' } })).products;
      const general = alpha.components.find((c: any) => c.name === 'General');
      expect(ownTypes(general.flag_types.attachment)).toEqual([{
        id: approval, name: typeNames.approval, description: 'Release approval', cc_list: 'a@example.com, b@example.com', sort_key: 5,
        is_active: true, is_requestable: false, is_requesteeble: false, is_multiplicable: false, grant_group: granters, request_group: requesters,
      }]);
      expect(ownTypes(general.flag_types.bug).map((x: any) => x.name)).toEqual([typeNames.review]);
      expect(ownTypes(alpha.components.find((c: any) => c.name === 'Excluded').flag_types.attachment)).toEqual([]);
    });

    it('inclusions naming components only reach those components', async () => {
      const id = ok(await t.post('/flag_type', { name: typeNames.qa, description: 'QA', inclusions: { [names.Alpha]: ['Excluded'] } }, { key: editor.apiKey })).id;
      made.push(id);
      expect((await typesOf(`/flag_type/${names.Alpha}/Excluded`)).bug.map((x: any) => x.id)).toContain(id);
      expect((await typesOf(`/flag_type/${names.Alpha}/General`)).bug.map((x: any) => x.id)).not.toContain(id);
    });

    it('validation: 50 missing name/description, 1101 bad name, 1102 blank description, 1103 long cc list, 501 bad address, 1104 bad sort key', async () => {
      const create = (body: Record<string, unknown>) => t.post('/flag_type', { name: named('valid'), description: 'd', ...body }, { key: editor.apiKey });
      expectCodedError(await t.post('/flag_type', { description: 'd' }, { key: editor.apiKey }), 50, 400);
      expectCodedError(await t.post('/flag_type', { name: 'x' }, { key: editor.apiKey }), 50, 400);
      expectCodedError(await create({ name: 'has space' }), 1101, 400);
      expectCodedError(await create({ name: 'a,b' }), 1101, 400);
      expectCodedError(await create({ name: 'n'.repeat(51) }), 1101, 400);
      expectCodedError(await create({ description: '   ' }), 1102, 400);
      expectCodedError(await create({ cc_list: Array.from({ length: 20 }, (_, i) => `person${i}@example.com`) }), 1103, 400);
      expectCodedError(await create({ cc_list: 'not-an-address' }), 501, 400);
      for (const sortkey of [-1, 'first', 40000]) expectCodedError(await create({ sortkey }), 1104, 400);
      expectCodedError(await create({ target_type: 'comment' }), 32000, 400);
    });

    it('references: 51 unknown group, 106 unknown or invisible product, 105 unknown component', async () => {
      const valid = named('valid');
      const create = (body: Record<string, unknown>) => t.post('/flag_type', { name: valid, description: 'd', ...body }, { key: editor.apiKey });
      expectCodedError(await create({ grant_group: 'nosuch' }), 51, 404);
      expectCodedError(await create({ request_group: 'nosuch' }), 51, 404);
      expectCodedError(await create({ inclusions: ['NoSuch'] }), 106, 401);
      expectCodedError(await create({ exclusions: [names.Hidden] }), 106, 401);
      expectCodedError(await create({ inclusions: { [names.Alpha]: ['NoSuch'] } }), 105, 400);
      // Update Flag Type finds a type by name among all: 51 says that none was made.
      expectCodedError(await t.put(`/flag_type/${valid}`, {}, { key: editor.apiKey }), 51, 404);
    });

    it('rights: 410 anonymous, 304 without editcomponents; a product administrator only for their products', async () => {
      expectCodedError(await t.post('/flag_type', { name: 'x', description: 'd' }), 410, 401);
      expectCodedError(await t.post('/flag_type', { name: 'x', description: 'd' }, { key: outsider.apiKey }), 304, 401);
      expectCodedError(await t.post('/flag_type', { name: 'x', description: 'd' }, { key: alphaAdmin.apiKey }), 304, 401);
      expectCodedError(await t.post('/flag_type', { name: 'x', description: 'd', inclusions: [names.Beta] }, { key: alphaAdmin.apiKey }), 106, 401);
      alphaOnly = ok(await t.post('/flag_type', { name: typeNames.alphaOnly, description: 'd', inclusions: [names.Alpha] }, { key: alphaAdmin.apiKey })).id;
      made.push(alphaOnly);
      expect((await typesOf(`/flag_type/${names.Alpha}`)).bug.map((x: any) => x.id)).toContain(alphaOnly);
    });
  });

  describe('update', () => {
    it('by id: changes with booleans as "1"/"0" and groups by name', async () => {
      const res = ok(await t.put(`/flag_type/${approval}`, {
        description: 'Approval to release', is_requestable: true, grant_group: '', sortkey: 6, cc_list: 'a@example.com',
      }, { key: editor.apiKey }));
      expect(res).toEqual({
        flagtypes: [{
          id: approval, name: typeNames.approval,
          changes: {
            description: { removed: 'Release approval', added: 'Approval to release' },
            is_requestable: { removed: '0', added: '1' },
            grant_group: { removed: groups.granters, added: '' },
            sortkey: { removed: '5', added: '6' },
            cc_list: { removed: 'a@example.com, b@example.com', added: 'a@example.com' },
          },
        }],
      });
      expect((await typesOf(`/flag_type/${names.Alpha}/General`, outsider.apiKey)).attachment[0].values).toEqual(['X', '?', '+', '-']);
    });

    it('by name with ids: renames and moves the inclusions, reported as Product:Component lists', async () => {
      const res = ok(await t.put(`/flag_type/${typeNames.review}`, { inclusions: { [names.Beta]: [] }, exclusions: [names.Alpha] }, { key: editor.apiKey }));
      expect(res.flagtypes).toEqual([{
        id: review, name: typeNames.review,
        changes: {
          inclusions: { removed: '__Any__:__Any__', added: `${names.Beta}:__Any__` },
          exclusions: { removed: '', added: `${names.Alpha}:__Any__` },
        },
      }]);
      expect((await typesOf('/flag_type/TestProduct')).bug.map((x: any) => x.id)).not.toContain(review);
      expect((await typesOf(`/flag_type/${names.Beta}`)).bug.map((x: any) => x.id)).toContain(review);
      const renamed = ok(await t.put(`/flag_type/${typeNames.review}`, { name: typeNames.codeReview, is_active: false }, { key: editor.apiKey }));
      expect(renamed.flagtypes[0]).toEqual({
        id: review, name: typeNames.codeReview, changes: { name: { removed: typeNames.review, added: typeNames.codeReview }, is_active: { removed: '1', added: '0' } },
      });
      expect((await typesOf(`/flag_type/${names.Beta}`)).bug.find((x: any) => x.id === review).is_active).toBe(false);
    });

    it('a product administrator may change inclusions of their products only (1105 for other fields)', async () => {
      expectCodedError(await t.put(`/flag_type/${alphaOnly}`, { description: 'mine' }, { key: alphaAdmin.apiKey }), 1105, 400);
      expectCodedError(await t.put(`/flag_type/${alphaOnly}`, { inclusions: [names.Beta] }, { key: alphaAdmin.apiKey }), 106, 401);
      const res = ok(await t.put(`/flag_type/${alphaOnly}`, { inclusions: { [names.Alpha]: ['General'] } }, { key: alphaAdmin.apiKey }));
      expect(res.flagtypes[0].changes).toEqual({ inclusions: { removed: `${names.Alpha}:__Any__`, added: `${names.Alpha}:General` } });
    });

    it('errors: 51 unknown id or name, 1101 bad new name, 410 anonymous, 304 without rights', async () => {
      expectCodedError(await t.put(`/flag_type/${UNKNOWN_FLAG_TYPE_ID}`, { description: 'x' }, { key: editor.apiKey }), 51, 404);
      expectCodedError(await t.put('/flag_type/nosuch', { description: 'x' }, { key: editor.apiKey }), 51, 404);
      expectCodedError(await t.put(`/flag_type/${approval}`, { name: 'bad name' }, { key: editor.apiKey }), 1101, 400);
      expectCodedError(await t.put(`/flag_type/${approval}`, { description: 'x' }), 410, 401);
      expectCodedError(await t.put(`/flag_type/${approval}`, { description: 'x' }, { key: outsider.apiKey }), 304, 401);
    });
  });

  describe('get errors', () => {
    it('106 for an unknown or invisible product, 51 for an unknown component', async () => {
      expectCodedError(await t.get('/flag_type/NoSuch'), 106, 401);
      expectCodedError(await t.get(`/flag_type/${names.Hidden}`, { key: outsider.apiKey }), 106, 401);
      expectCodedError(await t.get(`/flag_type/${names.Alpha}/NoSuch`), 51, 404);
      expect(ok(await t.get(`/flag_type/${names.Hidden}`, { key: ADMIN_API_KEY }))).toHaveProperty('bug');
    });
  });

  describe('typed input (DTOs)', () => {
    it('Bugzilla booleans and a cc list in the query; a value of the wrong type is 53', async () => {
      const id = ok(await t.request('POST', '/flag_type', {
        query: { name: typeNames.typed, description: 'Typed', is_multiplicable: 'False', cc_list: 'c@example.com', sortkey: '7' }, key: editor.apiKey,
      })).id;
      made.push(id);
      expect(await typeUnder('TestProduct', 'TestComponent', id))
        .toMatchObject({ is_multiplicable: false, cc_list: 'c@example.com', sort_key: 7 });
      expectCodedError(await t.put(`/flag_type/${id}`, { cc_list: [{ to: 'c@example.com' }] }, { key: editor.apiKey }), 53, 400);
      expectCodedError(await t.put(`/flag_type/${id}`, { grant_group: { name: groups.granters } }, { key: editor.apiKey }), 53, 400);
      // An object item is 5.0's product → components form: {"product": ["Alpha"]} names a product called "product" (106).
      expectCodedError(await t.put(`/flag_type/${id}`, { inclusions: [{ product: names.Alpha }] }, { key: editor.apiKey }), 106, 401);
      expectCodedError(await t.put(`/flag_type/${id}`, { inclusions: [{ [names.Alpha]: { General: true } }] }, { key: editor.apiKey }), 53, 400);
    });

    it('the OpenAPI document lists the parameters of create and update', async () => {
      const create = (await documentedParameters(t, '/flag_type', 'post')).body;
      expect(create).toEqual(expect.arrayContaining([
        'name', 'description', 'target_type', 'inclusions', 'exclusions', 'sortkey', 'is_active', 'is_requestable', 'cc_list',
        'is_specifically_requestable', 'is_multiplicable', 'grant_group', 'request_group',
      ]));
      const update = (await documentedParameters(t, '/flag_type/{id_or_name}', 'put')).body;
      expect(update).toEqual(['ids', 'names', ...create.filter((p) => p !== 'target_type')]);
    });
  });
});
