import { createHmac } from 'node:crypto';
import type { Caller } from '../common/caller.js';
import type { FieldSelection } from '../common/fields/field-selection.js';
import { toApiDate, toApiDateTime } from '../common/time/datetime.js';
import { FieldType } from '../field/field-type.js';
import type { BugFlag, CustomFieldDef, LoadedBug, UserDetail } from './loaded-bug.js';
import { BUG_FIELDS } from './bug.fields.js';

/** What the presenter needs to know about the request besides the bug. */
export interface BugPresentation {
  caller: Caller;
  /** The installation's custom fields (every one is shown by name). */
  customFields: readonly CustomFieldDef[];
  /** Secret keying update_token; with none, no token is given. */
  siteSecret?: string;
  /** The request's timestamp (update_token carries it). */
  now: Date;
  /** Search Bugs answers without update_token (updates.md). */
  withUpdateToken: boolean;
}

/** Whether the caller sees addresses whole (see emailFilter): one of the classes a kept bug JSON is made for. */
export function seesWholeAddresses(caller: Caller): boolean {
  return caller.isLoggedIn || !caller.parameters.bool('webservice_email_filter');
}

/**
 * Bugzilla's email_filter: with `webservice_email_filter` on, anonymous callers see addresses without their domain
 * (`user@example.com` → `user`). Logged-in callers always see them whole.
 */
export function emailFilter(caller: Caller): (address: string) => string {
  if (seesWholeAddresses(caller)) return (address) => address;
  return (address) => address.replace(/@\S+/g, '');
}

/**
 * The mid-air-collision token of the browser edit form (updates.md "update_token"):
 * `<unix time>-<HMAC-SHA256 base64url>` over `time*userid*bugid*last_change_time`, keyed with the site secret.
 */
