/**
 * Flag changes of Create/Update Bug and Attachment (updates.md "Flag change object", defaults.md "Flag type
 * semantics"). Follows Bugzilla 5.0: WebService::Util::extract_flags picks the target flag or type, then
 * Flag::set_flag / _validate check the change. Checks that need the database or other users stay with the
 * caller: the requestee must exist, see the bug (and a private attachment) and be able to set the flag.
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import type { ComponentFlagType } from '../product/product.tokens.js';

export type FlagStatus = '?' | '+' | '-';
export const FLAG_STATUSES: readonly string[] = ['?', '+', '-', 'X'];

export interface ExistingFlag {
  id: number;
  typeId: number;
  typeName: string;
  status: FlagStatus;
  requesteeLogin: string | null;
  setterLogin: string;
}

/** What the flag rules read of a flag type (the flag module lists them per product and component). */
export type ApplicableFlagType = Pick<
  ComponentFlagType,
  'id' | 'name' | 'isActive' | 'isRequestable' | 'isRequesteeble' | 'isMultiplicable' | 'grantGroupId' | 'requestGroupId'
>;

/** One element of the `flags` array as the client sent it. */
export interface FlagChangeInput {
  id?: unknown;
  type_id?: unknown;
  name?: unknown;
  status?: unknown;
  requestee?: unknown;
  new?: unknown;
}

export interface FlagContext {
  /** The 5.0 function an error names (default Bug.update). */
  functionName?: string;
  /** Flags currently on the bug (or attachment). */
  existingFlags: readonly ExistingFlag[];
  /** Flag types of the bug's product/component (or of the attachment); Bugzilla also lists inactive types that still have flags here. */
  applicableTypes: readonly ApplicableFlagType[];
}

export type FlagAction =
  /** Nothing to store: X on a type that has no flag, or a flag whose type no longer applies. */
  | { action: 'none'; type?: ApplicableFlagType; flag?: ExistingFlag }
  | { action: 'create'; type: ApplicableFlagType; status: FlagStatus; requestee: string | null }
  | {
      action: 'update';
      flag: ExistingFlag;
      type: ApplicableFlagType;
      status: FlagStatus;
      requestee: string | null;
      /** Status or requestee changed: the setter becomes the caller (except a '?' kept '?', which keeps its setter). */
      changed: boolean;
    }
  | { action: 'delete'; flag: ExistingFlag; type: ApplicableFlagType };

/**
 * The `flags` list of a request (the DTO checked it is a list): each item an object (53) with a status (extract_flags:
 * a missing status is param_required, 50), naming `functionName`.
 */
export function parseFlagChanges(value: readonly unknown[], functionName: string): FlagChangeInput[] {
  return value.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw TrackerError.of(Errors.PARAM_INVALID, { param: 'flags', function: functionName });
    }
    const flag = item as FlagChangeInput;
    if (flag.status === undefined || flag.status === null || String(flag.status).trim() === '') {
      throw TrackerError.of(Errors.PARAM_REQUIRED, { function: functionName, param: 'status' });
    }
    return flag;
  });
}

const toId = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v) && Number(v) > 0) return Number(v);
  return null;
};

/** JSON true, 1 or "1"/"true" (clients send booleans every way). */
const isTrue = (v: unknown) => v === true || v === 1 || (typeof v === 'string' && ['1', 'true'].includes(v.trim().toLowerCase()));

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());

type Target =
  | { kind: 'existing'; flag: ExistingFlag }
  | { kind: 'new'; typeId: number | null };

