/**
 * "Who may change what" (workflow.md, Bugzilla's check_can_change_field): one function consulted by create
 * and update for every changed value. The rules are evaluated in the table's order; the first match wins.
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import type { Caller } from '../common/caller.js';
import type { GroupControlDetail } from '../product/product.service.js';
import { UNCONFIRMED } from './workflow.js';
import { TIME_TRACKING_FIELDS } from '../bug/bug.fields.js';

export interface FieldCaller {
  /** Member of editbugs for the bug's product. */
  inEditbugs: boolean;
  /** Member of canconfirm for the bug's product. */
  inCanconfirm: boolean;
  isTimeTracker: boolean;
  /** The current assignee, or the assignee being replaced in this same update. */
  isAssignee: boolean;
  /** The current QA contact, or the QA contact being replaced in this same update. */
  isQaContact: boolean;
  isReporter: boolean;
}

export interface FieldChangeContext {
  /** Field name, API (`status`, `is_confirmed`, `flags`) or internal (`bug_status`, `everconfirmed`). */
  field: string;
  oldValue: unknown;
  newValue: unknown;
  isOpen: (status: string) => boolean;
  /**
   * everconfirmed of the bug before the change. Needed to tell whether a status change confirms or
   * unconfirms; when omitted it is taken as "the old status is not UNCONFIRMED".
   */
  everConfirmed?: boolean;
  caller: FieldCaller;
  params: { useqacontact: boolean; letsubmitterchoosepriority: boolean };
}

export type FieldPrivs = 'time_tracking' | 'editbugs';

export type FieldPermission =
  | { allowed: true; rule: number }
  | { allowed: false; privs: FieldPrivs; rule: number };

const NUMERIC_TIME_FIELDS: ReadonlySet<string> = new Set(['estimated_time', 'remaining_time', 'work_time']);

// The rules speak Bugzilla's internal names; API spellings are folded onto them first.
const CANONICAL: Record<string, string> = {
  status: 'bug_status',
  is_confirmed: 'everconfirmed',
  flags: 'flagtypes.name',
};

function canonicalField(field: string): string {
  return CANONICAL[field] ?? field;
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));

/** Rule 1: unchanged values are always fine (lists as sets, text after trimming, time fields numerically). */
export function isUnchanged(field: string, oldValue: unknown, newValue: unknown): boolean {
  if (Array.isArray(oldValue) || Array.isArray(newValue)) {
    const a = (Array.isArray(oldValue) ? oldValue : [oldValue]).map(text).filter((s) => s !== '');
    const b = (Array.isArray(newValue) ? newValue : [newValue]).map(text).filter((s) => s !== '');
    const setA = new Set(a);
    const setB = new Set(b);
    return setA.size === setB.size && [...setA].every((x) => setB.has(x));
  }
  const oldText = text(oldValue);
  const newText = text(newValue);
  if (oldText === newText || oldText.trim() === newText.trim()) return true;
  if (NUMERIC_TIME_FIELDS.has(canonicalField(field))) {
    const a = Number(oldText.trim() === '' ? 0 : oldText);
    const b = Number(newText.trim() === '' ? 0 : newText);
    return !Number.isNaN(a) && a === b;
  }
  return false;
}

function isCommentOrFlagField(field: string): boolean {
  return field.startsWith('longdesc') || field === 'comment' || field === 'comment_is_private' || field === 'flagtypes.name';
}

/** Rule 5: does this change confirm (UNCONFIRMED → open) or unconfirm (confirmed → UNCONFIRMED) the bug? */
export function changesEverConfirmed(ctx: Pick<FieldChangeContext, 'field' | 'oldValue' | 'newValue' | 'isOpen' | 'everConfirmed'>): boolean {
  const field = canonicalField(ctx.field);
  if (field === 'everconfirmed') return true;
  if (field !== 'bug_status') return false;
  const oldStatus = text(ctx.oldValue);
  const newStatus = text(ctx.newValue);
  const confirmed = ctx.everConfirmed ?? oldStatus !== UNCONFIRMED;
  return confirmed ? newStatus === UNCONFIRMED : newStatus !== UNCONFIRMED && ctx.isOpen(newStatus);
}

/**
 * editbugs and canconfirm for one product (Bugzilla's in_group(group, product_id)): the global group, or a group the
 * caller is in whose control row on the product carries the right. editbugs implies canconfirm. Create and Update Bug
 * both ask here; `controls` are the product's control rows (none needed when the global editbugs decides).
 */
export function productRights(
  caller: Pick<Caller, 'inGroup' | 'inGroupId'>,
  controls: ReadonlyArray<Pick<GroupControlDetail, 'groupId' | 'editbugs' | 'canconfirm'>>,
): Pick<FieldCaller, 'inEditbugs' | 'inCanconfirm'> {
  const granted = (right: 'editbugs' | 'canconfirm') => caller.inGroup(right) || controls.some((c) => c[right] && caller.inGroupId(c.groupId));
  const inEditbugs = granted('editbugs');
  return { inEditbugs, inCanconfirm: inEditbugs || granted('canconfirm') };
}

/** Rules 1–13 of workflow.md "Who may change what", first match wins. */
export function canChangeField(ctx: FieldChangeContext): FieldPermission {
  const field = canonicalField(ctx.field);
  const { caller, params } = ctx;
  const allow = (rule: number): FieldPermission => ({ allowed: true, rule });
  const deny = (rule: number, privs: FieldPrivs = 'editbugs'): FieldPermission => ({ allowed: false, privs, rule });

  if (isUnchanged(field, ctx.oldValue, ctx.newValue)) return allow(1);
  // Flags and comments have their own gatekeepers (flag groups, insider group); editing the bug is enough here.
  if (isCommentOrFlagField(field)) return allow(2);
  if (TIME_TRACKING_FIELDS.has(field) && !caller.isTimeTracker) return deny(3, 'time_tracking');
  if (caller.inEditbugs) return allow(4);
  // Checked before the assignee and reporter rules: they cannot confirm or unconfirm without the group.
  if (changesEverConfirmed({ ...ctx, field })) return caller.inCanconfirm ? allow(5) : deny(5);
  if (caller.isAssignee) return allow(6);
  if (params.useqacontact && caller.isQaContact) return allow(7);
  if (field === 'assigned_to' || field === 'qa_contact' || field === 'target_milestone') return deny(8);
  if (field === 'priority' && !params.letsubmitterchoosepriority) return deny(9);
  if (field === 'everconfirmed') return deny(10);
  if (field === 'bug_status' && ctx.isOpen(text(ctx.oldValue)) && ctx.isOpen(text(ctx.newValue))) return deny(11);
  if (caller.isReporter) return allow(12);
  return deny(13);
}

const shown = (v: unknown): string => (Array.isArray(v) ? v.map(text).join(', ') : text(v));

/** Throws 115 (illegal_change) naming the field and both values when canChangeField refuses. */
export function assertCanChangeField(ctx: FieldChangeContext): void {
  const result = canChangeField(ctx);
  if (result.allowed) return;
  throw TrackerError.of(Errors.ILLEGAL_CHANGE, {
    field: ctx.field,
    oldvalue: shown(ctx.oldValue),
    newvalue: shown(ctx.newValue),
    privs: result.privs,
  });
}
