import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { GroupService } from '../../src/group/group.service.js';
import { GroupGrant } from '../../src/group/entities/group-grant.entity.js';
import { ParametersService } from '../../src/params/parameters.service.js';

/** Groups (seed "Groups", routes.md "Get Group facts", updates.md "Update Group", defaults.md). */
describe('groups', () => {
  let t: TestApp;
  let plain: { id: number; apiKey: string };
  let editusers: { id: number; apiKey: string };
  let creategroups: { id: number; apiKey: string };
  let blesser: { id: number; apiKey: string };
  let qaGroupId: number;

  const expectError = (res: { status: number; body: any }, code: number, status: number) => {
    expect(res.body).toMatchObject({ error: true, code });
    expect(res.status).toBe(status);
  };
  const groups = () => t.app.get(GroupService);
  const groupNamed = async (name: string) => (await groups().findByNames([name])).get(name);
  const grantBless = async (userId: number, groupName: string) => {
    const [group] = await groups().requireByNames([groupName]);
    await t.db.transaction((tx) => groups().changeDirectGroups(tx, userId, true, { add: [group.id], remove: [] }));
  };

  beforeAll(async () => {
    t = await startTestApp();
    plain = await t.createUser('plain@example.com', { realName: 'Plain Person' });
    editusers = await t.createUser('editor@example.com', { groups: ['editusers'] });
    creategroups = await t.createUser('grouper@example.com', { groups: ['creategroups'] });
    const created = await t.post('/group', { name: 'qa-team', description: 'Quality people', is_active: true }, { key: ADMIN_API_KEY });
    expect(created.status).toBe(200);
    qaGroupId = created.body.id;
    blesser = await t.createUser('blesser@example.com');
    await grantBless(blesser.id, 'qa-team');
  });
  afterAll(() => t.close());

  describe('Create Group (creategroups)', () => {
    it('creates a bug group, inactive unless is_active is given, with admin rights over it', async () => {
      const res = await t.post('/group', { name: 'sleepers', description: 'Inactive by default', user_regexp: '' }, { key: creategroups.apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: expect.any(Number) });
      const [group] = (await t.get(`/group/${res.body.id}`, { key: creategroups.apiKey })).body.groups;
      expect(group).toMatchObject({ name: 'sleepers', description: 'Inactive by default', is_active: false, is_bug_group: true, user_regexp: '' });
      // defaults.md: every new group makes admin a member, blesser and viewer of it.
      const grants = await t.db.read.repository(GroupGrant).find({ where: { memberId: 1, grantorId: res.body.id }, order: { grantType: 'ASC' } });
      expect(grants.map((g) => g.grantType)).toEqual([0, 1, 2]);
      const audit = (await t.auditOf('Tracker::Group', res.body.id)).find((a) => a.field === '__create__');
      expect(audit?.added).toBe('sleepers');
    });

    it('anonymous callers get 410; callers outside creategroups 304', async () => {
      expectError(await t.post('/group', { name: 'x', description: 'y' }), 410, 401);
      expectError(await t.post('/group', { name: 'x', description: 'y' }, { key: editusers.apiKey }), 304, 401);
    });

    it('validates name (800, 801 case-insensitively), description (802) and user_regexp (803)', async () => {
      expectError(await t.post('/group', { name: '  ', description: 'd' }, { key: ADMIN_API_KEY }), 800, 400);
      expectError(await t.post('/group', { name: 'QA-Team', description: 'd' }, { key: ADMIN_API_KEY }), 801, 400);
      expectError(await t.post('/group', { name: 'fresh' }, { key: ADMIN_API_KEY }), 802, 400);
      expectError(await t.post('/group', { name: 'fresh', description: 'd', user_regexp: '(' }, { key: ADMIN_API_KEY }), 803, 400);
      expectError(await t.post('/group', { name: { x: 1 }, description: 'd' }, { key: ADMIN_API_KEY }), 53, 400);
      expect(await groupNamed('fresh')).toBeUndefined();
    });
  });

  describe('Get Group visibility', () => {
    it('needs a login (410) and some right: editusers, creategroups or a bless right (805)', async () => {
      expectError(await t.get('/group'), 410, 401);
      expectError(await t.get('/group', { key: plain.apiKey }), 805, 400);
    });

    it('creategroups sees every group with is_active, is_bug_group and user_regexp', async () => {
      const { groups } = (await t.get('/group', { key: creategroups.apiKey })).body;
      const names = groups.map((g: any) => g.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
      expect(names).toEqual(expect.arrayContaining(['admin', 'editbugs', 'qa-team']));
      expect(groups.find((g: any) => g.name === 'editbugs')).toMatchObject({ is_active: true, is_bug_group: false, user_regexp: '.*' });
    });

    it('editusers sees every group but not the administrative fields', async () => {
      const { groups } = (await t.get('/group', { key: editusers.apiKey })).body;
      expect(groups.map((g: any) => g.name)).toEqual(expect.arrayContaining(['admin', 'editbugs', 'qa-team']));
      const editbugs = groups.find((g: any) => g.name === 'editbugs');
      expect(Object.keys(editbugs).sort()).toEqual(['description', 'icon_url', 'id', 'name']);
    });

    it('a blesser without editusers/creategroups sees only the groups it may bless', async () => {
      const { groups } = (await t.get('/group', { key: blesser.apiKey })).body;
      expect(groups).toEqual([{ id: qaGroupId, name: 'qa-team', description: 'Quality people', icon_url: null }]);
    });

    it('by path, ids and names combined; unknown ids are skipped, unknown names are 51', async () => {
      const res = await t.get('/group/qa-team', { key: ADMIN_API_KEY, query: { ids: [1, 99999], names: 'editbugs' } });
      // ids first (99999 skipped), then the path name, then the names of the query.
      expect(res.body.groups.map((g: any) => g.name)).toEqual(['admin', 'qa-team', 'editbugs']);
      expectError(await t.get('/group', { key: ADMIN_API_KEY, query: { names: 'no-such-group' } }), 51, 404);
    });

    it('include_fields trims groups and members', async () => {
      const res = await t.get('/group/qa-team', { key: ADMIN_API_KEY, query: { membership: 1, include_fields: 'name,membership.name' } });
      // The administrator is a member of every group through `admin` (defaults.md).
      expect(res.body.groups[0]).toEqual({ name: 'qa-team', membership: [{ name: ADMIN_LOGIN }] });
    });
  });

  describe('Get Group membership', () => {
    let parentId: number;
    beforeAll(async () => {
      parentId = (await t.post('/group', { name: 'parent', description: 'Contains qa-team', is_active: true }, { key: ADMIN_API_KEY })).body.id;
      // qa-team's members are members of parent (group_group_map grant 0): inherited membership.
      await t.db.transaction((tx) => tx.repository(GroupGrant).insert({ memberId: qaGroupId, grantorId: parentId, grantType: 0 }));
      await t.createUser('qa-one@example.com', { groups: ['qa-team'], realName: 'QA One' });
      await t.createUser('qa-off@example.com', { groups: ['qa-team'], disabled: 'Left the company.' });
    });

    it('lists direct, regexp and inherited members with their account state', async () => {
      const res = await t.get('/group', { key: ADMIN_API_KEY, query: { names: ['qa-team', 'parent'], membership: 'True' } });
      const [qa, parent] = res.body.groups;
      // Ordered by login; the administrator is a member of every group through `admin` (defaults.md).
      expect(qa.membership).toEqual([
        { id: 1, real_name: 'Administrator', name: ADMIN_LOGIN, email: ADMIN_LOGIN, can_login: true, email_enabled: true, login_denied_text: '' },
        { id: expect.any(Number), real_name: '', name: 'qa-off@example.com', email: 'qa-off@example.com', can_login: false, email_enabled: true, login_denied_text: 'Left the company.' },
        { id: expect.any(Number), real_name: 'QA One', name: 'qa-one@example.com', email: 'qa-one@example.com', can_login: true, email_enabled: true, login_denied_text: '' },
      ]);
      expect(parent.membership.map((m: any) => m.name)).toEqual([ADMIN_LOGIN, 'qa-off@example.com', 'qa-one@example.com']);
      const editbugs = (await t.get('/group/editbugs', { key: ADMIN_API_KEY, query: { membership: 1 } })).body.groups[0];
      expect(editbugs.membership.map((m: any) => m.name)).toEqual(expect.arrayContaining([ADMIN_LOGIN, 'plain@example.com', 'qa-one@example.com']));
    });

    it('a blesser sees the members of its group, not of others (group_not_visible, 32000)', async () => {
      const res = await t.get('/group/qa-team', { key: blesser.apiKey, query: { membership: 1 } });
      expect(res.body.groups[0].membership).toHaveLength(3);
      expectError(await t.get(`/group/${parentId}`, { key: blesser.apiKey, query: { membership: 1 } }), 32000, 400);
    });

    it('editusers sees members of every group', async () => {
      const res = await t.get(`/group/${parentId}`, { key: editusers.apiKey, query: { membership: 1 } });
      expect(res.body.groups[0].membership).toHaveLength(3);
      expect(res.body.groups[0]).not.toHaveProperty('is_active');
    });
  });

  describe('Update Group (creategroups)', () => {
    it('changes name, description, user_regexp, is_active and icon_url, reporting changes', async () => {
      const id = (await t.post('/group', { name: 'old-name', description: 'Old', is_active: true, icon_url: 'http://x/icon.png' }, { key: ADMIN_API_KEY })).body.id;
      const res = await t.put('/group/old-name', { name: 'new-name', description: 'New', is_active: false, icon_url: '' }, { key: creategroups.apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        groups: [{
          id,
          changes: {
            name: { removed: 'old-name', added: 'new-name' },
            description: { removed: 'Old', added: 'New' },
            is_active: { removed: '1', added: '0' },
            icon_url: { removed: 'http://x/icon.png', added: null },
          },
        }],
      });
      const audit = (await t.auditOf('Tracker::Group', id)).filter((a) => a.field !== '__create__');
      expect(audit.map((a) => a.field).sort()).toEqual(['description', 'icon_url', 'is_active', 'name']);
    });

    it('an unchanged value reports no change', async () => {
      const res = await t.put('/group/qa-team', { description: 'Quality people' }, { key: ADMIN_API_KEY });
      expect(res.body).toEqual({ groups: [{ id: qaGroupId, changes: {} }] });
    });

    it('updates several groups at once (path plus ids/names)', async () => {
      const a = (await t.post('/group', { name: 'multi-a', description: 'A' }, { key: ADMIN_API_KEY })).body.id;
      const b = (await t.post('/group', { name: 'multi-b', description: 'B' }, { key: ADMIN_API_KEY })).body.id;
      const res = await t.put(`/group/${a}`, { names: ['multi-b'], description: 'Both' }, { key: ADMIN_API_KEY });
      expect(res.body.groups.map((g: any) => g.id)).toEqual([a, b]);
      expect(res.body.groups[1].changes.description).toEqual({ removed: 'B', added: 'Both' });
    });

    it('setting name for several groups is 801 and changes nothing', async () => {
      const res = await t.put('/group/multi-a', { names: ['multi-b'], name: 'single', description: 'changed?' }, { key: ADMIN_API_KEY });
      expectError(res, 801, 400);
      expect((await groupNamed('multi-a'))?.description).toBe('Both');
    });

    it('a name taken by another group is 801; an empty one 800; a bad regexp 803; an empty description 802', async () => {
      expectError(await t.put('/group/multi-a', { name: 'multi-b' }, { key: ADMIN_API_KEY }), 801, 400);
      expectError(await t.put('/group/multi-a', { name: ' ' }, { key: ADMIN_API_KEY }), 800, 400);
      expectError(await t.put('/group/multi-a', { user_regexp: '[' }, { key: ADMIN_API_KEY }), 803, 400);
      expectError(await t.put('/group/multi-a', { description: '' }, { key: ADMIN_API_KEY }), 802, 400);
    });

    it('system groups keep their name (32000) and stay active', async () => {
      expectError(await t.put('/group/editusers', { name: 'user-editors' }, { key: ADMIN_API_KEY }), 32000, 400);
      const res = await t.put('/group/editusers', { is_active: false }, { key: ADMIN_API_KEY });
      expect(res.body.groups[0].changes).toEqual({});
    });

    it('renaming a group named by a parameter renames the parameter value too', async () => {
      await t.post('/group', { name: 'insiders', description: 'Insiders', is_active: true }, { key: ADMIN_API_KEY });
      await t.setParameters({ insidergroup: 'insiders' });
      await t.put('/group/insiders', { name: 'trusted' }, { key: ADMIN_API_KEY });
      expect((await t.app.get(ParametersService).load()).get('insidergroup')).toBe('trusted');
    });

    it('unknown groups are 51; anonymous 410; outside creategroups 304', async () => {
      expectError(await t.put('/group/no-such', { description: 'x' }, { key: ADMIN_API_KEY }), 51, 404);
      expectError(await t.put('/group/99999', { description: 'x' }, { key: ADMIN_API_KEY }), 51, 404);
      expectError(await t.put('/group/qa-team', { description: 'x' }), 410, 401);
      expectError(await t.put('/group/qa-team', { description: 'x' }, { key: editusers.apiKey }), 304, 401);
    });
  });

  describe('user_regexp membership', () => {
    it('a new group with a regexp takes in the matching accounts; a changed regexp moves them', async () => {
      await t.createUser('alice@corp.example.com');
      await t.createUser('bob@other.example.com');
      const id = (await t.post('/group', { name: 'corp', description: 'Corp staff', user_regexp: '@corp\\.example\\.com$', is_active: true }, { key: ADMIN_API_KEY })).body.id;
      const members = async () => (await t.get(`/group/${id}`, { key: ADMIN_API_KEY, query: { membership: 1 } })).body.groups[0].membership.map((m: any) => m.name);
      expect(await members()).toEqual([ADMIN_LOGIN, 'alice@corp.example.com']);
      const res = await t.put('/group/corp', { user_regexp: '@OTHER\\.example\\.com$' }, { key: ADMIN_API_KEY });
      expect(res.body.groups[0].changes.user_regexp).toEqual({ removed: '@corp\\.example\\.com$', added: '@OTHER\\.example\\.com$' });
      expect(await members()).toEqual([ADMIN_LOGIN, 'bob@other.example.com']);
      await t.put('/group/corp', { user_regexp: '' }, { key: ADMIN_API_KEY });
      expect(await members()).toEqual([ADMIN_LOGIN]);
    });
  });

  describe('OpenAPI', () => {
    it('documents the body of Create/Update Group and the query of Get Group', async () => {
      const { paths, components } = (await t.get('/openapi.json')).body;
      for (const [path, method] of [['/rest/group', 'post'], ['/rest/group/{id_or_name}', 'put']]) {
        const ref = paths[path][method].requestBody.content['application/json'].schema.$ref;
        const schema = components.schemas[ref.split('/').pop()];
        expect(Object.keys(schema.properties)).toEqual(['name', 'description', 'user_regexp', 'is_active', 'icon_url']);
      }
      const names = (path: string, method: string) => paths[path][method].parameters.map((p: any) => p.name);
      expect(names('/rest/group', 'get')).toEqual(expect.arrayContaining(['ids', 'names', 'membership', 'include_fields']));
      expect(names('/rest/group/{id_or_name}', 'get')).toEqual(expect.arrayContaining(['id_or_name', 'ids', 'names', 'membership']));
      expect(names('/rest/group/{id_or_name}', 'put')).toEqual(expect.arrayContaining(['id_or_name', 'ids', 'names']));
    });
  });
});
