/**
 * Who gets mail about a bug change, as Bugzilla 5.0 decides it (Bugzilla::BugMail) for the relations this service
 * has: reporter, assignee, QA contact and CC list, plus the people the change removed from those roles (the old
 * assignee hears that the bug was taken from them). No voters, no watchers, no component watching.
 */
import type { UserRecord } from '../user/user.service.js';
import type { BugChangeEvent } from '../bug/bug-events.js';

/** Why a user gets the mail (the X-Tracker-Reason header, Bugzilla's X-Bugzilla-Reason values). */
export type MailReason = 'Reporter' | 'AssignedTo' | 'QAcontact' | 'CC' | 'None';

export interface MailRecipient {
  user: UserRecord;
  /** In Bugzilla's order of relations (assignee, QA contact, reporter, CC); 'None' only for a removed participant whose former role is unknown. */
  reasons: MailReason[];
}

/** Every user id the recipient rules need loaded (participants, former participants and the changer). */
export function involvedUserIds(event: BugChangeEvent): number[] {
  const p = event.participants;
  const ids = [p.reporterId, p.assigneeId, p.qaContactId, ...p.ccIds, ...p.formerIds, event.changerId];
  return [...new Set(ids.filter((id): id is number => typeof id === 'number' && id > 0))];
}

/** The role a removed participant had, read from the change itself (the removed login of assigned_to, qa_contact, cc). */
function formerReasons(event: BugChangeEvent, user: UserRecord): MailReason[] {
  const login = user.login.toLowerCase();
  const removedLogins = (field: string) =>
    event.changes
      .filter((c) => c.field === field)
      .flatMap((c) => c.removed.split(','))
      .map((l) => l.trim().toLowerCase());
  const reasons: MailReason[] = [];
  if (removedLogins('assigned_to').includes(login)) reasons.push('AssignedTo');
  if (removedLogins('qa_contact').includes(login)) reasons.push('QAcontact');
  if (removedLogins('cc').includes(login)) reasons.push('CC');
  return reasons.length ? reasons : ['None'];
}

/**
 * The recipients of one event, each once with every reason that applies. Left out: the changer (Bugzilla's
 * default "I don't want bugmail for my own changes"), users with bug mail turned off (`email_enabled`),
 * disabled accounts (a non-empty `login_denied_text`, Bugzilla sends them nothing), and unknown ids.
 */
export function bugMailRecipients(event: BugChangeEvent, users: ReadonlyMap<number, UserRecord>): MailRecipient[] {
  const p = event.participants;
  const reasonsById = new Map<number, MailReason[]>();
  const add = (id: number | null, reason: MailReason) => {
    if (!id) return;
    const reasons = reasonsById.get(id) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    reasonsById.set(id, reasons);
  };
  add(p.assigneeId, 'AssignedTo');
  add(p.qaContactId, 'QAcontact');
  add(p.reporterId, 'Reporter');
  for (const id of p.ccIds) add(id, 'CC');

  const recipients: MailRecipient[] = [];
  const mailable = (user: UserRecord | undefined): user is UserRecord =>
    !!user && user.id !== event.changerId && user.emailEnabled && user.loginDeniedText === '';
  for (const [id, reasons] of reasonsById) {
    const user = users.get(id);
    if (mailable(user)) recipients.push({ user, reasons });
  }
  for (const id of new Set(p.formerIds)) {
    if (reasonsById.has(id)) continue; // still involved: already listed under the current role
    const user = users.get(id);
    if (mailable(user)) recipients.push({ user, reasons: formerReasons(event, user) });
  }
  return recipients;
}