/** extract_flags: which flag the change is about, or which type to create. Errors 51, 132, 133. */
function resolveTarget(change: FlagChangeInput, ctx: FlagContext): Target {
  const wantsNew = isTrue(change.new);
  const id = toId(change.id);
  if (change.id !== undefined && change.id !== null && change.id !== '' && change.id !== 0) {
    const flag = id === null ? undefined : ctx.existingFlags.find((f) => f.id === id);
    if (!flag) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'flag', id: text(change.id) });
    return { kind: 'existing', flag };
  }

  if (change.type_id !== undefined && change.type_id !== null && change.type_id !== '' && change.type_id !== 0) {
    const typeId = toId(change.type_id);
    if (typeId === null || !ctx.applicableTypes.some((t) => t.id === typeId)) {
      throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'flag type', id: text(change.type_id) });
    }
    if (wantsNew) return { kind: 'new', typeId };
    const matches = ctx.existingFlags.filter((f) => f.typeId === typeId);
    if (matches.length > 1) throw TrackerError.of(Errors.FLAG_NOT_UNIQUE, { value: typeId });
    return matches.length === 1 ? { kind: 'existing', flag: matches[0] } : { kind: 'new', typeId };
  }

  const name = text(change.name);
  if (name !== '') {
    const types = ctx.applicableTypes.filter((t) => t.name === name);
    if (types.length > 1) throw TrackerError.of(Errors.FLAG_TYPE_NOT_UNIQUE, { value: name });
    if (types.length === 0) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'flag type', name });
    if (wantsNew) return { kind: 'new', typeId: types[0].id };
    const matches = ctx.existingFlags.filter((f) => f.typeName === name);
    if (matches.length > 1) throw TrackerError.of(Errors.FLAG_NOT_UNIQUE, { value: name });
    return matches.length === 1 ? { kind: 'existing', flag: matches[0] } : { kind: 'new', typeId: types[0].id };
  }

  return { kind: 'new', typeId: null };
}

/** _check_status: one of ? + - X, and '?' only on requestable types unless the flag is already '?'. */
function checkStatus(status: string, oldStatus: string, type: ApplicableFlagType, flagId?: number): void {
  if (!FLAG_STATUSES.includes(status) || (status === '?' && oldStatus !== '?' && !type.isRequestable)) {
    throw TrackerError.of(Errors.FLAG_STATUS_INVALID, { status, ...(flagId ? { id: flagId } : {}) });
  }
}

/**
 * _check_requestee: a requestee only exists on '?' flags (otherwise it is dropped); naming a new person
 * needs a requesteeble type (131). An unchanged requestee passes even if the type stopped allowing them.
 */
function checkRequestee(status: string, requested: string, oldRequestee: string | null, type: ApplicableFlagType): string | null {
  if (status !== '?' || requested === '') return null;
  if (requested !== (oldRequestee ?? '') && !type.isRequesteeble) {
    throw TrackerError.of(Errors.FLAG_TYPE_REQUESTEE_DISABLED, { name: type.name });
  }
  return requested;
}

/** Working state of one request: the flags per type as they stand after the changes seen so far. */
class FlagDraft {
  private readonly flagsByType = new Map<number, number>();

  constructor(ctx: FlagContext) {
    for (const f of ctx.existingFlags) this.flagsByType.set(f.typeId, (this.flagsByType.get(f.typeId) ?? 0) + 1);
  }

  count(typeId: number): number {
    return this.flagsByType.get(typeId) ?? 0;
  }

  adjust(typeId: number, delta: number): void {
    this.flagsByType.set(typeId, this.count(typeId) + delta);
  }
}

function updateExisting(change: FlagChangeInput, flag: ExistingFlag, ctx: FlagContext, draft: FlagDraft): FlagAction {
  const type = ctx.applicableTypes.find((t) => t.id === flag.typeId);
  // The bug moved to a product where the flag's type does not apply: Bugzilla ignores the change.
  if (!type) return { action: 'none', flag };
  const status = text(change.status);
  checkStatus(status, flag.status, type, flag.id);
  if (status === 'X') {
    draft.adjust(type.id, -1);
    return { action: 'delete', flag, type };
  }
  const requestee = checkRequestee(status, text(change.requestee), flag.requesteeLogin, type);
  const changed = status !== flag.status || (requestee ?? '') !== (flag.requesteeLogin ?? '');
  return { action: 'update', flag, type, status: status as FlagStatus, requestee, changed };
}

