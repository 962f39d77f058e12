/**
 * The body of Update Bug (service-spec "Update Bug", updates.md "Update Bug: body objects") read from its DTO into one
 * object of the update's terms, with the shape errors raised before anything is loaded: 53 for a value of the wrong
 * shape (the DTO's types, the add/remove/set objects, the comment), 52/54/55 for
 * time values, 56 for a deadline, 114 for an over-long comment (CommentService's rule), 50 for a flag without a status. Rules that need
 * the bug or the database (who may change what, legal values …) are the service's.
 */
import { Errors, TrackerError } from '../../common/errors/index.js';
import { parseDeadline } from '../../common/time/datetime.js';
import { toBoolean } from '../../common/http/request-params.js';
import { normaliseUpdateObject, type AddRemoveSet } from '../../bug-rules/update-objects.js';
import { parseFlagChanges, type FlagChangeInput } from '../../bug-rules/flags.js';
import type { StatusChangeRequest } from '../../bug-rules/workflow.js';
import { isCustomFieldName } from '../../bug/bug.fields.js';
import { normaliseCommentText } from '../../bug/bug-comments.js';
import type { BugUpdateInput } from '../dto/bug-update.dto.js';

/** Largest value of a time field (defaults.md "time fields"). */
export const MAX_HOURS = 99999.99;

/** Hours as stored: two decimals (the columns are DECIMAL(7,2)). */
export const roundHours = (hours: number): number => Math.round(hours * 100) / 100;

/** A time value: the number, and the text as sent (the `added` side of `changes` shows it as sent). */
export interface TimeValue {
  hours: number;
  asSent: string;
}

export interface CommentInput {
  /** Trailing blanks stripped, line ends normalised; may be '' (then only work_time makes a comment). */
  body: string;
  isPrivate: boolean;
}

/** Every key the update understands; `undefined` means "not sent". */
export interface UpdateRequest {
  alias?: AddRemoveSet<unknown>;
  assignedTo?: string;
  resetAssignedTo: boolean;
  qaContact?: string;
  resetQaContact: boolean;
  blocks?: AddRemoveSet<unknown>;
  dependsOn?: AddRemoveSet<unknown>;
  /** BMO's fields (issue 43), read only with the bmo_bug_fields parameter on. */
  regressedBy?: AddRemoveSet<unknown>;
  regressions?: AddRemoveSet<unknown>;
  type?: string;
  cc?: AddRemoveSet<unknown>;
  comment?: CommentInput;
  /** comment id (as sent) → requested privacy. */
  commentIsPrivate?: Array<{ id: string; isPrivate: boolean }>;
  product?: string;
  component?: string;
  version?: string;
  targetMilestone?: string;
  opSys?: string;
  platform?: string;
  priority?: string;
  severity?: string;
  summary?: string;
  url?: string;
  whiteboard?: string;
  /** YYYY-MM-DD, or null to clear. */
  deadline?: string | null;
  estimatedTime?: TimeValue;
  remainingTime?: TimeValue;
  workTime?: TimeValue;
  flags?: FlagChangeInput[];
  groups?: AddRemoveSet<unknown>;
  keywords?: AddRemoveSet<unknown>;
  seeAlso?: AddRemoveSet<unknown>;
  isCcAccessible?: boolean;
  isCreatorAccessible?: boolean;
  /** status / resolution / dupeOf exactly as sent: a present `resolution: null` still counts (rule 1). */
  statusChange: StatusChangeRequest;
  /** `cf_*` keys with their raw values; unknown custom fields are the service's to ignore. */
  custom: Map<string, unknown>;
}

const FUNCTION = 'Bug.update';

/** A scalar field as text: an array gives its first element (as Bugzilla does), an object is 53. */
export function scalarText(key: string, value: unknown): string {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (first === null || first === undefined) return '';
  if (typeof first === 'object') throw TrackerError.of(Errors.PARAM_INVALID, { param: key, function: FUNCTION });
  return String(first);
}

/**
 * Bugzilla's ValidateTime: digits with an optional fraction; empty is 0; negative only for work_time (55);
 * above 99999.99 is 54; anything else 52.
 */
export function parseTimeValue(field: string, value: unknown, allowNegative = false): TimeValue {
  const text = scalarText(field, value).trim();
  if (text === '') return { hours: 0, asSent: '0' };
  if (!/^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(text)) throw TrackerError.of(Errors.NUMBER_NOT_NUMERIC, { num: text, field });
  const hours = Number(text);
  if (hours < 0 && !allowNegative) throw TrackerError.of(Errors.NUMBER_TOO_SMALL, { num: text, field, min: 0 });
  if (hours > MAX_HOURS) throw TrackerError.of(Errors.NUMBER_TOO_LARGE, { num: text, field, max: MAX_HOURS.toFixed(2) });
  if (Math.abs(hours) > MAX_HOURS) throw TrackerError.of(Errors.NUMBER_TOO_SMALL, { num: text, field, min: -MAX_HOURS });
  return { hours, asSent: text };
}

