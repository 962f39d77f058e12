/**
 * Bug status workflow: initial status on create, allowed transitions, and the status / resolution / dupe_of
 * decision of an update (workflow.md). Pure: the statuses, resolutions and transition table are passed in,
 * so an administrator's changes to those tables are honoured without code changes.
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import type { StatusDef, Transition } from '../field/field.types.js';

export const UNCONFIRMED = 'UNCONFIRMED';
export const DUPLICATE = 'DUPLICATE';

const bySortKey = (a: StatusDef, b: StatusDef) => a.sortKey - b.sortKey || a.name.localeCompare(b.name);

function findStatus(statuses: readonly StatusDef[], name: string): StatusDef | undefined {
  return statuses.find((s) => s.name === name);
}

/** Statuses reachable from `from` through the table: active targets only, UNCONFIRMED only where allowed. */
function tableTargets(
  from: string | null,
  statuses: readonly StatusDef[],
  transitions: readonly Transition[],
  productHasUnconfirmed: boolean,
): StatusDef[] {
  const targets = new Set(transitions.filter((t) => t.from === from).map((t) => t.to));
  return statuses
    .filter((s) => targets.has(s.name) && s.isActive)
    .filter((s) => productHasUnconfirmed || s.name !== UNCONFIRMED)
    .sort(bySortKey);
}

/** The "(new bug)" row of the table: the statuses a new bug may be filed in, in sort-key order. */
export function initialStatusCandidates(
  statuses: readonly StatusDef[],
  transitions: readonly Transition[],
  productHasUnconfirmed: boolean,
): StatusDef[] {
  return tableTargets(null, statuses, transitions, productHasUnconfirmed);
}

export interface InitialStatusChoice {
  status: string;
  /** everconfirmed of the new bug: false only when it starts UNCONFIRMED. */
  isConfirmed: boolean;
}

/**
 * Picks the status of a new bug (workflow.md "Initial status on Create Bug").
 * `canConfirm` is editbugs-or-canconfirm for the product. `allStatuses`, when given, lets an unknown name
 * fail with 51 as Bugzilla's Status->check does; without it an unknown name is simply not a candidate (123).
 */
export function chooseInitialStatus(args: {
  requested?: string | null;
  canConfirm: boolean;
  candidates: readonly StatusDef[];
  allStatuses?: readonly StatusDef[];
}): InitialStatusChoice {
  const { canConfirm, candidates } = args;
  const requested = typeof args.requested === 'string' ? args.requested.trim() : '';
  let chosen: StatusDef | undefined;

  if (!canConfirm) {
    // Without the rights the requested status is ignored, not refused.
    chosen = candidates.find((s) => s.name === UNCONFIRMED) ?? candidates[0];
  } else if (requested === '') {
    chosen = candidates.length === 1 ? candidates[0] : candidates.find((s) => s.name !== UNCONFIRMED);
  } else {
    if (args.allStatuses && !findStatus(args.allStatuses, requested)) {
      throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'status', name: requested });
    }
    chosen = candidates.find((s) => s.name === requested);
    if (!chosen) throw TrackerError.of(Errors.ILLEGAL_BUG_STATUS_TRANSITION, { new: requested });
  }

  if (!chosen) throw TrackerError.of(Errors.ILLEGAL_BUG_STATUS_TRANSITION, { new: requested || '(none)' });
  return { status: chosen.name, isConfirmed: chosen.name !== UNCONFIRMED };
}

/**
 * The workflow list of an existing bug: the table row of its status plus the status itself (kept even when
 * inactive or UNCONFIRMED-in-a-product-without-it), in sort-key order. `canSet` is the field-permission check
 * for `bug_status`; a status the caller may not set is left out, so a refusal surfaces as 123, not 115.
 */
export function allowedTransitions(
  current: string,
  statuses: readonly StatusDef[],
  transitions: readonly Transition[],
  productHasUnconfirmed: boolean,
  canSet?: (status: string) => boolean,
): StatusDef[] {
  const list = tableTargets(current, statuses, transitions, productHasUnconfirmed).filter(
    (s) => s.name !== current && (!canSet || canSet(s.name)),
  );
  const own = findStatus(statuses, current) ?? { name: current, isOpen: true, isActive: false, sortKey: Number.MAX_SAFE_INTEGER };
  return [...list, own].sort(bySortKey);
}

export interface TransitionCheck {
  from: string;
  to: string;
  statuses: readonly StatusDef[];
  transitions: readonly Transition[];
  productHasUnconfirmed?: boolean;
  canSet?: (status: string) => boolean;
  /** Whether the same request adds a comment (for rows with require_comment). */
  hasComment?: boolean;
}

/**
 * Validates moving an existing bug from `from` to `to`: empty → 50, unknown → 51, outside the workflow
 * list → 123, a row that requires a comment without one → comment_required. Returns the table row used,
 * or null when the status does not change.
 */
