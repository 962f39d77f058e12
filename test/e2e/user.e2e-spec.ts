import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { GroupService, UserGrant } from '../../src/group/group.service.js';
import { UserService } from '../../src/user/user.service.js';
import { Membership } from '../../src/group/entities/membership.entity.js';
import { SavedSearch } from '../../src/user/entities/saved-search.entity.js';
import { SavedReport } from '../../src/user/entities/saved-report.entity.js';

/** Users (seed "User", "Users and login"; updates.md "Update User"; errors.md users rows). */
describe('users', () => {
  let t: TestApp;
  let plain: { id: number; login: string; apiKey: string };
  let editor: { id: number; login: string; apiKey: string };
  let target: { id: number; login: string; apiKey: string };
  let qaTeam: number;
  let secret: number;

  const expectError = (res: { status: number; body: any }, code: number, status: number) => {
    expect(res.body).toMatchObject({ error: true, code });
    expect(res.status).toBe(status);
  };
  const groups = () => t.app.get(GroupService);
  const users = () => t.app.get(UserService);
  const groupNames = async (ids: number[]) => (await groups().findByIds(ids)).map((g) => g.name);
  const directGroups = async (userId: number, bless = false) => groupNames(await groups().directGroupIds(userId, bless));

  beforeAll(async () => {
    t = await startTestApp();
    qaTeam = (await t.post('/group', { name: 'qa-team', description: 'QA', is_active: true }, { key: ADMIN_API_KEY })).body.id;
    secret = (await t.post('/group', { name: 'secret', description: 'Secret', is_active: true }, { key: ADMIN_API_KEY })).body.id;
    plain = await t.createUser('plain@example.com', { realName: 'Plain Person' });
    editor = await t.createUser('editor@example.com', { groups: ['editusers'], realName: 'Edith Editor' });
    target = await t.createUser('target@example.com', { groups: ['qa-team', 'secret'], realName: 'Tara Target' });
    await t.db.transaction(async (tx) => {
      await tx.repository(SavedSearch).insert({ userId: target.id, name: 'My bugs', query: 'assigned_to=target%40example.com' });
      await tx.repository(SavedReport).insert({ userId: target.id, name: 'Weekly', query: 'x_axis_field=status' });
      // plain may bless qa-team (but not secret)
      await groups().changeDirectGroups(tx, plain.id, true, { add: [qaTeam], remove: [] });
    });
  });
  afterAll(() => t.close());

  describe('Create User (editusers)', () => {
    it('creates an account with its regexp memberships, audited; the password is trimmed', async () => {
      const res = await t.post('/user', { email: '  new@example.com ', full_name: 'New Person', password: '  secret-pass  ' }, { key: ADMIN_API_KEY });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: expect.any(Number) });
      expect(await users().findById(res.body.id)).toMatchObject({ login: 'new@example.com', email: 'new@example.com', realName: 'New Person', loginDeniedText: '' });
      const regexp = await t.db.read.repository(Membership).findBy({ userId: res.body.id, grantType: UserGrant.REGEXP });
      expect(await groupNames(regexp.map((m) => m.groupId))).toEqual(['editbugs']);
      expect((await t.get('/login', { query: { login: 'new@example.com', password: 'secret-pass' } })).status).toBe(200);
      const audit = (await t.auditOf('Tracker::User', res.body.id)).find((a) => a.field === '__create__');
      expect(audit?.added).toBe('new@example.com');
    });

    it('without a password the account exists but cannot log in with one', async () => {
      const res = await t.post('/user', { email: 'nopass@example.com' }, { key: editor.apiKey });
      expect(res.status).toBe(200);
      expectError(await t.get('/login', { query: { login: 'nopass@example.com', password: 'anything1' } }), 300, 401);
    });

    it('anonymous gets 304 (editusers is checked directly); a plain user 304', async () => {
      expectError(await t.post('/user', { email: 'x@example.com' }), 304, 401);
      expectError(await t.post('/user', { email: 'x@example.com' }, { key: plain.apiKey }), 304, 401);
    });

    it('refuses an empty login (32000), a bad address (501), a taken one (500, case-insensitive), weak passwords (502/305)', async () => {
      expectError(await t.post('/user', { email: '   ' }, { key: ADMIN_API_KEY }), 32000, 400);
      expectError(await t.post('/user', { email: 'not-an-address' }, { key: ADMIN_API_KEY }), 501, 400);
      expectError(await t.post('/user', { email: 'PLAIN@example.com' }, { key: ADMIN_API_KEY }), 500, 400);
      expectError(await t.post('/user', { email: 'short@example.com', password: ' 12345 ' }, { key: ADMIN_API_KEY }), 502, 400);
      await t.setParameters({ password_complexity: 'letters_numbers' });
      expectError(await t.post('/user', { email: 'weak@example.com', password: 'alllowercase' }, { key: ADMIN_API_KEY }), 305, 400);
      expect((await t.post('/user', { email: 'strong@example.com', password: 'Str0ngPass' }, { key: ADMIN_API_KEY })).status).toBe(200);
      await t.setParameters({ password_complexity: 'no_constraints' });
      expect((await users().findByLogins(['weak@example.com', 'short@example.com'])).size).toBe(0);
    });

    it('ignores unknown keys (name instead of full_name)', async () => {
      const res = await t.post('/user', { email: 'unknown-keys@example.com', name: 'Ignored' }, { key: ADMIN_API_KEY });
      expect(res.status).toBe(200);
    });
  });

  describe('Get User visibility', () => {
    it('rule 1: anonymous sees id, name and real_name only', async () => {
      const res = await t.get('/user/target@example.com');
      expect(res.body).toEqual({ users: [{ id: target.id, name: 'target@example.com', real_name: 'Tara Target' }] });
    });

    it('anonymous may not use ids or match (505)', async () => {
      expectError(await t.get('/user', { query: { ids: target.id } }), 505, 401);
      expectError(await t.get(`/user/${target.id}`), 505, 401);
      expectError(await t.get('/user', { query: { match: 'tar' } }), 505, 401);
    });

    it('rule 2: a logged-in user sees email, can_login and only the groups it can bless', async () => {
      const [user] = (await t.get(`/user/${target.id}`, { key: plain.apiKey })).body.users;
      expect(user).toEqual({
        id: target.id, name: 'target@example.com', real_name: 'Tara Target', email: 'target@example.com', can_login: true,
        groups: [{ id: qaTeam, name: 'qa-team', description: 'QA' }],
      });
    });

    it('rule 2: without bless rights a logged-in user sees no groups of others', async () => {
      const other = await t.createUser('nobody@example.com');
      const [seen] = (await t.get(`/user/${target.id}`, { key: other.apiKey })).body.users;
      expect(seen.groups).toEqual([]);
      expect(seen).not.toHaveProperty('saved_searches');
    });

    it('rule 3: editusers sees every group, email_enabled and login_denied_text; rule 4: not the saved searches', async () => {
      const [user] = (await t.get(`/user/${target.id}`, { key: editor.apiKey })).body.users;
      expect(user).toMatchObject({ email_enabled: true, login_denied_text: '', can_login: true });
      expect(user.groups.map((g: any) => g.name)).toEqual(['bz_canusewhines', 'editbugs', 'qa-team', 'secret']);
      expect(user).not.toHaveProperty('saved_searches');
      expect(user).not.toHaveProperty('saved_reports');
    });

    it('rules 3 and 4: oneself sees all own groups (inherited and regexp too) and saved searches and reports', async () => {
      const [user] = (await t.get('/user', { key: target.apiKey, query: { names: 'target@example.com' } })).body.users;
      expect(user.groups.map((g: any) => g.name)).toEqual(['bz_canusewhines', 'editbugs', 'qa-team', 'secret']);
      expect(user.saved_searches).toEqual([{ id: expect.any(Number), name: 'My bugs', query: 'assigned_to=target%40example.com' }]);
      expect(user.saved_reports).toEqual([{ id: expect.any(Number), name: 'Weekly', query: 'x_axis_field=status' }]);
      expect(user).not.toHaveProperty('email_enabled');
    });

    it('user 1 is the first administrator and visible to any logged-in caller (clients probe it)', async () => {
      const [admin] = (await t.get('/user', { key: plain.apiKey, query: { ids: 1 } })).body.users;
      expect(admin).toMatchObject({ id: 1, name: ADMIN_LOGIN });
    });

    it('include_fields and exclude_fields trim users and their groups', async () => {
      const res = await t.get(`/user/${target.id}`, { key: editor.apiKey, query: { include_fields: 'name,groups.name', exclude_fields: 'email' } });
      expect(res.body.users[0]).toEqual({ name: 'target@example.com', groups: ['bz_canusewhines', 'editbugs', 'qa-team', 'secret'].map((name) => ({ name })) });
    });

    it('without ids, names or match the call is 50; an unknown login 51; an unknown id is skipped', async () => {
      expectError(await t.get('/user', { key: plain.apiKey }), 50, 400);
      expectError(await t.get('/user/ghost@example.com', { key: plain.apiKey }), 51, 404);
      const res = await t.get('/user', { key: plain.apiKey, query: { ids: [99999, target.id] } });
      expect(res.body.users.map((u: any) => u.id)).toEqual([target.id]);
    });

    it('a creategroups member sees users like any logged-in caller', async () => {
      const grouper = await t.createUser('grouper@example.com', { groups: ['creategroups'] });
      const [user] = (await t.get(`/user/${target.id}`, { key: grouper.apiKey })).body.users;
      expect(user).toEqual({ id: target.id, name: 'target@example.com', real_name: 'Tara Target', email: 'target@example.com', can_login: true, groups: [] });
    });

    it('GET /rest/user/ (trailing slash) matches no route (32614)', async () => {
      expectError(await t.get('/user/', { key: plain.apiKey }), 32614, 404);
    });

    it('path, ids and names are combined, each user once', async () => {
      const res = await t.get(`/user/${target.id}`, { key: plain.apiKey, query: { ids: [plain.id, target.id], names: ['target@example.com', 'editor@example.com'] } });
      expect(res.body.users.map((u: any) => u.id)).toEqual([target.id, editor.id, plain.id]);
    });

    it('with usevisibilitygroups on, ids of a user the caller cannot see are 304', async () => {
      await t.setParameters({ usevisibilitygroups: '1' });
      try {
        expectError(await t.get(`/user/${target.id}`, { key: plain.apiKey }), 304, 401);
        // oneself stays visible; names are not subject to visibility (as in Bugzilla)
        expect((await t.get(`/user/${plain.id}`, { key: plain.apiKey })).status).toBe(200);
        expect((await t.get('/user/target@example.com', { key: plain.apiKey })).status).toBe(200);
        expect((await t.get('/user', { key: plain.apiKey, query: { match: 'Tara' } })).body.users).toEqual([]);
      } finally {
        await t.setParameters({ usevisibilitygroups: '0' });
      }
    });
  });

  describe('Get User match', () => {
    beforeAll(async () => {
      for (let i = 1; i <= 4; i++) await t.createUser(`matcher${i}@example.com`, { realName: `Match Person ${i}` });
      await t.createUser('matcher-off@example.com', { realName: 'Gone Matcher', disabled: 'Left.' });
      await t.createUser('percent%@example.com', { realName: 'Percent' });
    });

    it('finds users whose login or real name contains the string, ordered by login, enabled ones only', async () => {
      const res = await t.get('/user', { key: plain.apiKey, query: { match: 'matcher' } });
      expect(res.body.users.map((u: any) => u.name)).toEqual(['matcher1@example.com', 'matcher2@example.com', 'matcher3@example.com', 'matcher4@example.com']);
      const byName = await t.get('/user', { key: plain.apiKey, query: { match: 'match person 3' } });
      expect(byName.body.users.map((u: any) => u.name)).toEqual(['matcher3@example.com']);
    });

    it('include_disabled adds disabled accounts; an exact login finds a disabled account anyway', async () => {
      const res = await t.get('/user', { key: plain.apiKey, query: { match: 'matcher', include_disabled: 'True' } });
      expect(res.body.users.map((u: any) => u.name)).toContain('matcher-off@example.com');
      const exact = await t.get('/user', { key: plain.apiKey, query: { match: 'matcher-off@example.com' } });
      expect(exact.body.users.map((u: any) => u.name)).toEqual(['matcher-off@example.com']);
    });

    it('several strings are combined; LIKE wildcards in the string are literal', async () => {
      const res = await t.get('/user', { key: plain.apiKey, query: { match: ['Person 1', 'Person 2'] } });
      expect(res.body.users.map((u: any) => u.name)).toEqual(['matcher1@example.com', 'matcher2@example.com']);
      expect((await t.get('/user', { key: plain.apiKey, query: { match: '%' } })).body.users.map((u: any) => u.name)).toEqual(['percent%@example.com']);
    });

    it('limit caps each string; so does maxusermatches; a non-numeric limit is 52', async () => {
      expect((await t.get('/user', { key: plain.apiKey, query: { match: 'matcher', limit: 2 } })).body.users).toHaveLength(2);
      await t.setParameters({ maxusermatches: '3' });
      try {
        expect((await t.get('/user', { key: plain.apiKey, query: { match: 'matcher' } })).body.users).toHaveLength(3);
        expect((await t.get('/user', { key: plain.apiKey, query: { match: 'matcher', limit: 10 } })).body.users).toHaveLength(3);
      } finally {
        await t.setParameters({ maxusermatches: '1000' });
      }
      expectError(await t.get('/user', { key: plain.apiKey, query: { match: 'matcher', limit: 'many' } }), 52, 400);
    });
  });

  describe('Get User group filters', () => {
    it('group_ids and groups keep users in any of the groups (inherited and regexp membership count)', async () => {
      const res = await t.get('/user', { key: target.apiKey, query: { names: ['target@example.com', 'plain@example.com'], groups: 'qa-team' } });
      expect(res.body.users.map((u: any) => u.id)).toEqual([target.id]);
      const byId = await t.get('/user', { key: plain.apiKey, query: { names: ['target@example.com', 'plain@example.com'], group_ids: secret } });
      expect(byId.body.users.map((u: any) => u.id)).toEqual([target.id]);
      const regexp = await t.get('/user', { key: plain.apiKey, query: { names: ['target@example.com', 'plain@example.com'], groups: 'editbugs' } });
      expect(regexp.body.users).toHaveLength(2);
    });

    it('a group name the caller is not in, or that does not exist, is 804; an unknown group id is 51', async () => {
      expectError(await t.get('/user', { key: plain.apiKey, query: { names: 'target@example.com', groups: 'qa-team' } }), 804, 400);
      expectError(await t.get('/user', { key: plain.apiKey, query: { names: 'target@example.com', groups: 'no-such' } }), 804, 400);
      expectError(await t.get('/user', { key: plain.apiKey, query: { names: 'target@example.com', group_ids: 99999 } }), 51, 404);
    });
  });

  describe('Update User (editusers)', () => {
    it('changes full_name, email_enabled and login_denied_text with 5.0.6 change keys, audited', async () => {
      const u = await t.createUser('change-me@example.com', { realName: 'Before' });
      const res = await t.put(`/user/${u.id}`, { full_name: 'After', email_enabled: false, login_denied_text: 'Spammer.' }, { key: editor.apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        users: [{
          id: u.id,
          changes: {
            full_name: { removed: 'Before', added: 'After' },
            disable_mail: { removed: '0', added: '1' },
            login_denied_text: { removed: '', added: 'Spammer.' },
            is_enabled: { removed: '1', added: '0' },
          },
        }],
      });
      // disabled: every credential is refused with 301
      expectError(await t.get('/user/1', { key: u.apiKey }), 301, 401);
      const [seen] = (await t.get(`/user/${u.id}`, { key: editor.apiKey })).body.users;
      expect(seen).toMatchObject({ can_login: false, email_enabled: false, login_denied_text: 'Spammer.' });
      // enabling again
      const back = await t.put(`/user/${u.id}`, { login_denied_text: '' }, { key: editor.apiKey });
      expect(back.body.users[0].changes.is_enabled).toEqual({ removed: '0', added: '1' });
      expect((await t.get('/user/1', { key: u.apiKey })).status).toBe(200);
      const audit = (await t.auditOf('Tracker::User', u.id)).filter((a) => a.field !== '__create__');
      expect(audit.map((a) => a.field).sort()).toEqual(['disable_mail', 'full_name', 'is_enabled', 'is_enabled', 'login_denied_text', 'login_denied_text']);
    });

    it('changes the email (login) of one user: regexp memberships follow, tokens end', async () => {
      await t.post('/group', { name: 'corp', description: 'Corp', user_regexp: '@corp\\.example$', is_active: true }, { key: ADMIN_API_KEY });
      const u = await t.createUser('mover@example.com', { password: 'mover-pass' });
      const token = (await t.get('/login', { query: { login: 'mover@example.com', password: 'mover-pass' } })).body.token;
      const res = await t.put('/user/mover@example.com', { email: 'mover@corp.example' }, { key: ADMIN_API_KEY });
      expect(res.body.users[0].changes).toEqual({ email: { removed: 'mover@example.com', added: 'mover@corp.example' } });
      const [seen] = (await t.get(`/user/${u.id}`, { key: ADMIN_API_KEY })).body.users;
      expect(seen).toMatchObject({ name: 'mover@corp.example', email: 'mover@corp.example' });
      expect(seen.groups.map((g: any) => g.name)).toContain('corp');
      expectError(await t.get('/user/1', { query: { token } }), 32000, 400);
    });

    it('email for several users is 500 and changes nothing; a taken email is 500; a bad one 501', async () => {
      const res = await t.put(`/user/${plain.id}`, { ids: [target.id], email: 'both@example.com', full_name: 'Both' }, { key: ADMIN_API_KEY });
      expectError(res, 500, 400);
      expect((await users().findById(plain.id))?.realName).toBe('Plain Person');
      expectError(await t.put(`/user/${plain.id}`, { email: 'TARGET@example.com' }, { key: ADMIN_API_KEY }), 500, 400);
      expectError(await t.put(`/user/${plain.id}`, { email: 'bad address' }, { key: ADMIN_API_KEY }), 501, 400);
    });

    it('a new password is trimmed, checked, never echoed, and ends the login tokens', async () => {
      const u = await t.createUser('pw@example.com', { password: 'old-password' });
      const token = (await t.get('/login', { query: { login: 'pw@example.com', password: 'old-password' } })).body.token;
      expectError(await t.put(`/user/${u.id}`, { password: 'short' }, { key: editor.apiKey }), 502, 400);
      const res = await t.put(`/user/${u.id}`, { password: '  new-password  ' }, { key: editor.apiKey });
      expect(res.body.users[0].changes).toEqual({ password: { removed: '', added: '' } });
      expectError(await t.get('/user/1', { query: { token } }), 32000, 400);
      expectError(await t.get('/login', { query: { login: 'pw@example.com', password: 'old-password' } }), 300, 401);
      expect((await t.get('/login', { query: { login: 'pw@example.com', password: 'new-password' } })).status).toBe(200);
      const audit = (await t.auditOf('Tracker::User', u.id)).find((a) => a.field === 'password');
      expect(audit).toMatchObject({ removed: '', added: '' });
    });

    it('several users by path, ids and names (clients send PUT /rest/user/LOGIN with names)', async () => {
      const a = await t.createUser('multi-a@example.com');
      const b = await t.createUser('multi-b@example.com');
      const res = await t.put('/user/multi-a@example.com', { names: ['multi-a@example.com', 'multi-b@example.com'], full_name: 'Same' }, { key: editor.apiKey });
      expect(res.body.users.map((u: any) => u.id)).toEqual([a.id, b.id]);
    });

    it('unknown users are 51; anonymous 410; outside editusers 304; unknown keys are ignored', async () => {
      expectError(await t.put('/user/ghost@example.com', { full_name: 'x' }, { key: editor.apiKey }), 51, 404);
      expectError(await t.put('/user/99999', { full_name: 'x' }, { key: editor.apiKey }), 51, 404);
      expectError(await t.put(`/user/${plain.id}`, { full_name: 'x' }), 410, 401);
      expectError(await t.put(`/user/${plain.id}`, { full_name: 'x' }, { key: plain.apiKey }), 304, 401);
      const res = await t.put(`/user/${plain.id}`, { real_name: 'ignored' }, { key: editor.apiKey });
      expect(res.body).toEqual({ users: [{ id: plain.id, changes: {} }] });
      expectError(await t.put(`/user/${plain.id}`, { full_name: ['a', 'b'] }, { key: editor.apiKey }), 53, 400);
    });
  });

  describe('Update User groups and bless_groups', () => {
    let member: { id: number };
    let count = 0;
    beforeEach(async () => {
      member = await t.createUser(`member${++count}@example.com`);
    });

    it('add, then remove, with bless rights (admin blesses every group)', async () => {
      const added = await t.put(`/user/${member.id}`, { groups: { add: ['qa-team', String(secret)] } }, { key: ADMIN_API_KEY });
      expect(added.body.users[0].changes).toEqual({ groups: { removed: '', added: 'qa-team,secret' } });
      expect(await directGroups(member.id)).toEqual(['qa-team', 'secret']);
      const removed = await t.put(`/user/${member.id}`, { groups: { remove: [qaTeam] } }, { key: ADMIN_API_KEY });
      expect(removed.body.users[0].changes).toEqual({ groups: { removed: 'qa-team', added: '' } });
      expect(await directGroups(member.id)).toEqual(['secret']);
    });

    it('a group in both add and remove ends up added; existing/absent ones change nothing', async () => {
      const res = await t.put(`/user/${member.id}`, { groups: { add: ['qa-team'], remove: ['qa-team', 'secret'] } }, { key: ADMIN_API_KEY });
      expect(res.body.users[0].changes).toEqual({ groups: { removed: '', added: 'qa-team' } });
      const again = await t.put(`/user/${member.id}`, { groups: { add: ['qa-team'] } }, { key: ADMIN_API_KEY });
      expect(again.body.users[0].changes).toEqual({});
    });

    it('set gives exactly the set and wins over add/remove', async () => {
      await t.put(`/user/${member.id}`, { groups: { add: ['qa-team'] } }, { key: ADMIN_API_KEY });
      const res = await t.put(`/user/${member.id}`, { groups: { set: ['secret'], add: ['canconfirm'], remove: ['secret'] } }, { key: ADMIN_API_KEY });
      expect(res.body.users[0].changes).toEqual({ groups: { removed: 'qa-team', added: 'secret' } });
      expect(await directGroups(member.id)).toEqual(['secret']);
    });

    it('regexp memberships are not direct: remove cannot take them away', async () => {
      const res = await t.put(`/user/${member.id}`, { groups: { remove: ['editbugs'] } }, { key: ADMIN_API_KEY });
      expect(res.body.users[0].changes).toEqual({});
      const [seen] = (await t.get(`/user/${member.id}`, { key: ADMIN_API_KEY })).body.users;
      expect(seen.groups.map((g: any) => g.name)).toContain('editbugs');
    });

    it('without bless rights for a group, add, remove and set are 304 and nothing changes', async () => {
      // editor is in editusers but may bless nothing
      expectError(await t.put(`/user/${member.id}`, { groups: { add: ['qa-team'] } }, { key: editor.apiKey }), 304, 401);
      expectError(await t.put(`/user/${member.id}`, { groups: { remove: ['qa-team'] } }, { key: editor.apiKey }), 304, 401);
      expectError(await t.put(`/user/${member.id}`, { groups: { set: ['qa-team'] } }, { key: editor.apiKey }), 304, 401);
      expectError(await t.put(`/user/${member.id}`, { full_name: 'Rolled back', bless_groups: { add: ['qa-team'] } }, { key: editor.apiKey }), 304, 401);
      expect((await users().findById(member.id))?.realName).toBe('');
    });

    it('an editusers member blessing one group may change that group and set keeps the groups it cannot bless', async () => {
      const blesser = await t.createUser('partial-blesser@example.com', { groups: ['editusers'] });
      await t.db.transaction((tx) => groups().changeDirectGroups(tx, blesser.id, true, { add: [qaTeam], remove: [] }));
      await t.put(`/user/${member.id}`, { groups: { add: ['secret'] } }, { key: ADMIN_API_KEY });
      expectError(await t.put(`/user/${member.id}`, { groups: { add: ['secret'] } }, { key: blesser.apiKey }), 304, 401);
      const res = await t.put(`/user/${member.id}`, { groups: { set: ['qa-team'] } }, { key: blesser.apiKey });
      expect(res.body.users[0].changes).toEqual({ groups: { removed: '', added: 'qa-team' } });
      expect(await directGroups(member.id)).toEqual(['qa-team', 'secret']);
    });

    it('bless_groups grants and takes direct bless rights (set: [] empties them)', async () => {
      const res = await t.put(`/user/${member.id}`, { bless_groups: { add: ['qa-team'] } }, { key: ADMIN_API_KEY });
      expect(res.body.users[0].changes).toEqual({ bless_groups: { removed: '', added: 'qa-team' } });
      expect(await directGroups(member.id, true)).toEqual(['qa-team']);
      const removed = await t.put(`/user/${member.id}`, { bless_groups: { set: [] } }, { key: ADMIN_API_KEY });
      expect(removed.body.users[0].changes).toEqual({ bless_groups: { removed: 'qa-team', added: '' } });
    });

    it('unknown groups are 51; malformed change objects 53', async () => {
      expectError(await t.put(`/user/${member.id}`, { groups: { add: ['no-such-group'] } }, { key: ADMIN_API_KEY }), 51, 404);
      expectError(await t.put(`/user/${member.id}`, { groups: { add: 'qa-team' } }, { key: ADMIN_API_KEY }), 53, 400);
      expectError(await t.put(`/user/${member.id}`, { groups: ['qa-team'] }, { key: ADMIN_API_KEY }), 53, 400);
    });
  });

  describe('OpenAPI', () => {
    it('documents the bodies of Create/Update User and the query of Get User', async () => {
      const { paths, components } = (await t.get('/openapi.json')).body;
      const body = (path: string, method: string) => {
        const ref: string = paths[path][method].requestBody.content['application/json'].schema.$ref;
        return components.schemas[ref.split('/').pop()!];
      };
      expect(Object.keys(body('/rest/user', 'post').properties)).toEqual(['email', 'full_name', 'password']);
      const update = body('/rest/user/{id_or_name}', 'put');
      expect(Object.keys(update.properties)).toEqual(['full_name', 'email', 'password', 'email_enabled', 'login_denied_text', 'groups', 'bless_groups']);
      expect(update.properties.email_enabled.type).toBe('boolean');
      const names = (path: string, method: string) => paths[path][method].parameters.map((p: any) => p.name);
      const getUser = ['ids', 'names', 'match', 'limit', 'include_disabled', 'group_ids', 'groups', 'include_fields', 'exclude_fields'];
      expect(names('/rest/user', 'get')).toEqual(expect.arrayContaining(getUser));
      expect(names('/rest/user/{id_or_name}', 'get')).toEqual(expect.arrayContaining(['id_or_name', ...getUser]));
      expect(names('/rest/user/{id_or_name}', 'put')).toEqual(expect.arrayContaining(['id_or_name', 'ids', 'names']));
    });
  });
});
