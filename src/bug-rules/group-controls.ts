/**
 * Which groups a bug of a product may be in, and who may add or remove them (workflow.md "Additional
 * gatekeepers", service-spec rule 5), after Bugzilla 5.0's Product groups_valid / groups_available /
 * groups_mandatory and Bug add_group / remove_group. Pure: the product's group controls are passed in.
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import { Control, type GroupControl } from '../product/product.service.js';

export interface BugGroup {
  id: number;
  name: string;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The control that applies to the caller: membercontrol for members of the group, othercontrol for the rest. */
const controlFor = (c: GroupControl, isMember: (groupId: number) => boolean) => (isMember(c.groupId) ? c.membercontrol : c.othercontrol);

/** Groups a bug of the product may be in at all (some control is not NA): groups_valid. */
export function validGroupIds(controls: readonly GroupControl[]): Set<number> {
  return new Set(controls.filter((c) => c.isBugGroup && (c.membercontrol !== Control.NA || c.othercontrol !== Control.NA)).map((c) => c.groupId));
}

/** Active groups the caller's bugs of the product must be in (Mandatory for them): groups_mandatory. */
export function mandatoryGroups(controls: readonly GroupControl[], isMember: (groupId: number) => boolean): GroupControl[] {
  return controls.filter((c) => c.groupIsActive && controlFor(c, isMember) === Control.MANDATORY);
}

/** Active bug groups the caller may put the product's bugs in (Shown or Default for them): groups_available. */
function availableGroups(controls: readonly GroupControl[], isMember: (groupId: number) => boolean): GroupControl[] {
  return controls
    .filter((c) => c.isBugGroup && c.groupIsActive)
    .filter((c) => controlFor(c, isMember) === Control.SHOWN || controlFor(c, isMember) === Control.DEFAULT);
}

/** A group the caller may restrict the product's bugs to: an active bug group available or mandatory (group_is_settable). */
function isSettable(control: GroupControl, isMember: (groupId: number) => boolean): boolean {
  if (!control.isBugGroup || !control.groupIsActive) return false;
  const applying = controlFor(control, isMember);
  return applying === Control.SHOWN || applying === Control.DEFAULT || applying === Control.MANDATORY;
}

export interface InitialGroupsInput {
  product: string;
  controls: readonly GroupControl[];
  /** The groups the request names; undefined when it sends none. */
  names: readonly string[] | undefined;
  isMember: (groupId: number) => boolean;
}

/**
 * A new bug's groups (Bugzilla 5.0 _check_groups): each named group must be settable for the caller (120
 * otherwise; membership is not required, unlike adding one later); without names, the groups Default for the
 * caller; the groups mandatory for the caller always.
 */
export function initialGroups(input: InitialGroupsInput): BugGroup[] {
  const { controls, isMember } = input;
  const chosen = new Map<number, BugGroup>();
  const choose = (c: GroupControl) => chosen.set(c.groupId, { id: c.groupId, name: c.groupName });
  if (input.names === undefined) {
    for (const c of availableGroups(controls, isMember)) if (controlFor(c, isMember) === Control.DEFAULT) choose(c);
  } else {
    for (const name of input.names) {
      const control = controls.find((c) => sameName(c.groupName, name));
      if (!control || !isSettable(control, isMember)) throw TrackerError.of(Errors.GROUP_RESTRICTION_NOT_ALLOWED, { name, product: input.product });
      choose(control);
    }
  }
  for (const c of mandatoryGroups(controls, isMember)) choose(c);
  return [...chosen.values()];
}

export interface GroupChangeInput {
  bugId: number;
  product: string;
  /** The product's controls (the new product's when it changes). */
  controls: readonly GroupControl[];
  /** The bug's groups before the request. */
  current: readonly BugGroup[];
  /** Whether the request moves the bug to another product (rule 5). */
  productChanged: boolean;
  add: readonly string[];
  remove: readonly string[];
  isMember: (groupId: number) => boolean;
}


/**
 * The bug's groups after the request. A product change first drops the groups that are not valid in the new
 * product and adds the ones mandatory there (rule 5, nothing else automatic); then `remove` and `add` apply.
 * - add: the group must be a bug group that is active and available or mandatory in the product, and the caller
 *   must be in it — or, during a product change, its "other" control must not be NA (120 otherwise);
 * - remove: the group must exist (120); an active group mandatory for the caller cannot be removed; a caller
 *   outside the group may remove it only during a product change (120); removing a group the bug is not in is
 *   a no-op.
 * An unknown group name is 120 either way (no hint whether it exists).
 */
export function applyGroupChanges(input: GroupChangeInput): BugGroup[] {
  const { controls, isMember, productChanged } = input;
  const byName = (name: string) => controls.find((c) => sameName(c.groupName, name.trim()));
  let groups = [...input.current];

  if (productChanged) {
    const valid = validGroupIds(controls);
    groups = groups.filter((g) => valid.has(g.id));
    for (const c of mandatoryGroups(controls, isMember)) {
      if (!groups.some((g) => g.id === c.groupId)) groups.push({ id: c.groupId, name: c.groupName });
    }
  }

  const mandatory = new Set(mandatoryGroups(controls, isMember).map((c) => c.groupId));
  for (const name of input.remove) {
    const onBug = groups.find((g) => sameName(g.name, name.trim()));
    const control = byName(name);
    const refuse = () => TrackerError.of(Errors.GROUP_INVALID_REMOVAL, { name, product: input.product, bug_id: input.bugId });
    if (!onBug) {
      // Not on the bug: nothing to remove, but a group unknown to the product gives the same error as Bugzilla.
      if (!control) throw refuse();
      continue;
    }
    if (mandatory.has(onBug.id)) throw refuse();
    if (!isMember(onBug.id) && !productChanged) throw refuse();
    groups = groups.filter((g) => g.id !== onBug.id);
  }

  for (const name of input.add) {
    const control = byName(name);
    const refuse = () => TrackerError.of(Errors.GROUP_RESTRICTION_NOT_ALLOWED, { name, product: input.product, bug_id: input.bugId });
    if (!control) throw refuse();
    if (groups.some((g) => g.id === control.groupId)) continue;
    if (!isSettable(control, isMember)) throw refuse();
    if (!isMember(control.groupId) && !(productChanged && control.othercontrol !== Control.NA)) throw refuse();
    groups.push({ id: control.groupId, name: control.groupName });
  }
  return groups;
}