export function checkTransition(check: TransitionCheck): Transition | null {
  const to = check.to.trim();
  if (to === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'status' });
  if (!findStatus(check.statuses, to)) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'status', name: to });
  if (to === check.from) return null;

  const allowed = allowedTransitions(check.from, check.statuses, check.transitions, check.productHasUnconfirmed ?? true, check.canSet);
  if (!allowed.some((s) => s.name === to)) {
    throw TrackerError.of(Errors.ILLEGAL_BUG_STATUS_TRANSITION, { old: check.from, new: to });
  }
  const row = check.transitions.find((t) => t.from === check.from && t.to === to) ?? null;
  if (row?.requireComment && !check.hasComment) throw TrackerError.of(Errors.COMMENT_REQUIRED, { field: 'status' });
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Status, resolution and dupe_of on Update Bug
// ---------------------------------------------------------------------------------------------------------

export interface StatusChangeRequest {
  status?: unknown;
  /** Present (even '' or null) means "the client sent a resolution key". */
  resolution?: unknown;
  /** Bug ID or alias as sent; the caller resolves it (see StatusPlan.dupeOf). */
  dupeOf?: unknown;
}

export interface PlanStatusChangeInput {
  bug: { id?: number; status: string; resolution: string; dupeOf: number | null };
  request: StatusChangeRequest;
  statuses: readonly StatusDef[];
  /** Names of the legal resolutions; '' (open bugs) is always legal. */
  resolutions: readonly string[];
  /** Parameter duplicate_or_move_bug_status. */
  duplicateStatus: string;
  transitions: readonly Transition[];
  productHasUnconfirmed?: boolean;
  /** Field-permission check for bug_status, used to filter the workflow list (→ 123). */
  canSetStatus?: (status: string) => boolean;
  /** Whether the request adds a comment (require_comment rows, commenton* parameters). */
  hasComment?: boolean;
  params?: { commentonchange_resolution?: boolean; commentonduplicate?: boolean };
}

export interface StatusPlan {
  status: string;
  resolution: string;
  /**
   * The duplicate target after the update: the bug's own, null when cleared, or — when `dupeOfFromRequest` —
   * the client's value (ID or alias) that the caller must still resolve and validate (101/100/102/118) and
   * for which it adds the duplicate comments and the reporter CC.
   */
  dupeOf: number | string | null;
  dupeOfFromRequest: boolean;
  /** New everconfirmed value when an open status was set; undefined when the update leaves it alone. */
  isConfirmed?: boolean;
  /** Closing, moving between closed statuses, or becoming a duplicate sets remaining_time to 0. */
  zeroRemainingTime: boolean;
  statusChanged: boolean;
  resolutionChanged: boolean;
}

const has = (o: object, key: string) =>
  Object.prototype.hasOwnProperty.call(o, key) && (o as Record<string, unknown>)[key] !== undefined;

const asText = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());

/** Perl truthiness of a dupe_of value: '', '0', 0 and null all mean "no target". */
const isEmptyDupe = (v: unknown) => v === null || v === undefined || asText(v) === '' || asText(v) === '0';

/**
 * Mirrors Bugzilla 5.0 set_bug_status / set_resolution / set_dup_id (workflow.md "Status and resolution
 * changes" and "Duplicates"): a mutable draft walked through the same steps in the same order, so that the
 * error raised first is the one Bugzilla raises first.
 */
class StatusPlanner {
  private status: string;
  private resolution: string;
  private dupeOf: number | string | null;
  private dupeOfFromRequest = false;
  private isConfirmed?: boolean;
  private zeroRemainingTime = false;

  constructor(private readonly input: PlanStatusChangeInput) {
    this.status = input.bug.status;
    this.resolution = input.bug.resolution ?? '';
    this.dupeOf = input.bug.dupeOf;
  }

  plan(): StatusPlan {
    const { request } = this.input;
    if (has(request, 'status')) {
      this.setStatus(request.status, { resolution: request.resolution, dupeOf: request.dupeOf }, true);
    } else if (has(request, 'resolution')) {
      this.setResolution(request.resolution, request.dupeOf);
    } else if (has(request, 'dupeOf')) {
      this.setDupeOf(request.dupeOf);
    }
    const { bug } = this.input;
    return {
      status: this.status,
      resolution: this.resolution,
      dupeOf: this.dupeOf,
      dupeOfFromRequest: this.dupeOfFromRequest,
      ...(this.isConfirmed === undefined ? {} : { isConfirmed: this.isConfirmed }),
      zeroRemainingTime: this.zeroRemainingTime,
      statusChanged: this.status !== bug.status,
      resolutionChanged: this.resolution !== (bug.resolution ?? ''),
    };
  }

