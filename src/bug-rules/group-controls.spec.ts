import { applyGroupChanges, initialGroups, mandatoryGroups, validGroupIds, type GroupChangeInput } from './group-controls.js';
import { Control, type GroupControl } from '../product/product.service.js';
import { caughtError } from '../common/errors/testing.js';

const control = (groupId: number, groupName: string, membercontrol: number, othercontrol: number, extra: Partial<GroupControl> = {}): GroupControl => ({
  productId: 1, groupId, groupName, groupIsActive: true, isBugGroup: true, entry: false, membercontrol, othercontrol, canedit: false, ...extra,
});

const controls = [
  control(10, 'shown', Control.SHOWN, Control.NA),
  control(11, 'mandatory', Control.MANDATORY, Control.MANDATORY),
  control(12, 'other-ok', Control.SHOWN, Control.SHOWN),
  control(13, 'inactive', Control.SHOWN, Control.SHOWN, { groupIsActive: false }),
  control(14, 'na', Control.NA, Control.NA),
];

const base = (over: Partial<GroupChangeInput>): GroupChangeInput => ({
  bugId: 7, product: 'P', controls, current: [], productChanged: false, add: [], remove: [], isMember: () => true, ...over,
});

const errorOf = (fn: () => unknown) => {
  const err = caughtError(fn);
  return [err.code, err.errorName];
};

describe('group rules', () => {
  it('valid groups are those with some control; mandatory follows the caller’s membership', () => {
    expect([...validGroupIds(controls)].sort()).toEqual([10, 11, 12, 13]);
    expect(mandatoryGroups(controls, () => false).map((c) => c.groupId)).toEqual([11]);
  });

  it('a member adds a Shown group', () => {
    expect(applyGroupChanges(base({ add: ['shown'] }))).toEqual([{ id: 10, name: 'shown' }]);
  });

  it('adding an unknown, NA or inactive group is refused — 120 group_restriction_not_allowed', () => {
    for (const name of ['nope', 'na', 'inactive']) {
      expect(errorOf(() => applyGroupChanges(base({ add: [name] })))).toEqual([120, 'group_restriction_not_allowed']);
    }
  });

  it('a non-member cannot add a group outside a product change, even when its other control allows it', () => {
    expect(errorOf(() => applyGroupChanges(base({ add: ['other-ok'], isMember: () => false })))).toEqual([120, 'group_restriction_not_allowed']);
    expect(applyGroupChanges(base({ add: ['other-ok'], isMember: () => false, productChanged: true }))).toEqual([
      { id: 11, name: 'mandatory' },
      { id: 12, name: 'other-ok' },
    ]);
  });

  it('removing an active mandatory group is refused — 120 group_invalid_removal', () => {
    const current = [{ id: 11, name: 'mandatory' }];
    expect(errorOf(() => applyGroupChanges(base({ current, remove: ['mandatory'] })))).toEqual([120, 'group_invalid_removal']);
  });

  it('removing an unknown group is refused, removing a known one the bug is not in is a no-op', () => {
    expect(errorOf(() => applyGroupChanges(base({ remove: ['nope'] })))).toEqual([120, 'group_invalid_removal']);
    expect(applyGroupChanges(base({ remove: ['shown'] }))).toEqual([]);
  });

  it('a non-member may not lift a restriction outside a product change', () => {
    const current = [{ id: 12, name: 'other-ok' }];
    expect(errorOf(() => applyGroupChanges(base({ current, remove: ['other-ok'], isMember: () => false })))).toEqual([120, 'group_invalid_removal']);
    expect(applyGroupChanges(base({ current, remove: ['other-ok'] }))).toEqual([]);
  });

  it('a product change drops groups invalid in the new product and adds its mandatory ones — rule 5', () => {
    const current = [{ id: 99, name: 'elsewhere' }, { id: 10, name: 'shown' }];
    expect(applyGroupChanges(base({ current, productChanged: true }))).toEqual([
      { id: 10, name: 'shown' },
      { id: 11, name: 'mandatory' },
    ]);
  });
});

describe('initial groups (Create Bug)', () => {
  const withDefault = [...controls, control(15, 'default', Control.DEFAULT, Control.NA)];
  const initial = (names: string[] | undefined, isMember: (id: number) => boolean = () => true) =>
    initialGroups({ product: 'P', controls: withDefault, names, isMember }).map((g) => g.id).sort();

  it('without groups: the Default ones and the mandatory ones', () => {
    expect(initial(undefined)).toEqual([11, 15]);
    expect(initial(undefined, () => false)).toEqual([11]);
  });

  it('named groups must be settable for the caller, whom membership does not bind (unlike add) — 120', () => {
    expect(initial(['shown', 'other-ok'])).toEqual([10, 11, 12]);
    expect(initial(['OTHER-OK'], () => false)).toEqual([11, 12]);
    for (const name of ['nope', 'na', 'inactive']) {
      expect(errorOf(() => initialGroups({ product: 'P', controls, names: [name], isMember: () => true }))).toEqual([120, 'group_restriction_not_allowed']);
    }
    // Shown for members only: a non-member cannot choose it.
    expect(errorOf(() => initialGroups({ product: 'P', controls, names: ['shown'], isMember: () => false }))).toEqual([120, 'group_restriction_not_allowed']);
  });

  it('settable means the same on Create and on Update: the group a member may add is the group a member may choose', () => {
    for (const c of withDefault) {
      const onUpdate = caughtOrNot(() => applyGroupChanges(base({ controls: withDefault, add: [c.groupName] })));
      const onCreate = caughtOrNot(() => initialGroups({ product: 'P', controls: withDefault, names: [c.groupName], isMember: () => true }));
      expect([c.groupName, onCreate]).toEqual([c.groupName, onUpdate]);
    }
  });
});

function caughtOrNot(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (err) {
    return (err as { errorName: string }).errorName;
  }
}