export function updateToken(secret: string, now: Date, userId: number, bugId: number, lastChangeTime: string): string {
  const time = Math.floor(now.getTime() / 1000);
  const message = `${time}*${userId}*${bugId}*${lastChangeTime}`;
  if (time !== tokensMade.time || secret !== tokensMade.secret) tokensMade = { time, secret, tokens: new Map() };
  let token = tokensMade.tokens.get(message);
  if (token === undefined) {
    const digest = createHmac('sha256', secret).update(message).digest('base64');
    token = `${time}-${digest.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
    if (tokensMade.tokens.size < MAX_TOKENS_A_SECOND) tokensMade.tokens.set(message, token);
  }
  return token;
}

/**
 * The tokens made in the current second (a token names its second): a bug read many times a second by one user
 * costs one HMAC, not one per read (issue 13). Derived values only, dropped when the second or the secret changes.
 */
let tokensMade = { time: -1, secret: '', tokens: new Map<string, string>() };
const MAX_TOKENS_A_SECOND = 10_000;

/** The Flag object of service-spec.md, for bugs and attachments alike (`requestee` only when set). */
export function presentFlag(flag: BugFlag, email: (a: string) => string): Record<string, unknown> {
  return {
    id: flag.id,
    name: flag.name,
    type_id: flag.typeId,
    creation_date: toApiDateTime(flag.creationDate),
    modification_date: toApiDateTime(flag.modificationDate),
    status: flag.status,
    setter: email(flag.setter),
    ...(flag.requestee ? { requestee: email(flag.requestee) } : {}),
  };
}

/** A custom field's value typed by its field type (service-spec.md: bug-ID int, multi-select array, dates datetime). */
function customValue(field: CustomFieldDef, values: readonly string[] | undefined): unknown {
  const first = values?.[0];
  switch (field.type) {
    case FieldType.MULTI_SELECT:
    case FieldType.BUG_URLS:
      return [...(values ?? [])];
    case FieldType.BUG_ID:
      return first === undefined || first === '' ? null : Number(first);
    case FieldType.INTEGER:
      return first === undefined || first === '' ? 0 : Number(first);
    case FieldType.DATETIME:
    case FieldType.DATE:
      return first === undefined || first === '' ? null : toApiDateTime(first);
    case FieldType.SINGLE_SELECT:
      return first ?? '---';
    default:
      return first ?? '';
  }
}

/**
 * The public Bug (service-spec.md "Bug"), every field; the field-selection interceptor trims it afterwards.
 * Time-tracking fields only for time trackers (the deadline is null for others); update_token only for logged-in
 * callers; `qa_contact` is "" and `qa_contact_detail` absent when there is no QA contact.
 */
export function presentBug(bug: LoadedBug, view: BugPresentation): Record<string, unknown> {
  return Object.assign(presentSharedFields(bug, view), presentCallerFields(bug.row, bug.tags, view));
}

/**
 * The fields of a bug that belong to the caller, last in its object: their personal tags, and the update token
 * (Get Bug, logged-in callers). Everything before them is the same for every caller of one class (BugService keeps it).
 */
export function presentCallerFields(
  row: Pick<LoadedBug['row'], 'id' | 'lastChangeTime'>,
  tags: readonly string[],
  view: Pick<BugPresentation, 'caller' | 'siteSecret' | 'now' | 'withUpdateToken'>,
): Record<string, unknown> {
  return {
    tags,
    ...(givesUpdateToken(view) ? { update_token: updateToken(view.siteSecret, view.now, view.caller.id, row.id, row.lastChangeTime) } : {}),
  };
}

function givesUpdateToken(view: Pick<BugPresentation, 'caller' | 'siteSecret' | 'withUpdateToken'>): view is typeof view & { siteSecret: string } {
  return view.withUpdateToken && view.caller.isLoggedIn && !!view.siteSecret;
}

/**
 * Whether presentCallerFields gives this caller anything the selection keeps. When not, a bug's JSON is the same for
 * every caller of its class (BugService keeps a one-bug answer whole).
 */
export function showsCallerFields(selection: FieldSelection, view: Pick<BugPresentation, 'caller' | 'siteSecret' | 'withUpdateToken'>): boolean {
  return selection.wants('tags', BUG_FIELDS) || (givesUpdateToken(view) && selection.wants('update_token', BUG_FIELDS));
}

/** The bug's fields but the caller's own: they depend on the caller's class only (time tracker, whole addresses). */
export function presentSharedFields(bug: LoadedBug, view: Pick<BugPresentation, 'caller' | 'customFields'>): Record<string, unknown> {
  const { caller } = view;
  const email = emailFilter(caller);
  const detail = (user: UserDetail) => ({ id: user.id, real_name: user.realName, name: email(user.login), email: email(user.email) });
  const row = bug.row;
  const out: Record<string, unknown> = {
    id: row.id,
    alias: bug.aliases,
    summary: row.summary,
    status: row.status,
    resolution: row.resolution,
    is_open: bug.isOpen,
    is_confirmed: row.isConfirmed,
    product: bug.product,
    component: bug.component,
    classification: bug.classification,
    version: row.version,
    target_milestone: row.targetMilestone,
    op_sys: row.opSys,
    platform: row.platform,
    priority: row.priority,
    severity: row.severity,
    creation_time: toApiDateTime(row.creationTime),
    last_change_time: toApiDateTime(row.lastChangeTime),
    creator: email(bug.reporter.login),
    creator_detail: detail(bug.reporter),
    assigned_to: email(bug.assignee.login),
    assigned_to_detail: detail(bug.assignee),
    qa_contact: bug.qaContact ? email(bug.qaContact.login) : '',
    ...(bug.qaContact ? { qa_contact_detail: detail(bug.qaContact) } : {}),
    cc: bug.cc.map((u) => email(u.login)),
    cc_detail: bug.cc.map(detail),
    blocks: bug.blocks,
    depends_on: bug.dependsOn,
    dupe_of: bug.dupeOf,
    flags: bug.flags.map((f) => presentFlag(f, email)),
    groups: bug.groups,
    keywords: bug.keywords,
    see_also: bug.seeAlso,
    url: row.url,
    whiteboard: row.whiteboard,
    is_cc_accessible: row.isCcAccessible,
    is_creator_accessible: row.isCreatorAccessible,
  };
  // Bugzilla 5.0.6 sends the deadline key to everyone (null outside the time-tracking group); the times not at all.
  out.deadline = caller.isTimeTracker ? toApiDate(row.deadline) : null;
  if (caller.isTimeTracker) {
    out.estimated_time = row.estimatedTime;
    out.remaining_time = row.remainingTime;
    out.actual_time = bug.actualTime;
  }
  if (caller.parameters.bool('bmo_bug_fields')) Object.assign(out, presentBmoFields(bug, email, detail));
  for (const field of view.customFields) out[field.name] = customValue(field, bug.custom.get(field.id));
  return out;
}

/**
 * BMO's fields of a bug (its Bug.get, issue 43); `filed_via`, `triage_owner` (with its detail when there is one) and
 * `last_change_time_non_bot` are extra fields there and here. Without BMO's list of bot accounts, the last change of a
 * person is the last change (BMO's answer with an empty last_change_time_non_bot_skip_list).
 */
function presentBmoFields(bug: LoadedBug, email: (a: string) => string, detail: (user: UserDetail) => object): Record<string, unknown> {
  return {
    type: bug.row.type,
    regressed_by: bug.regressedBy,
    regressions: bug.regressions,
    duplicates: bug.duplicates,
    comment_count: bug.commentCount,
    filed_via: bug.row.filedVia,
    triage_owner: bug.triageOwner ? email(bug.triageOwner.login) : '',
    ...(bug.triageOwner ? { triage_owner_detail: detail(bug.triageOwner) } : {}),
    last_change_time_non_bot: toApiDateTime(bug.row.lastChangeTime),
  };
}