  private isOpen(name: string): boolean {
    const def = findStatus(this.input.statuses, name);
    if (!def) throw TrackerError.of(Errors.INTERNAL, { reason: `unknown bug status '${name}'` });
    return def.isOpen;
  }

  /** `checkWorkflow` is false for the duplicate move, which Bugzilla keeps reachable from every status. */
  private setStatus(value: unknown, params: { resolution?: unknown; dupeOf?: unknown }, checkWorkflow: boolean): void {
    const to = asText(value);
    const from = this.status;
    if (checkWorkflow) {
      checkTransition({
        from,
        to,
        statuses: this.input.statuses,
        transitions: this.input.transitions,
        productHasUnconfirmed: this.input.productHasUnconfirmed,
        canSet: this.input.canSetStatus,
        hasComment: this.input.hasComment,
      });
    }
    this.status = to;

    if (this.isOpen(to)) {
      // Reopening (or staying open) drops any resolution or dupe_of of the same request silently.
      this.isConfirmed = to !== UNCONFIRMED;
      this.resolution = '';
      this.dupeOf = null;
      this.dupeOfFromRequest = false;
      return;
    }
    // A null resolution counts as "not sent" here (Bugzilla tests `defined`), unlike the resolution-only path.
    const resolution = params.resolution === null || params.resolution === undefined ? this.resolution : params.resolution;
    this.setResolution(resolution, params.dupeOf);
    if (to !== from) this.zeroRemainingTime = true;
  }

  private setResolution(value: unknown, dupeOf: unknown): void {
    const resolution = this.checkResolution(value);
    const old = this.resolution;
    this.resolution = resolution;
    if (resolution !== old) {
      if (old === DUPLICATE) {
        this.dupeOf = null;
        this.dupeOfFromRequest = false;
      } else if (resolution === DUPLICATE) {
        this.zeroRemainingTime = true;
      }
    }
    if (resolution === DUPLICATE) {
      if (!isEmptyDupe(dupeOf)) this.setDupeOf(dupeOf);
      else if (this.dupeOf === null) throw TrackerError.of(Errors.DUPE_ID_REQUIRED);
    }
    // Any dupe_of not consumed above is dropped: only a DUPLICATE resolution takes one.
  }

  private checkResolution(value: unknown): string {
    const resolution = asText(value);
    const open = this.isOpen(this.status);
    if (resolution === '' && !open) throw TrackerError.of(Errors.MISSING_RESOLUTION, { status: this.status });
    if (resolution !== '' && !this.input.resolutions.includes(resolution)) {
      throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'resolution', name: resolution });
    }
    if (open) throw TrackerError.of(Errors.RESOLUTION_NOT_ALLOWED);
    if (this.input.params?.commentonchange_resolution && resolution !== this.resolution && !this.input.hasComment) {
      throw TrackerError.of(Errors.COMMENT_REQUIRED, { field: 'resolution' });
    }
    return resolution;
  }

  private setDupeOf(value: unknown): void {
    if (isEmptyDupe(value)) throw TrackerError.of(Errors.UNDEFINED_FIELD, { field: 'dup_id' });
    const raw = typeof value === 'number' ? value : asText(value);
    const target = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;

    const { bug } = this.input;
    if (bug.id !== undefined && target === bug.id) {
      throw TrackerError.of(Errors.DUPE_LOOP_DETECTED, { bug_id: bug.id, dupe_of: target });
    }
    // Same target as now: nothing to do (an alias of the same bug is detected by the caller after resolving).
    if (this.dupeOf !== null && target === this.dupeOf) return;
    if (this.input.params?.commentonduplicate && !this.input.hasComment) {
      throw TrackerError.of(Errors.COMMENT_REQUIRED, { field: 'dupe_of' });
    }

    this.dupeOf = target;
    this.dupeOfFromRequest = true;
    if (this.resolution !== DUPLICATE) {
      // Even a VERIFIED bug goes back to the duplicate status, as Bugzilla's "Mark as Duplicate" does.
      this.setStatus(this.input.duplicateStatus, { resolution: DUPLICATE }, false);
    }
  }
}

/**
 * Decides the status, resolution, dupe_of, everconfirmed and remaining-time effects of one Update Bug.
 * Throws 50 (empty status / dupe_of), 51 (unknown status or resolution), 123 (transition), 122 (resolution on
 * an open bug), 121 (closed without resolution), 119 (DUPLICATE without a target), 118 (self-duplicate) and
 * comment_required (workflow rows, commentonchange_resolution, commentonduplicate).
 * Left to the caller: resolving/validating a request dupe_of, noresolveonopenblockers (check when
 * `resolution === 'FIXED' && resolutionChanged`), musthavemilestoneonaccept, and the field-permission checks
 * of the resulting changes (bug_status, resolution, everconfirmed …).
 */
export function planStatusChange(input: PlanStatusChangeInput): StatusPlan {
  return new StatusPlanner(input).plan();
}