function createNew(change: FlagChangeInput, typeId: number | null, ctx: FlagContext, draft: FlagDraft): FlagAction {
  if (typeId === null) {
    throw TrackerError.of(Errors.PARAM_REQUIRED, { function: ctx.functionName ?? 'Bug.update', param: 'flags.type_id or flags.name' });
  }
  const type = ctx.applicableTypes.find((t) => t.id === typeId)!;
  const status = text(change.status);
  // "Don't bother validating types the user didn't touch": clearing a flag that is not there is a no-op.
  if (status === 'X') return { action: 'none', type };
  if (!type.isActive) throw TrackerError.of(Errors.FLAG_TYPE_INACTIVE, { type: type.name });
  // Bugzilla raises flag_type_not_multiplicable here; it has no WebService code, so it is 32000.
  if (!type.isMultiplicable && draft.count(type.id) > 0) {
    throw TrackerError.of(Errors.FLAG_TYPE_NOT_MULTIPLICABLE, { type: type.name });
  }
  checkStatus(status, '', type);
  const requestee = checkRequestee(status, text(change.requestee), null, type);
  draft.adjust(type.id, +1);
  return { action: 'create', type, status: status as FlagStatus, requestee };
}

/**
 * Resolves all flag changes of one request for one bug or attachment, in Bugzilla's order: every target is
 * picked against the flags as they were, then changes to existing flags are applied, then new flags are
 * created (so a flag cleared in the same request frees a non-multiplicable type). Results come back in the
 * order of the input.
 * Errors: 51 (unknown flag id, type id or name), 132 (several set flags match), 133 (several types named
 * so), 134 (new flag of an inactive type), 129 (bad status, or '?' on a type that is not requestable),
 * 131 (requestee on a type that cannot be asked of a person), flag_type_not_multiplicable (32000),
 * 50 (neither id, type_id nor name). Permission (130) is checkFlagPermission's job.
 */
export function resolveFlagChanges(changes: readonly FlagChangeInput[], ctx: FlagContext): FlagAction[] {
  const targets = changes.map((c) => resolveTarget(c, ctx));
  const draft = new FlagDraft(ctx);
  const results = new Array<FlagAction>(changes.length);
  targets.forEach((t, i) => {
    if (t.kind === 'existing') results[i] = updateExisting(changes[i], t.flag, ctx, draft);
  });
  targets.forEach((t, i) => {
    if (t.kind === 'new') results[i] = createNew(changes[i], t.typeId, ctx, draft);
  });
  return results;
}

/** One flag change on its own (see resolveFlagChanges for the rules). */
export function resolveFlagChange(change: FlagChangeInput, ctx: FlagContext): FlagAction {
  return resolveFlagChanges([change], ctx)[0];
}

// ---- Permission -------------------------------------------------------------------------------------------

export interface FlagPermissionCheck {
  /** The new status ('X' clears). */
  status: string;
  /** The flag's status before the change; '' (or omitted) for a new flag. */
  oldStatus?: string;
  type: Pick<ApplicableFlagType, 'name' | 'grantGroupId' | 'requestGroupId'>;
  /** IDs of the groups the caller belongs to (expanded). */
  callerGroupIds: ReadonlySet<number> | readonly number[];
  /** The caller set the existing flag. */
  isSetter?: boolean;
  /** The existing flag is requested of the caller. */
  isRequestee?: boolean;
}

const ACTION_WORD: Record<string, string> = { '?': 'request', '+': 'grant', '-': 'deny', X: 'clear' };

/**
 * Who may set a flag status (defaults.md; Bugzilla's Flag::_check_setter): an unchanged status is always
 * fine; `+`/`-` need the grant group (when the type has one); `?` and `X` need the request group or the grant
 * group (when set). Besides, the requestee of a flag may grant, deny or clear it, and its setter may
 * re-request or clear it — but a setter never grants their own request without the grant group. Else 130.
 */
export function checkFlagPermission(check: FlagPermissionCheck): void {
  const groups = check.callerGroupIds instanceof Set ? check.callerGroupIds : new Set(check.callerGroupIds as readonly number[]);
  const { status, type } = check;
  if (status === (check.oldStatus ?? '')) return;

  const canSet = type.grantGroupId === null || groups.has(type.grantGroupId);
  const canRequest = canSet || type.requestGroupId === null || groups.has(type.requestGroupId);

  const allowed =
    status === '+' || status === '-'
      ? canSet || !!check.isRequestee
      : status === '?' || status === 'X'
        ? canRequest || !!check.isSetter || (status === 'X' && !!check.isRequestee)
        : false;
  if (!allowed) throw TrackerError.of(Errors.FLAG_UPDATE_DENIED, { name: type.name, action: ACTION_WORD[status] ?? 'change' });
}