/** `{"body": …, "is_private": …}` (`comment` is a synonym of `body`); a plain string is taken as the body. */
function parseComment(value: unknown): CommentInput {
  if (typeof value === 'string' || typeof value === 'number') return { body: normaliseCommentText(String(value)), isPrivate: false };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw TrackerError.of(Errors.PARAM_INVALID, { param: 'comment', function: FUNCTION });
  }
  const object = value as Record<string, unknown>;
  const body = object.body ?? object.comment;
  return {
    body: normaliseCommentText(scalarText('comment.body', body)),
    isPrivate: toBoolean(object.is_private ?? object.isprivate ?? false),
  };
}

const STRING_FIELDS = {
  assigned_to: 'assignedTo',
  qa_contact: 'qaContact',
  product: 'product',
  component: 'component',
  version: 'version',
  target_milestone: 'targetMilestone',
  op_sys: 'opSys',
  platform: 'platform',
  priority: 'priority',
  severity: 'severity',
  summary: 'summary',
  url: 'url',
  whiteboard: 'whiteboard',
} as const;

/**
 * The custom fields (`cf_*`) of a request's data with their raw values: their names are the administrator's, so no
 * DTO declares them. Unknown custom fields are the service's to ignore.
 */
export function customFieldsOf(data: Readonly<Record<string, unknown>>): Map<string, unknown> {
  return new Map(Object.entries(data).filter(([key, value]) => isCustomFieldName(key) && value !== undefined));
}

/**
 * Reads an Update Bug request: its DTO (unknown keys already dropped, as Bugzilla's clients expect, clients.md) and
 * its custom fields. `ids` and `id_or_alias` name the bugs and are the controller's. BMO's fields are unknown keys
 * unless `bmoFields` (the bmo_bug_fields parameter).
 */
export function parseUpdateRequest(input: BugUpdateInput, custom: ReadonlyMap<string, unknown>, bmoFields = false): UpdateRequest {
  const request: UpdateRequest = {
    resetAssignedTo: input.reset_assigned_to === true,
    resetQaContact: input.reset_qa_contact === true,
    statusChange: {},
    custom: new Map(custom),
  };

  for (const [key, property] of Object.entries(STRING_FIELDS)) {
    const value = input[key as keyof typeof STRING_FIELDS];
    if (value !== undefined) request[property] = value;
  }
  // `platform` is also spelled rep_platform by some clients (as on Create Bug).
  if (request.platform === undefined && input.rep_platform !== undefined) request.platform = input.rep_platform;

  if (input.alias !== undefined) request.alias = normaliseUpdateObject('alias', input.alias);
  if (input.blocks !== undefined) request.blocks = normaliseUpdateObject('blocks', input.blocks);
  if (input.depends_on !== undefined) request.dependsOn = normaliseUpdateObject('depends_on', input.depends_on);
  if (input.cc !== undefined) request.cc = normaliseUpdateObject('cc', input.cc);
  if (input.groups !== undefined) request.groups = normaliseUpdateObject('groups', input.groups);
  if (input.keywords !== undefined) request.keywords = normaliseUpdateObject('keywords', input.keywords);
  if (input.see_also !== undefined) request.seeAlso = normaliseUpdateObject('see_also', input.see_also);
  if (bmoFields) {
    if (input.regressed_by !== undefined) request.regressedBy = normaliseUpdateObject('regressed_by', input.regressed_by);
    if (input.regressions !== undefined) request.regressions = normaliseUpdateObject('regressions', input.regressions);
    if (input.type !== undefined) request.type = input.type;
  }

  // Sent as null: as if not sent.
  if (input.comment !== undefined && input.comment !== null) request.comment = parseComment(input.comment);
  if (input.comment_is_private) {
    request.commentIsPrivate = Object.entries(input.comment_is_private).map(([id, isPrivate]) => ({ id, isPrivate: toBoolean(isPrivate) }));
  }
  if (input.flags) request.flags = parseFlagChanges(input.flags, FUNCTION);

  if (input.deadline !== undefined) {
    const raw: unknown = Array.isArray(input.deadline) ? input.deadline[0] : input.deadline;
    request.deadline = parseDeadline(typeof raw === 'number' ? String(raw) : raw);
  }
  if (input.estimated_time !== undefined) request.estimatedTime = parseTimeValue('estimated_time', input.estimated_time);
  if (input.remaining_time !== undefined) request.remainingTime = parseTimeValue('remaining_time', input.remaining_time);
  if (input.work_time !== undefined) request.workTime = parseTimeValue('work_time', input.work_time, true);

  // Sent as null: false, as Bugzilla reads it.
  if (input.is_cc_accessible !== undefined) request.isCcAccessible = input.is_cc_accessible === true;
  if (input.is_creator_accessible !== undefined) request.isCreatorAccessible = input.is_creator_accessible === true;

  // Null kept: the workflow rules tell an absent key from an empty or null one.
  if (input.status !== undefined) request.statusChange.status = input.status;
  if (input.resolution !== undefined) request.statusChange.resolution = input.resolution;
  if (input.dupe_of !== undefined) request.statusChange.dupeOf = input.dupe_of;
  return request;
}
