import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { FlagType } from '../../src/flag/entities/flag-type.entity.js';
import { createBugGroup, createProduct, documentedParameters, expectCodedError, firstAudit, ok } from '../support/catalogue-fixtures.js';

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

  beforeAll(async () => {
    t = await startTestApp();
    granters = await createBugGroup(t, 'granters');
    requesters = await createBugGroup(t, 'requesters');
    await createBugGroup(t, 'alphateam');
    await createBugGroup(t, 'hidden');
    outsider = await t.createUser('outsider@example.com');
    granter = await t.createUser('granter@example.com', { groups: ['granters'] });
    editor = await t.createUser('editor@example.com', { groups: ['editcomponents'] });
    alphaAdmin = await t.createUser('alpha-admin@example.com', { groups: ['alphateam'] });
    await createProduct(t, 'Alpha', { group_controls: [{ group: 'alphateam', membercontrol: 'shown', othercontrol: 'shown', editcomponents: true }] });
    ok(await t.post('/component', { product: 'Alpha', name: 'Excluded', description: 'd', default_assignee: ADMIN_LOGIN }, { key: ADMIN_API_KEY }));
    await createProduct(t, 'Beta');
    await createProduct(t, 'Hidden', { group_controls: [{ group: 'hidden', membercontrol: 'mandatory', othercontrol: 'mandatory', entry: true }] });
  });
  afterAll(() => t.close());

  const typesOf = async (path: string, key?: string) => ok(await t.get(path, { key }));

  describe('create', () => {
    it('with defaults: a bug type for every product, requestable, sort key 1, audited', async () => {
      review = ok(await t.post('/flag_type', { name: 'review', description: 'Code review' }, { key: editor.apiKey })).id;
      expect(await typesOf('/flag_type/TestProduct')).toEqual({
        bug: [{
          id: review, name: 'review', description: 'Code review', type: 'bug', values: ['X', '?', '+', '-'],
          is_requesteeble: true, is_multiplicable: true, is_active: true,
        }],
        attachment: [],
      });
      expect(await t.db.read.repository(FlagType).findOneBy({ id: review })).toMatchObject({ sortkey: 1, ccList: '' });
      expect(await firstAudit(t, 'Tracker::FlagType', review))
        .toEqual({ field: '__create__', added: 'review' });
    });

    it('an attachment type with inclusions, exclusions in object form, groups, cc list and switches', async () => {
      approval = ok(await t.post('/flag_type', {
        name: 'approval', description: 'Release approval', target_type: 'attachment', inclusions: ['Alpha'],
        exclusions: { Alpha: ['Excluded'] }, is_requestable: false, is_specifically_requestable: false,
        is_multiplicable: false, grant_group: 'granters', request_group: 'requesters', cc_list: ['a@example.com', 'b@example.com'], sortkey: 5,
      }, { key: editor.apiKey })).id;
      const alpha = await typesOf('/flag_type/Alpha/General', outsider.apiKey);
      expect(alpha.attachment).toEqual([{
        id: approval, name: 'approval', description: 'Release approval', type: 'attachment', values: ['X'],
        is_requesteeble: false, is_multiplicable: false, is_active: true,
      }]);
      expect((await typesOf('/flag_type/Alpha/General', granter.apiKey)).attachment[0].values).toEqual(['X', '+', '-']);
      expect((await typesOf('/flag_type/Alpha/Excluded')).attachment).toEqual([]);
      expect((await typesOf('/flag_type/Beta')).attachment).toEqual([]);
      // Without a component, any inclusion in the product counts and only product-wide exclusions exclude.
      expect((await typesOf('/flag_type/Alpha')).attachment.map((x: any) => x.id)).toEqual([approval]);
    });

    it('Get Product shows every Flagtype field under each component', async () => {
      const [alpha] = ok(await t.get('/product/Alpha', { query: { include_fields: 'components.name,components.flag_types' } })).products;
      const general = alpha.components.find((c: any) => c.name === 'General');
      expect(general.flag_types.attachment).toEqual([{
        id: approval, name: 'approval', description: 'Release approval', cc_list: 'a@example.com, b@example.com', sort_key: 5,
        is_active: true, is_requestable: false, is_requesteeble: false, is_multiplicable: false, grant_group: granters, request_group: requesters,
      }]);
      expect(general.flag_types.bug.map((x: any) => x.name)).toEqual(['review']);
      expect(alpha.components.find((c: any) => c.name === 'Excluded').flag_types.attachment).toEqual([]);
    });

    it('inclusions naming components only reach those components', async () => {
      const id = ok(await t.post('/flag_type', { name: 'qa', description: 'QA', inclusions: { Alpha: ['Excluded'] } }, { key: editor.apiKey })).id;
      expect((await typesOf('/flag_type/Alpha/Excluded')).bug.map((x: any) => x.id)).toContain(id);
      expect((await typesOf('/flag_type/Alpha/General')).bug.map((x: any) => x.id)).not.toContain(id);
    });

    it('validation: 50 missing name/description, 1101 bad name, 1102 blank description, 1103 long cc list, 501 bad address, 1104 bad sort key', async () => {
      const create = (body: Record<string, unknown>) => t.post('/flag_type', { name: 'valid', description: 'd', ...body }, { key: editor.apiKey });
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
      const create = (body: Record<string, unknown>) => t.post('/flag_type', { name: 'valid', description: 'd', ...body }, { key: editor.apiKey });
      expectCodedError(await create({ grant_group: 'nosuch' }), 51, 404);
      expectCodedError(await create({ request_group: 'nosuch' }), 51, 404);
      expectCodedError(await create({ inclusions: ['NoSuch'] }), 106, 401);
      expectCodedError(await create({ exclusions: ['Hidden'] }), 106, 401);
      expectCodedError(await create({ inclusions: { Alpha: ['NoSuch'] } }), 105, 400);
      expect(await t.db.read.repository(FlagType).findBy({ name: 'valid' })).toEqual([]);
    });

    it('rights: 410 anonymous, 304 without editcomponents; a product administrator only for their products', async () => {
      expectCodedError(await t.post('/flag_type', { name: 'x', description: 'd' }), 410, 401);
      expectCodedError(await t.post('/flag_type', { name: 'x', description: 'd' }, { key: outsider.apiKey }), 304, 401);
      expectCodedError(await t.post('/flag_type', { name: 'x', description: 'd' }, { key: alphaAdmin.apiKey }), 304, 401);
      expectCodedError(await t.post('/flag_type', { name: 'x', description: 'd', inclusions: ['Beta'] }, { key: alphaAdmin.apiKey }), 106, 401);
      const own = ok(await t.post('/flag_type', { name: 'alphaonly', description: 'd', inclusions: ['Alpha'] }, { key: alphaAdmin.apiKey })).id;
      expect((await typesOf('/flag_type/Alpha')).bug.map((x: any) => x.id)).toContain(own);
    });
  });

  describe('update', () => {
    it('by id: changes with booleans as "1"/"0" and groups by name', async () => {
      const res = ok(await t.put(`/flag_type/${approval}`, {
        description: 'Approval to release', is_requestable: true, grant_group: '', sortkey: 6, cc_list: 'a@example.com',
      }, { key: editor.apiKey }));
      expect(res).toEqual({
        flagtypes: [{
          id: approval, name: 'approval',
          changes: {
            description: { removed: 'Release approval', added: 'Approval to release' },
            is_requestable: { removed: '0', added: '1' },
            grant_group: { removed: 'granters', added: '' },
            sortkey: { removed: '5', added: '6' },
            cc_list: { removed: 'a@example.com, b@example.com', added: 'a@example.com' },
          },
        }],
      });
      expect((await typesOf('/flag_type/Alpha/General', outsider.apiKey)).attachment[0].values).toEqual(['X', '?', '+', '-']);
    });

    it('by name with ids: renames and moves the inclusions, reported as Product:Component lists', async () => {
      const res = ok(await t.put('/flag_type/review', { inclusions: { Beta: [] }, exclusions: ['Alpha'] }, { key: editor.apiKey }));
      expect(res.flagtypes).toEqual([{
        id: review, name: 'review',
        changes: {
          inclusions: { removed: '__Any__:__Any__', added: 'Beta:__Any__' },
          exclusions: { removed: '', added: 'Alpha:__Any__' },
        },
      }]);
      expect((await typesOf('/flag_type/TestProduct')).bug.map((x: any) => x.id)).not.toContain(review);
      expect((await typesOf('/flag_type/Beta')).bug.map((x: any) => x.id)).toContain(review);
      const renamed = ok(await t.put('/flag_type/review', { name: 'code-review', is_active: false }, { key: editor.apiKey }));
      expect(renamed.flagtypes[0]).toEqual({
        id: review, name: 'code-review', changes: { name: { removed: 'review', added: 'code-review' }, is_active: { removed: '1', added: '0' } },
      });
      expect((await typesOf('/flag_type/Beta')).bug.find((x: any) => x.id === review).is_active).toBe(false);
    });

    it('a product administrator may change inclusions of their products only (1105 for other fields)', async () => {
      const own = (await t.db.read.repository(FlagType).findOneByOrFail({ name: 'alphaonly' })).id;
      expectCodedError(await t.put(`/flag_type/${own}`, { description: 'mine' }, { key: alphaAdmin.apiKey }), 1105, 400);
      expectCodedError(await t.put(`/flag_type/${own}`, { inclusions: ['Beta'] }, { key: alphaAdmin.apiKey }), 106, 401);
      const res = ok(await t.put(`/flag_type/${own}`, { inclusions: { Alpha: ['General'] } }, { key: alphaAdmin.apiKey }));
      expect(res.flagtypes[0].changes).toEqual({ inclusions: { removed: 'Alpha:__Any__', added: 'Alpha:General' } });
    });

    it('errors: 51 unknown id or name, 1101 bad new name, 410 anonymous, 304 without rights', async () => {
      expectCodedError(await t.put('/flag_type/9999', { description: 'x' }, { key: editor.apiKey }), 51, 404);
      expectCodedError(await t.put('/flag_type/nosuch', { description: 'x' }, { key: editor.apiKey }), 51, 404);
      expectCodedError(await t.put(`/flag_type/${approval}`, { name: 'bad name' }, { key: editor.apiKey }), 1101, 400);
      expectCodedError(await t.put(`/flag_type/${approval}`, { description: 'x' }), 410, 401);
      expectCodedError(await t.put(`/flag_type/${approval}`, { description: 'x' }, { key: outsider.apiKey }), 304, 401);
    });
  });

  describe('get errors', () => {
    it('106 for an unknown or invisible product, 51 for an unknown component', async () => {
      expectCodedError(await t.get('/flag_type/NoSuch'), 106, 401);
      expectCodedError(await t.get('/flag_type/Hidden', { key: outsider.apiKey }), 106, 401);
      expectCodedError(await t.get('/flag_type/Alpha/NoSuch'), 51, 404);
      expect(ok(await t.get('/flag_type/Hidden', { key: ADMIN_API_KEY }))).toHaveProperty('bug');
    });
  });

  describe('typed input (DTOs)', () => {
    it('Bugzilla booleans and a cc list in the query; a value of the wrong type is 53', async () => {
      const id = ok(await t.request('POST', '/flag_type', {
        query: { name: 'typed', description: 'Typed', is_multiplicable: 'False', cc_list: 'c@example.com', sortkey: '7' }, key: editor.apiKey,
      })).id;
      expect(await t.db.read.repository(FlagType).findOneBy({ id }))
        .toMatchObject({ isMultiplicable: false, ccList: 'c@example.com', sortkey: 7 });
      expectCodedError(await t.put(`/flag_type/${id}`, { cc_list: [{ to: 'c@example.com' }] }, { key: editor.apiKey }), 53, 400);
      expectCodedError(await t.put(`/flag_type/${id}`, { grant_group: { name: 'granters' } }, { key: editor.apiKey }), 53, 400);
      // An object item is 5.0's product → components form: {"product": ["Alpha"]} names a product called "product" (106).
      expectCodedError(await t.put(`/flag_type/${id}`, { inclusions: [{ product: 'Alpha' }] }, { key: editor.apiKey }), 106, 401);
      expectCodedError(await t.put(`/flag_type/${id}`, { inclusions: [{ Alpha: { General: true } }] }, { key: editor.apiKey }), 53, 400);
    });

    it('the OpenAPI document lists the parameters of create and update', async () => {
      const create = (await documentedParameters(t, '/flag_type', 'post')).body;
      expect(create).toEqual(expect.arrayContaining([
        'name', 'description', 'target_type', 'inclusions', 'exclusions', 'sortkey', 'is_active', 'is_requestable', 'cc_list',
        'is_specifically_requestable', 'is_multiplicable', 'grant_group', 'request_group',
      ]));
      const update = (await documentedParameters(t, '/flag_type/{idOrName}', 'put')).body;
      expect(update).toEqual(['ids', 'names', ...create.filter((p) => p !== 'target_type')]);
    });
  });
});
