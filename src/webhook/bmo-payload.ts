/**
 * The `bmo` webhook format (issue 43): the body bugzilla.mozilla.org's webhooks POST (its Push extension's
 * serialiser and Webhook connector), built from what Tracker's reads show the webhook's owner. Pure: the payload
 * service reads, this shapes.
 */

/** BMO's messages, as the stem of their routing key. */
export type BmoMessage = 'bug.create' | 'bug.modify' | 'comment.create' | 'attachment.create' | 'attachment.modify';

/** A user as BMO's payload names one. */
export interface BmoUser {
  id: number;
  login: string;
  real_name: string;
}

type Json = Record<string, unknown>;

export interface BmoPayloadInput {
  webhook: { id: number; name: string };
  message: BmoMessage;
  /** The change's time, as the API shows times (ISO 8601, UTC, `Z`). */
  time: string;
  user: BmoUser;
  /** The changes the owner may see (Bug History's rule), API field names. */
  changes: ReadonlyArray<{ field: string; removed: string; added: string }>;
  /** The bug as Get Bug shows it to the owner. */
  bug: Json;
  /** The comment as Get Comments shows it to the owner (comment.create). */
  comment?: Json;
  /** The attachment as Get Attachment shows it to the owner, without contents (attachment.*). */
  attachment?: Json;
  /** The people the flags ask, by login. */
  requestees: ReadonlyMap<string, BmoUser>;
}

/** The single-select values BMO sends as '' when nothing is chosen (its serialiser's `_select`). */
const UNSELECTED = new Set(['---', '--']);
const unselected = (value: unknown) => (typeof value === 'string' && UNSELECTED.has(value) ? '' : value);

/** BMO's times: UTC without a zone designator (DateTime's `datetime()`); JBI reads them as UTC. */
export function bmoTime(apiTime: unknown): string | null {
  return typeof apiTime === 'string' && apiTime ? apiTime.replace(/Z$/, '') : null;
}

/** BMO's body of one message, including its reduction of private bugs, comments and attachments. */
export function bmoPayload(input: BmoPayloadInput): Json {
  const [target, action] = input.message.split('.') as ['bug' | 'comment' | 'attachment', 'create' | 'modify'];
  const changes = bmoChanges(input.changes);
  const event: Json = {
    action,
    time: bmoTime(input.time),
    user: input.user,
    ...(changes.length ? { changes } : {}),
    target,
    routing_key: `${input.message}${changes.length ? `:${changes.map((c) => c.field).join(',')}` : ''}`,
  };
  const bug = bmoBug(input.bug, input.requestees);
  const item = target === 'comment' ? bmoComment(input.comment!) : target === 'attachment' ? bmoAttachment(input.attachment!, input.requestees) : undefined;
  // As BMO's connector: a private bug, or a private comment or attachment, goes as its ids alone (the receiver reads
  // the rest through the API with its own key), and a change of it without its changes.
  const isPrivate = bug.is_private === true || item?.is_private === true;
  if (isPrivate && action === 'modify') delete event.changes;
  let shownBug: Json;
  if (!isPrivate) shownBug = item ? { ...bug, [target]: item } : bug;
  else if (item) shownBug = { id: bug.id, is_private: bug.is_private, [target]: { id: item.id, is_private: true } };
  else shownBug = { id: bug.id, is_private: true };
  return { webhook_id: input.webhook.id, webhook_name: input.webhook.name, event, bug: shownBug };
}

/**
 * BMO's changes: flag changes one per flag (`flag.review`, BMO's `_split_flagtypes`), and no value chosen in
 * priority or target_milestone as ''. Changes from nothing to nothing are dropped, as BMO's serialiser does.
 */
export function bmoChanges(changes: BmoPayloadInput['changes']): Array<{ field: string; removed: string; added: string }> {
  const out: Array<{ field: string; removed: string; added: string }> = [];
  for (const change of changes) {
    if (change.field === 'flagtypes.name') {
      out.push(...splitFlagChange(change.removed, change.added));
      continue;
    }
    const select = change.field === 'priority' || change.field === 'target_milestone';
    const removed = select ? String(unselected(change.removed)) : change.removed;
    const added = select ? String(unselected(change.added)) : change.added;
    if (removed !== '' || added !== '') out.push({ field: change.field, removed, added });
  }
  return out;
}

/** `review?(a@b), feedback+` → one change per flag name, its value `?`, `+`, `-`, with ` (requestee)` when asked of someone. */
function splitFlagChange(removed: string, added: string): Array<{ field: string; removed: string; added: string }> {
  const byName = new Map<string, { removed: string; added: string }>();
  const parse = (list: string, side: 'removed' | 'added') => {
    for (const part of list.split(', ').filter(Boolean)) {
      const match = /^(.+)([?+-])(?:\(([^)]+)\))?$/.exec(part);
      if (!match) continue;
      const [, name, status, requestee] = match;
      const entry = byName.get(name) ?? { removed: '', added: '' };
      entry[side] = requestee ? `${status} (${requestee})` : status;
      byName.set(name, entry);
    }
  };
  parse(removed, 'removed');
  parse(added, 'added');
  return [...byName].filter(([, v]) => v.removed !== v.added).map(([name, v]) => ({ field: `flag.${name}`, ...v }));
}

