/**
 * Flag request mail (Bugzilla's Flag::notify, request/email.txt.tmpl): when a change asks a person for a flag, that
 * person gets a message of its own besides the bug mail. The requests are read from the change's `flagtypes.name`
 * entry, whose `name?(login)` notation (updates.md) is the one place that names the requestee, for bugs and
 * attachments alike, so every writer of flags (Create/Update Bug, Create/Update Attachment) is covered.
 */
import type { BugChangeEvent, KnownBugChangeEvent } from '../bug/bug-events.js';
import type { UserRecord } from '../user/user.service.js';
import { bugUrl, fromAddress, MAX_SUBJECT_LENGTH, userLabel, type ComposedMail } from './bug-mail.composer.js';

export interface FlagRequest {
  /** The flag type's name. */
  flag: string;
  /** The requestee's login as the change names it. */
  requestee: string;
}

const REQUEST = /^(.+)\?\((.+)\)$/;

/** The requests a change makes: `name?(login)` added by a `flagtypes.name` entry and not already there before. */
export function flagRequestsOf(event: Pick<BugChangeEvent, 'changes'>): FlagRequest[] {
  const requests: FlagRequest[] = [];
  for (const change of event.changes.filter((c) => c.field === 'flagtypes.name')) {
    const removed = new Set(change.removed.split(', '));
    for (const summary of change.added.split(', ')) {
      const match = REQUEST.exec(summary.trim());
      if (match && !removed.has(summary)) requests.push({ flag: match[1], requestee: match[2] });
    }
  }
  return requests;
}

export function composeFlagRequestMail(
  event: Pick<KnownBugChangeEvent, 'bugId' | 'summary' | 'product' | 'component'>,
  request: FlagRequest,
  requestee: UserRecord,
  context: { changer: UserRecord | undefined; urlbase: string; mailfrom: string; emailsuffix: string },
): ComposedMail {
  const url = bugUrl(context.urlbase, event.bugId);
  const body = [
    `${userLabel(context.changer)} has asked ${userLabel(requestee)} for ${request.flag}:`,
    `Bug ${event.bugId}: ${event.summary}`,
    ...(url ? [url] : []),
  ].join('\n');
  return {
    to: `${requestee.email}${context.emailsuffix}`,
    subject: `${request.flag} requested: [Bug ${event.bugId}] ${event.summary}`.slice(0, MAX_SUBJECT_LENGTH),
    body: `${body}\n`,
    headers: {
      From: fromAddress(context.mailfrom, context.urlbase),
      'X-Tracker-Type': 'request',
      'X-Tracker-Flag-Requestee': requestee.login,
      'X-Tracker-Who': context.changer?.login ?? '',
      'X-Tracker-Product': event.product,
      'X-Tracker-Component': event.component,
    },
  };
}
