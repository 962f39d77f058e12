import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type TestApp } from '../support/test-app.js';
import { ok } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { expectError, fileBug, setProductControl } from './bug-fixtures.js';
import { BugGroup } from '../../src/bug/entities/bug-group.entity.js';
import { addFlagType, addGroup, addProduct, expectUncoded, getBug, plainUser, update, updated } from './bug-update-fixtures.js';

const NA = 0;
const SHOWN = 1;
const MANDATORY = 3;

describe('Update Bug: groups, product changes (rule 5) and who may edit a product’s bugs', () => {
  let t: TestApp;
  let member: { id: number; login: string; apiKey: string };
  let outsider: { id: number; login: string; apiKey: string };
  const [team, locked, elsewhere] = [named('team'), named('locked'), named('elsewhere')];
  beforeAll(async () => {
    t = await startTestApp();
    member = await t.createUser(loginNamed('member'));
    outsider = await t.createUser(loginNamed('outsider'));
    await addGroup(t, team, [{ product: 'TestProduct', membercontrol: SHOWN, othercontrol: NA }], [1, member.id]);
    await addGroup(t, locked, [{ product: 'TestProduct', membercontrol: MANDATORY, othercontrol: MANDATORY }], [1, member.id]);
    await addGroup(t, elsewhere, [], [1, member.id]);
    // Bugs of TestProduct must be in `locked` from now on; the tests that need a bug without it remove the control.
  });
  afterAll(async () => {
    // A running instance goes on with the files after this one: TestProduct loses the controls (a control of nothing).
    for (const group of [team, locked]) await setProductControl(t, group, { membercontrol: NA, othercontrol: NA });
    await t.close();
  });

  describe('groups {add, remove}', () => {
    it('a member adds a Shown group, and the bug is hidden from outsiders', async () => {
      const id = await fileBug(t, {}, member.apiKey);
      const res = updated(await update(t, id, { groups: { add: [team] } }, member.apiKey));
      expect(res.changes.groups).toEqual({ removed: '', added: team });
      expect((await getBug(t, id, member.apiKey)).groups).toEqual([locked, team]);
      expectError(await t.get(`/bug/${id}`, { key: outsider.apiKey }), 102, 401);
      expectError(await update(t, id, { summary: 'x' }, outsider.apiKey), 102, 401);
    });

    it('a group that does not exist or is not usable in the product cannot be added — 120', async () => {
      const id = await fileBug(t, {}, member.apiKey);
      expectError(await update(t, id, { groups: { add: ['no-such-group'] } }, member.apiKey), 120, 401);
      expectError(await update(t, id, { groups: { add: [elsewhere] } }, member.apiKey), 120, 401);
    });

    it('a non-member cannot add a group — 120 (the cc list lets them see the bug)', async () => {
      const id = await fileBug(t, { cc: [outsider.login] }, member.apiKey);
      expect((await getBug(t, id, outsider.apiKey)).id).toBe(id);
      expectError(await update(t, id, { groups: { add: [team] } }, outsider.apiKey), 120, 401);
      // Nor lift a restriction they are not in.
      await update(t, id, { groups: { add: [team] } }, member.apiKey);
      expectError(await update(t, id, { groups: { remove: [team] } }, outsider.apiKey), 120, 401);
    });

    it('removes a group; a Mandatory one stays — 120; an unknown one is 120 too', async () => {
      const id = await fileBug(t, {}, member.apiKey);
      await update(t, id, { groups: { add: [team] } }, member.apiKey);
      expect(updated(await update(t, id, { groups: { remove: [team] } }, member.apiKey)).changes.groups).toEqual({ removed: team, added: '' });
      expectError(await update(t, id, { groups: { remove: [locked] } }, member.apiKey), 120, 401);
      expectError(await update(t, id, { groups: { remove: ['no-such-group'] } }, member.apiKey), 120, 401);
      expect((await getBug(t, id)).groups).toEqual([locked]);
    });

    it('groups must be an object of arrays — 53', async () => {
      const id = await fileBug(t, {}, member.apiKey);
      expectError(await update(t, id, { groups: [team] }, member.apiKey), 53, 400);
      expectError(await update(t, id, { groups: { add: team } }, member.apiKey), 53, 400);
    });
  });

  describe('product changes (rule 5)', () => {
    const [moved, bare, confirmedOnly, membersOnly] = [named('Moved'), named('Bare'), named('Confirmed only'), named('Members only')];
    const movedSecret = named('moved-secret');
    beforeAll(async () => {
      await addProduct(t, moved, { components: ['General', 'TestComponent'], milestones: ['M1'], defaultMilestone: 'M0' });
      await addProduct(t, bare, { components: ['Other'], versions: ['1.0'] });
      await addProduct(t, confirmedOnly, { components: ['TestComponent'], hasUnconfirmed: false });
      await addProduct(t, membersOnly, { components: ['TestComponent'] });
      await addGroup(t, movedSecret, [{ product: moved, membercontrol: MANDATORY, othercontrol: MANDATORY }], [1, member.id]);
      await addGroup(t, named('entry-team'), [{ product: membersOnly, entry: true, membercontrol: SHOWN }], [1]);
    });

    it('drops the groups invalid in the new product and adds its mandatory ones; the milestone goes to the new default', async () => {
      const id = await fileBug(t, {}, member.apiKey);
      await update(t, id, { groups: { add: [team] } }, member.apiKey);
      const res = updated(await update(t, id, { product: moved }, member.apiKey));
      expect(res.changes).toEqual({
        product: { removed: 'TestProduct', added: moved },
        target_milestone: { removed: '---', added: 'M0' },
        groups: { removed: `${locked}, ${team}`, added: movedSecret },
      });
      expect(await getBug(t, id)).toMatchObject({ product: moved, component: 'TestComponent', version: 'unspecified', groups: [movedSecret] });
    });

    it('the component and version keep their names and must exist in the new product — 51', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { product: bare }), 51, 404);
      expectError(await update(t, id, { product: bare, component: 'Other' }), 51, 404);
      const res = updated(await update(t, id, { product: bare, component: 'Other', version: '1.0' }));
      expect(res.changes).toMatchObject({ product: { added: bare }, component: { removed: 'TestComponent', added: 'Other' }, version: { removed: 'unspecified', added: '1.0' } });
    });

    it('needs the right to file bugs in the new product — 106 (also for a product that does not exist)', async () => {
      const id = await fileBug(t, {}, member.apiKey);
      expectError(await update(t, id, { product: membersOnly }, member.apiKey), 106, 401);
      expectError(await update(t, id, { product: 'No such product' }, member.apiKey), 106, 401);
      expect((await getBug(t, id)).product).toBe('TestProduct');
    });

    it('an UNCONFIRMED bug moved to a product without UNCONFIRMED is confirmed', async () => {
      const id = await fileBug(t, { status: 'UNCONFIRMED' });
      const res = updated(await update(t, id, { product: confirmedOnly }));
      expect(res.changes).toMatchObject({ status: { removed: 'UNCONFIRMED', added: 'CONFIRMED' }, is_confirmed: { removed: '0', added: '1' } });
    });

    it('flags whose type does not apply in the new product are removed', async () => {
      const testProductOnly = named('testproduct-only');
      await addFlagType(t, testProductOnly, { products: ['TestProduct'] });
      const id = await fileBug(t);
      await update(t, id, { flags: [{ name: testProductOnly, status: '+' }] });
      const res = updated(await update(t, id, { product: moved }));
      expect(res.changes['flagtypes.name']).toEqual({ removed: `${testProductOnly}+`, added: '' });
      expect((await getBug(t, id)).flags).toEqual([]);
    });

    it('a component or version change within the product is checked the same way — 51, inactive 32000', async () => {
      const id = await fileBug(t);
      expectError(await update(t, id, { component: 'Nope' }), 51, 404);
      expectError(await update(t, id, { version: 'Nope' }), 51, 404);
      expectError(await update(t, id, { component: '' }), 105, 400);
      const retired = named('Retired');
      ok(await t.post('/component', {
        product: 'TestProduct', name: retired, description: 'old', default_assignee: ADMIN_LOGIN, is_open: false,
      }, { key: ADMIN_API_KEY }));
      try {
        expectUncoded(await update(t, id, { component: retired }), new RegExp(`component value '${retired}' is not active`));
      } finally {
        // TestProduct is every file's on a running instance.
        ok(await t.request('DELETE', `/component/TestProduct/${retired}`, { key: ADMIN_API_KEY }));
      }
    });
  });

  describe('editing a product’s bugs (canedit)', () => {
    it('a caller outside a canedit group of the product may not edit its bugs — 109', async () => {
      const guarded = named('Guarded');
      await addProduct(t, guarded, { components: ['TestComponent'] });
      await addGroup(t, named('guards'), [{ product: guarded, canedit: true, membercontrol: NA }], [1]);
      const id = await fileBug(t);
      updated(await update(t, id, { product: guarded }));
      expectError(await update(t, id, { summary: 'may I?' }, outsider.apiKey), 109, 401);
      updated(await update(t, id, { summary: 'admin may' }, ADMIN_API_KEY));
    });

    inProcessIt('editbugs granted through a product’s group control counts for that product only (rule 4) (a caller outside editbugs)', async () => {
      const helper = await plainUser(t, 'product-helper@example.com');
      await addProduct(t, 'Helped', { components: ['TestComponent'] });
      await addGroup(t, 'helpers', [{ product: 'Helped', membercontrol: NA, editbugs: true }], [helper.id]);
      const here = await fileBug(t);
      updated(await update(t, here, { product: 'Helped' }));
      const elsewhere = await fileBug(t);
      await t.db.transaction((tx) => tx.repository(BugGroup).delete({ bugId: elsewhere }));
      expect(updated(await update(t, here, { assigned_to: helper.login }, helper.apiKey)).changes.assigned_to.added).toBe(helper.login);
      expectError(await update(t, elsewhere, { assigned_to: helper.login }, helper.apiKey), 115, 401);
    });
  });
});
