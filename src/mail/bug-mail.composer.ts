/**
 * The text of one bug mail for one recipient, laid out as Bugzilla 5.0's bugmail templates lay it out: the bug's
 * URL, then for a new bug the "Field: value" block and the description, for a change the
 * "What | Removed | Added" table and the new comment, then the reasons the recipient gets it.
 * Pure: everything it needs (users, parameters, what the recipient may see) is passed in.
 */
import os from 'node:os';
import type { UserRecord } from '../user/user.service.js';
import { TIME_TRACKING_FIELDS, type KnownBugChangeEvent } from '../bug/bug-events.js';
import type { MailReason } from './bug-mail.recipients.js';

/** Keywords in the X-Bugzilla-Keywords header, case-blind; one collator (localeCompare with options builds one per call). */
const KEYWORD_ORDER = new Intl.Collator('en', { sensitivity: 'base' });

/** One row of the outbox as composed; `headers` carries From, threading and the X-Tracker-* headers. */
export interface ComposedMail {
  to: string;
  subject: string;
  body: string;
  headers: Record<string, string>;
}

export interface ComposeContext {
  changer: UserRecord | undefined;
  /** The bug's assignee and QA contact after the change (X-Bugzilla-Assigned-To, -QA-Contact). */
  assignee?: UserRecord;
  qaContact?: UserRecord;
  /** The useclassification, useqacontact and usetargetmilestone parameters: 5.0 sends those headers only when on. */
  shows?: { classification: boolean; qaContact: boolean; targetMilestone: boolean };
  /** The parameters the mail depends on, as strings. */
  urlbase: string;
  mailfrom: string;
  emailsuffix: string;
  /** Descriptions of custom fields by name (cf_*), for the table's "What" column. */
  customFieldLabels?: ReadonlyMap<string, string>;
}

export interface RecipientView {
  user: UserRecord;
  reasons: readonly MailReason[];
  /** Member of the insider group: sees private comments. */
  isInsider: boolean;
  /** Member of the time-tracking group: sees estimated/remaining/worked hours and the deadline. */
  isTimeTracker: boolean;
}

