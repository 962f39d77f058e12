/**
 * The body of Update Bug (service-spec "Update Bug", updates.md "Update Bug: body objects") read into one typed
 * object, with the shape errors raised before anything is loaded: 53 for a value of the wrong shape, 52/54/55 for
 * time values, 56 for a deadline, 114 for an over-long comment (CommentService's rule), 50 for a flag without a status. Rules that need
 * the bug or the database (who may change what, legal values …) are the service's.
 */
import { Errors, TrackerError } from '../../common/errors/index.js';
import { parseDeadline } from '../../common/time/datetime.js';
import { toBoolean } from '../../common/http/request-params.js';
import { normaliseUpdateObject, type AddRemoveSet } from '../rules/update-objects.js';
import type { FlagChangeInput } from '../rules/flags.js';
import type { StatusChangeRequest } from '../rules/workflow.js';
import { isCustomFieldName } from '../bug.fields.js';
import { normaliseCommentText } from '../../comment/comment.service.js';

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

const present = (data: Readonly<Record<string, unknown>>, key: string) =>
  Object.prototype.hasOwnProperty.call(data, key) && data[key] !== undefined;

/** A scalar field as text: an array gives its first element (as Bugzilla does), an object is 53. */
export function scalarText(key: string, value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
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

function parseCommentPrivacy(value: unknown): Array<{ id: string; isPrivate: boolean }> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw TrackerError.of(Errors.PARAM_INVALID, { param: 'comment_is_private', function: FUNCTION });
  }
  return Object.entries(value as Record<string, unknown>).map(([id, isPrivate]) => ({ id, isPrivate: toBoolean(isPrivate) }));
}

/** An array of flag-change objects, each with a status (extract_flags: a missing status is param_required). */
function parseFlags(value: unknown): FlagChangeInput[] {
  if (!Array.isArray(value)) throw TrackerError.of(Errors.PARAM_INVALID, { param: 'flags', function: FUNCTION });
  return value.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw TrackerError.of(Errors.PARAM_INVALID, { param: 'flags', function: FUNCTION });
    }
    const flag = item as FlagChangeInput;
    if (flag.status === undefined || flag.status === null || String(flag.status).trim() === '') {
      throw TrackerError.of(Errors.PARAM_REQUIRED, { function: FUNCTION, param: 'status' });
    }
    return flag;
  });
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
 * Reads the data of an Update Bug request (credentials and field selection already removed). Unknown keys are
 * ignored, as Bugzilla's clients expect (clients.md); `ids` and `id_or_alias` name the bugs and are the
 * controller's.
 */
export function parseUpdateRequest(data: Readonly<Record<string, unknown>>): UpdateRequest {
  const request: UpdateRequest = {
    resetAssignedTo: present(data, 'reset_assigned_to') && toBoolean(data.reset_assigned_to),
    resetQaContact: present(data, 'reset_qa_contact') && toBoolean(data.reset_qa_contact),
    statusChange: {},
    custom: new Map(),
  };

  for (const [key, property] of Object.entries(STRING_FIELDS)) {
    if (present(data, key)) request[property] = scalarText(key, data[key]);
  }
  // `platform` is also spelled rep_platform by some clients (as on Create Bug).
  if (request.platform === undefined && present(data, 'rep_platform')) request.platform = scalarText('rep_platform', data.rep_platform);

  if (present(data, 'alias')) request.alias = normaliseUpdateObject('alias', data.alias);
  if (present(data, 'blocks')) request.blocks = normaliseUpdateObject('blocks', data.blocks);
  if (present(data, 'depends_on')) request.dependsOn = normaliseUpdateObject('depends_on', data.depends_on);
  if (present(data, 'cc')) request.cc = normaliseUpdateObject('cc', data.cc);
  if (present(data, 'groups')) request.groups = normaliseUpdateObject('groups', data.groups);
  if (present(data, 'keywords')) request.keywords = normaliseUpdateObject('keywords', data.keywords);
  if (present(data, 'see_also')) request.seeAlso = normaliseUpdateObject('see_also', data.see_also);

  if (present(data, 'comment') && data.comment !== null) request.comment = parseComment(data.comment);
  if (present(data, 'comment_is_private') && data.comment_is_private !== null) request.commentIsPrivate = parseCommentPrivacy(data.comment_is_private);
  if (present(data, 'flags') && data.flags !== null) request.flags = parseFlags(data.flags);

  if (present(data, 'deadline')) {
    const raw = Array.isArray(data.deadline) ? data.deadline[0] : data.deadline;
    request.deadline = parseDeadline(typeof raw === 'number' ? String(raw) : raw);
  }
  if (present(data, 'estimated_time')) request.estimatedTime = parseTimeValue('estimated_time', data.estimated_time);
  if (present(data, 'remaining_time')) request.remainingTime = parseTimeValue('remaining_time', data.remaining_time);
  if (present(data, 'work_time')) request.workTime = parseTimeValue('work_time', data.work_time, true);

  if (present(data, 'is_cc_accessible')) request.isCcAccessible = toBoolean(data.is_cc_accessible);
  if (present(data, 'is_creator_accessible')) request.isCreatorAccessible = toBoolean(data.is_creator_accessible);

  // Kept raw: the workflow rules tell an absent key from an empty or null one.
  if (present(data, 'status')) request.statusChange.status = data.status === null ? null : scalarText('status', data.status);
  if (Object.prototype.hasOwnProperty.call(data, 'resolution')) {
    request.statusChange.resolution = data.resolution === null || data.resolution === undefined ? null : scalarText('resolution', data.resolution);
  }
  if (present(data, 'dupe_of')) request.statusChange.dupeOf = data.dupe_of === null ? null : scalarText('dupe_of', data.dupe_of);

  for (const [key, value] of Object.entries(data)) {
    if (isCustomFieldName(key) && value !== undefined) request.custom.set(key, value);
  }
  return request;
}
