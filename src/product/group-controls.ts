/**
 * Product group controls as Bugzilla's editproducts sets them (Bugzilla::Product set_group_controls), as pure
 * functions: parsing the `group_controls` input of Create/Update Product (beyond Bugzilla 5.0), checking the
 * member/other combination, and rendering a control for output and for `changes`.
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import { toBoolean } from '../common/http/request-params.js';

/** Bugzilla's group control values (group_control_map.membercontrol / othercontrol). */
export const Control = { NA: 0, SHOWN: 1, DEFAULT: 2, MANDATORY: 3 } as const;

/** The names of the control values, index = value (0 NA, 1 Shown, 2 Default, 3 Mandatory). */
export const CONTROL_NAMES = ['na', 'shown', 'default', 'mandatory'] as const;
export type ControlName = (typeof CONTROL_NAMES)[number];

/** The boolean switches of a control row besides entry (kept as Bugzilla has them). */
export const CONTROL_FLAGS = ['entry', 'canedit', 'editcomponents', 'editbugs', 'canconfirm'] as const;
export type ControlFlag = (typeof CONTROL_FLAGS)[number];

/** One element of `group_controls` as a client sends it; unset members keep the current value (NA/false when new). */
export interface GroupControlInput {
  group: string;
  membercontrol?: number;
  othercontrol?: number;
  entry?: boolean;
  canedit?: boolean;
  editcomponents?: boolean;
  editbugs?: boolean;
  canconfirm?: boolean;
}

/** The full settings of one control row. */
export interface ControlSettings {
  membercontrol: number;
  othercontrol: number;
  entry: boolean;
  canedit: boolean;
  editcomponents: boolean;
  editbugs: boolean;
  canconfirm: boolean;
}

export const EMPTY_SETTINGS: ControlSettings = {
  membercontrol: Control.NA, othercontrol: Control.NA, entry: false, canedit: false, editcomponents: false, editbugs: false, canconfirm: false,
};

/** A control value by name (`na`, `shown`, `default`, `mandatory`, any case) or by number 0–3. */
export function parseControlValue(value: unknown, field: string): number {
  const text = String(value ?? '').trim().toLowerCase();
  const byName = CONTROL_NAMES.indexOf(text as ControlName);
  if (byName >= 0) return byName;
  if (/^[0-3]$/.test(text)) return Number(text);
  throw TrackerError.of(Errors.ILLEGAL_GROUP_CONTROL, { field, value: String(value ?? '') });
}

/** `group_controls`: an array of objects, each naming its group (by name or id). */
export function parseGroupControls(raw: unknown): GroupControlInput[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw TrackerError.of(Errors.PARAM_INVALID, { param: 'group_controls' });
  return raw.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw TrackerError.of(Errors.PARAM_INVALID, { param: 'group_controls' });
    }
    const entry = item as Record<string, unknown>;
    const group = entry.group ?? entry.name;
    if (group === undefined || group === null || String(group).trim() === '' || typeof group === 'object') {
      throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'group_controls', param: 'group' });
    }
    const input: GroupControlInput = { group: String(group).trim() };
    if (entry.membercontrol !== undefined) input.membercontrol = parseControlValue(entry.membercontrol, 'membercontrol');
    if (entry.othercontrol !== undefined) input.othercontrol = parseControlValue(entry.othercontrol, 'othercontrol');
    for (const flag of CONTROL_FLAGS) if (entry[flag] !== undefined) input[flag] = toBoolean(entry[flag]);
    return input;
  });
}

/**
 * Bugzilla's legality table (membercontrol \ othercontrol): NA only with NA; Shown with anything; Default with
 * anything but Shown; Mandatory only with Mandatory.
 */
export function isLegalCombination(membercontrol: number, othercontrol: number): boolean {
  return membercontrol === othercontrol
    || membercontrol === Control.SHOWN
    || (membercontrol === Control.DEFAULT && othercontrol !== Control.SHOWN);
}

/** The settings after applying an input to the current ones (or to the empty row), combination checked. */
export function applyControlInput(current: ControlSettings | undefined, input: GroupControlInput, groupName: string): ControlSettings {
  const next: ControlSettings = { ...(current ?? EMPTY_SETTINGS) };
  if (input.membercontrol !== undefined) next.membercontrol = input.membercontrol;
  if (input.othercontrol !== undefined) next.othercontrol = input.othercontrol;
  for (const flag of CONTROL_FLAGS) if (input[flag] !== undefined) next[flag] = input[flag]!;
  if (!isLegalCombination(next.membercontrol, next.othercontrol)) {
    throw TrackerError.of(Errors.ILLEGAL_GROUP_CONTROL_COMBINATION, {
      group: groupName, membercontrol: CONTROL_NAMES[next.membercontrol], othercontrol: CONTROL_NAMES[next.othercontrol],
    });
  }
  return next;
}

/** A row that controls nothing (NA/NA, no switch) is not stored: Bugzilla deletes it. */
export function isEmptyControl(settings: ControlSettings): boolean {
  return settings.membercontrol === Control.NA && settings.othercontrol === Control.NA && CONTROL_FLAGS.every((f) => !settings[f]);
}

/** One control as a line of `changes` / the audit log: `group:member/other[,switch…]`. */
export function describeControl(groupName: string, settings: ControlSettings | undefined): string {
  if (!settings || isEmptyControl(settings)) return '';
  const switches = CONTROL_FLAGS.filter((f) => settings[f]);
  return `${groupName}:${CONTROL_NAMES[settings.membercontrol]}/${CONTROL_NAMES[settings.othercontrol]}${switches.length ? `,${switches.join(',')}` : ''}`;
}