/** Bugzilla's field descriptions for the API names of `changes`. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  alias: 'Alias',
  assigned_to: 'Assignee',
  blocks: 'Blocks',
  cc: 'CC',
  classification: 'Classification',
  component: 'Component',
  deadline: 'Deadline',
  depends_on: 'Depends on',
  dupe_of: 'Duplicate of',
  estimated_time: 'Estimated Hours',
  'flagtypes.name': 'Flags',
  groups: 'Group',
  is_cc_accessible: 'CC list accessible',
  is_confirmed: 'Ever confirmed',
  is_creator_accessible: 'Reporter accessible',
  keywords: 'Keywords',
  op_sys: 'OS',
  platform: 'Hardware',
  priority: 'Priority',
  product: 'Product',
  qa_contact: 'QA Contact',
  regressed_by: 'Regressed by',
  regressions: 'Regressions',
  remaining_time: 'Remaining Hours',
  reporter: 'Reporter',
  resolution: 'Resolution',
  see_also: 'See Also',
  severity: 'Severity',
  status: 'Status',
  summary: 'Summary',
  target_milestone: 'Target Milestone',
  type: 'Type',
  url: 'URL',
  version: 'Version',
  whiteboard: 'Whiteboard',
  work_time: 'Hours Worked',
};

const REASON_TEXT: Readonly<Record<MailReason, string>> = {
  AssignedTo: 'You are the assignee for the bug.',
  QAcontact: 'You are the QA Contact for the bug.',
  Reporter: 'You reported the bug.',
  CC: 'You are on the CC list for the bug.',
  None: 'You were involved with the bug before this change.',
};

// Bugzilla's three-column change table: "%19s|%-28s|%s" under a rule of 76 dashes.
const WHAT_WIDTH = 19;
const VALUE_WIDTH = 28;
export const MAX_SUBJECT_LENGTH = 255;
const TABLE_RULE = '-'.repeat(76);

function fieldLabel(field: string, context: ComposeContext): string {
  return FIELD_LABELS[field] ?? context.customFieldLabels?.get(field) ?? field;
}

export function userLabel(user: UserRecord | undefined): string {
  if (!user) return 'Nobody';
  return user.realName ? `${user.realName} <${user.login}>` : user.login;
}

/** Splits a value into lines of at most `width` characters, at spaces where it can (hard breaks otherwise). */
export function wrapCell(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > width) {
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    if (!rest) continue;
    if (!line) line = rest;
    else if (line.length + 1 + rest.length <= width) line += ` ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line || !lines.length) lines.push(line);
  return lines;
}

/** The "What | Removed | Added" table of a change, long values wrapped within their columns. */
export function changeTable(rows: ReadonlyArray<{ label: string; removed: string; added: string }>): string {
  const out = [`${'What    '.padStart(WHAT_WIDTH)}|${'Removed'.padEnd(VALUE_WIDTH)}|Added`, TABLE_RULE];
  for (const row of rows) {
    const removed = wrapCell(row.removed, VALUE_WIDTH);
    const added = wrapCell(row.added, VALUE_WIDTH);
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const what = i === 0 ? row.label.slice(0, WHAT_WIDTH) : '';
      out.push(`${what.padStart(WHAT_WIDTH)}|${(removed[i] ?? '').padEnd(VALUE_WIDTH)}|${added[i] ?? ''}`.trimEnd());
    }
  }
  return out.join('\n');
}

export function bugUrl(urlbase: string, bugId: number): string {
  return urlbase ? `${urlbase}show_bug.cgi?id=${bugId}` : '';
}

/** The last urlbase asked and its host: a URL is parsed twice per recipient otherwise, and the urlbase rarely changes. */
let lastUrlbase: { urlbase: string; host: string | undefined } | undefined;

function urlbaseHost(urlbase: string): string | undefined {
  if (lastUrlbase?.urlbase !== urlbase) lastUrlbase = { urlbase, host: parsedHost(urlbase) };
  return lastUrlbase.host;
}

function parsedHost(urlbase: string): string | undefined {
  try {
    return urlbase ? new URL(urlbase).hostname || undefined : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The From address. Bugzilla's default `mailfrom` is a bare `bugzilla-daemon`, which a local MTA qualifies with the
 * machine's name. An SMTP server usually refuses an unqualified sender, and nodemailer drops a From without a domain,
 * so a bare name is qualified here: with the urlbase host, else with the machine's host name, as that MTA would.
 */
export function fromAddress(mailfrom: string, urlbase: string): string {
  return mailfrom.includes('@') ? mailfrom : `${mailfrom}@${urlbaseHost(urlbase) ?? os.hostname()}`;
}

/** Bugzilla threads a bug's mails per recipient: the new-bug mail's Message-ID is what later mails reply to. */
function threadId(event: KnownBugChangeEvent, recipient: UserRecord, urlbase: string): string {
  return `<bug-${event.bugId}-${recipient.id}@${urlbaseHost(urlbase) ?? 'tracker'}>`;
}

const ABOUT_HEADER_NAMES = new Map<string, readonly [string, string]>();

/**
 * The two header names of an X-…-`name` header, made once: new names made per mail (and spread from an object built
 * of entries) were four fifths of a mail's composition, ~12 µs for each recipient of each change.
 */
function aboutHeaderNames(name: string): readonly [string, string] {
  let names = ABOUT_HEADER_NAMES.get(name);
  if (!names) ABOUT_HEADER_NAMES.set(name, (names = [`X-Tracker-${name}`, `X-Bugzilla-${name}`]));
  return names;
}

/**
 * The mail one recipient gets for one event, or null when, after hiding what they may not see (private comment,
 * time-tracking fields), nothing is left to tell them. A new bug is always mailed.
 */
export function composeBugMail(event: KnownBugChangeEvent, recipient: RecipientView, context: ComposeContext): ComposedMail | null {
  const changes = event.changes.filter((c) => recipient.isTimeTracker || !TIME_TRACKING_FIELDS.has(c.field));
  const comment = event.comment && (!event.comment.isPrivate || recipient.isInsider) ? event.comment : undefined;
  if (event.action !== 'create' && !changes.length && !comment) return null;

  const url = bugUrl(context.urlbase, event.bugId);
  const parts: string[] = [];
  if (url) parts.push(url);
  if (event.action === 'create') {
    const shown = new Set(['summary', 'product', 'component']);
    const lines = [
      ['Bug ID', String(event.bugId)],
      ['Summary', event.summary],
      ['Product', event.product],
      ['Component', event.component],
      ...changes.filter((c) => !shown.has(c.field) && c.added !== '').map((c) => [fieldLabel(c.field, context), c.added]),
    ];
    parts.push(lines.map(([label, value]) => `${label.padStart(18)}: ${value}`).join('\n'));
    if (comment?.text) parts.push(comment.text);
  } else {
    if (changes.length) {
      parts.push(`${userLabel(context.changer)} changed:`);
      parts.push(changeTable(changes.map((c) => ({ label: fieldLabel(c.field, context), removed: c.removed, added: c.added }))));
    }
    if (comment) {
      const privacy = comment.isPrivate ? ' (private)' : '';
      parts.push(`--- Comment from ${userLabel(context.changer)}${privacy} ---\n${comment.text}`);
    }
  }
  parts.push(`-- \nYou are receiving this mail because:\n${recipient.reasons.map((r) => REASON_TEXT[r]).join('\n')}`);

  const thread = threadId(event, recipient.user, context.urlbase);
  const { state } = event;
  const shows = context.shows;
  // The order and the conditions of Bugzilla 5.0's bugmail headers.
  const about: Record<string, string> = {
    Reason: recipient.reasons.join(' '),
    Type: event.action === 'create' ? 'new' : 'changed',
    // Watching other users (5.0's user watch list) is not offered, so no mail comes through a watched user.
    'Watch-Reason': 'None',
    ...(shows?.classification ? { Classification: state.classification } : {}),
    Product: event.product,
    Component: event.component,
    Version: state.version,
    Keywords: [...state.keywords].sort(KEYWORD_ORDER.compare).join(', '),
    Severity: state.severity,
    Who: context.changer?.login ?? '',
    Status: state.status,
    Resolution: state.resolution,
    Priority: state.priority,
    'Assigned-To': context.assignee?.login ?? '',
    ...(shows?.qaContact ? { 'QA-Contact': context.qaContact?.login ?? '' } : {}),
    ...(shows?.targetMilestone ? { 'Target-Milestone': state.targetMilestone } : {}),
    ...(changes.length ? { 'Changed-Fields': changes.map((c) => c.field).join(' ') } : {}),
    ...(context.urlbase ? { URL: context.urlbase } : {}),
  };
  const headers: Record<string, string> = {
    From: fromAddress(context.mailfrom, context.urlbase),
    ...(event.action === 'create' ? { 'Message-ID': thread } : { 'In-Reply-To': thread, References: thread }),
  };
  // Each one twice: the X-Bugzilla-* names existing users' mail filters match, and the service's own.
  for (const name in about) {
    const [tracker, bugzilla] = aboutHeaderNames(name);
    headers[tracker] = about[name];
    headers[bugzilla] = about[name];
  }
  return {
    to: `${recipient.user.email}${context.emailsuffix}`,
    // The outbox column holds 255 characters and a summary alone may have 255: clip rather than fail the change.
    subject: `[Bug ${event.bugId}] ${event.action === 'create' ? 'New: ' : ''}${event.summary}`.slice(0, MAX_SUBJECT_LENGTH),
    body: `${parts.join('\n\n')}\n`,
    headers,
  };
}