const userOf = (detail: unknown, login: unknown): BmoUser | undefined => {
  if (!detail || typeof detail !== 'object') return undefined;
  const d = detail as { id?: number; name?: string; real_name?: string };
  return { id: Number(d.id), login: String(d.name ?? login ?? ''), real_name: d.real_name ?? '' };
};

/** BMO's bug object (its serialiser's `_bug`) from Get Bug's answer; `type` only when Get Bug shows one. */
export function bmoBug(bug: Json, requestees: ReadonlyMap<string, BmoUser>): Json {
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  const aliases = Array.isArray(bug.alias) ? bug.alias : bug.alias ? [bug.alias] : [];
  const shaped: Json = {
    id: bug.id,
    alias: text(aliases[0]),
    assigned_to: text(bug.assigned_to),
    assigned_to_detail: userOf(bug.assigned_to_detail, bug.assigned_to) ?? null,
    classification: text(bug.classification),
    component: text(bug.component),
    creation_time: bmoTime(bug.creation_time),
    creator: text(bug.creator),
    creator_detail: userOf(bug.creator_detail, bug.creator) ?? null,
    flags: bmoFlags(bug.flags, requestees),
    is_private: Array.isArray(bug.groups) && bug.groups.length > 0,
    keywords: Array.isArray(bug.keywords) ? bug.keywords : [],
    last_change_time: bmoTime(bug.last_change_time),
    operating_system: text(bug.op_sys),
    platform: text(bug.platform),
    priority: unselected(text(bug.priority)),
    product: text(bug.product),
    qa_contact: text(bug.qa_contact),
    resolution: text(bug.resolution),
    see_also: Array.isArray(bug.see_also) ? bug.see_also : [],
    severity: text(bug.severity),
    status: text(bug.status),
    summary: text(bug.summary),
    target_milestone: text(bug.target_milestone),
    ...(bug.type !== undefined && bug.type !== null ? { type: text(bug.type) } : {}),
    url: text(bug.url),
    version: text(bug.version),
    whiteboard: text(bug.whiteboard),
  };
  const qaContact = bug.qa_contact ? userOf(bug.qa_contact_detail, bug.qa_contact) : undefined;
  if (qaContact) shaped.qa_contact_detail = qaContact;
  // Custom fields as Get Bug shows them, a single select with nothing chosen as '' (BMO's `_custom_field`).
  for (const [name, value] of Object.entries(bug)) if (name.startsWith('cf_')) shaped[name] = unselected(value);
  return shaped;
}

/** BMO's flag objects: {id, name, value} and the requestee when one is asked. */
function bmoFlags(flags: unknown, requestees: ReadonlyMap<string, BmoUser>): Json[] {
  if (!Array.isArray(flags)) return [];
  return (flags as Json[]).map((flag) => {
    const requestee = typeof flag.requestee === 'string' && flag.requestee ? requestees.get(flag.requestee) : undefined;
    return { id: flag.id, name: flag.name, value: flag.status, ...(requestee ? { requestee } : {}) };
  });
}

/** The logins the flags of a bug and an attachment ask (to read their users once). */
export function requesteeLogins(...objects: Array<Json | undefined>): string[] {
  const logins = objects.flatMap((object) => (Array.isArray(object?.flags) ? (object.flags as Json[]) : []))
    .map((flag) => flag.requestee).filter((login): login is string => typeof login === 'string' && login !== '');
  return [...new Set(logins)];
}

/** BMO's comment object (`_comment`, shallow). */
function bmoComment(comment: Json): Json {
  return { id: comment.id, body: comment.text, creation_time: bmoTime(comment.creation_time), is_private: comment.is_private, number: comment.count };
}

/** BMO's attachment object (`_attachment`, shallow): `description` is the attachment's summary. */
function bmoAttachment(attachment: Json, requestees: ReadonlyMap<string, BmoUser>): Json {
  return {
    id: attachment.id,
    content_type: attachment.content_type,
    creation_time: bmoTime(attachment.creation_time),
    description: attachment.summary,
    file_name: attachment.file_name,
    flags: bmoFlags(attachment.flags, requestees),
    is_obsolete: attachment.is_obsolete === true || attachment.is_obsolete === 1,
    is_patch: attachment.is_patch === true || attachment.is_patch === 1,
    is_private: attachment.is_private === true || attachment.is_private === 1,
    last_change_time: bmoTime(attachment.last_change_time),
  };
}
