import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { Caller } from '../common/caller.js';
import { ParametersService, type Parameters } from '../params/parameters.service.js';
import { UserService, type UserRecord } from '../user/user.service.js';
import { GroupService } from '../group/group.service.js';
import { FieldService } from '../field/field.service.js';
import { knownBug, TIME_TRACKING_FIELDS, type BugChangeEvent, type BugChangeListener } from '../bug/bug-events.js';
import { bugMailRecipients, involvedUserIds, type MailRecipient } from './bug-mail.recipients.js';
import { composeBugMail, type ComposedMail, type RecipientView } from './bug-mail.composer.js';
import { MailService } from './mail.service.js';
import { composeFlagRequestMail, flagRequestsOf } from './flag-request.mail.js';

/**
 * Bug mail (Bugzilla::BugMail): for each bug created or changed, one message per recipient, put in the outbox in
 * the change's own transaction. Nothing is sent here: the delivery worker sends after commit.
 */
@Injectable()
export class BugMailService implements BugChangeListener {
  constructor(
    private readonly users: UserService,
    private readonly groups: GroupService,
    private readonly fields: FieldService,
    private readonly parameters: ParametersService,
    private readonly mail: MailService,
  ) {}

  async notify(tx: Sql, event: BugChangeEvent): Promise<void> {
    const mails = [...(await this.compose(tx, event)), ...(await this.flagRequests(tx, event))];
    await this.mail.send(tx, mails, event.at);
  }

  /** The messages of one event, one per recipient who has something to see (read in the caller's transaction). */
  async compose(tx: Sql, event: BugChangeEvent): Promise<ComposedMail[]> {
    const [users, parameters] = await Promise.all([this.users.findByIdsAt(event.settingsMark, involvedUserIds(event), tx), this.parameters.at(event.settingsMark, tx)]);
    const candidates = bugMailRecipients(event, users);
    if (!candidates.length) return [];
    const seeing = await event.canSee(candidates.map((r) => r.user.id));
    const recipients = candidates.filter((r) => seeing.has(r.user.id));
    if (!recipients.length) return [];
    const known = await knownBug(event);
    const [views, customFieldLabels] = await Promise.all([
      this.recipientViews(tx, event, recipients, parameters),
      this.customFieldLabels(tx, event),
    ]);
    const { qaContactId } = event.participants;
    const context = {
      changer: users.get(event.changerId),
      assignee: users.get(event.participants.assigneeId),
      qaContact: qaContactId === null ? undefined : users.get(qaContactId),
      shows: {
        classification: parameters.get('useclassification') === '1',
        qaContact: parameters.get('useqacontact') === '1',
        targetMilestone: parameters.get('usetargetmilestone') === '1',
      },
      urlbase: parameters.get('urlbase'),
      mailfrom: parameters.get('mailfrom'),
      emailsuffix: parameters.get('emailsuffix'),
      customFieldLabels,
    };
    return views.map((view) => composeBugMail(known, view, context)).filter((mail): mail is ComposedMail => mail !== null);
  }

  /**
   * One request mail per person the change asks for a flag (Flag::notify): not to the changer, nor to accounts that
   * take no mail, nor to someone who cannot see the bug.
   */
  async flagRequests(tx: Sql, event: BugChangeEvent): Promise<ComposedMail[]> {
    const requests = flagRequestsOf(event);
    if (!requests.length) return [];
    const [requestees, changer, parameters] = await Promise.all([
      this.users.findByLogins(requests.map((r) => r.requestee), tx),
      this.users.findByIdsAt(event.settingsMark, [event.changerId], tx),
      this.parameters.at(event.settingsMark, tx),
    ]);
    const asked = requests.flatMap((request) => {
      const user = requestees.get(request.requestee.toLowerCase());
      return user && user.id !== event.changerId && user.emailEnabled && user.loginDeniedText === '' ? [{ request, user }] : [];
    });
    if (!asked.length) return [];
    const seeing = await event.canSee(asked.map((a) => a.user.id));
    const context = {
      changer: changer.get(event.changerId), urlbase: parameters.get('urlbase'), mailfrom: parameters.get('mailfrom'), emailsuffix: parameters.get('emailsuffix'),
    };
    const seen = asked.filter((a) => seeing.has(a.user.id));
    if (!seen.length) return [];
    const known = await knownBug(event);
    return seen.map((a) => composeFlagRequestMail(known, a.request, a.user, context));
  }

  /**
   * What each recipient may see. Group memberships (for the insider and time-tracking groups) are looked up only
   * when the event holds something they hide: a private comment, or a time-tracking field.
   */
  private async recipientViews(tx: Sql, event: BugChangeEvent, recipients: MailRecipient[], parameters: Parameters): Promise<RecipientView[]> {
    const needsInsider = !!event.comment?.isPrivate;
    const needsTimeTracker = event.changes.some((c) => TIME_TRACKING_FIELDS.has(c.field));
    if (!needsInsider && !needsTimeTracker) {
      return recipients.map((r) => ({ ...r, isInsider: false, isTimeTracker: false }));
    }
    const memberships = await this.groups.membershipsOfManyAt(event.settingsMark, recipients.map((r) => r.user.id), tx);
    return recipients.map((r) => {
      const caller = new Caller(toCallerUser(r.user), memberships.get(r.user.id)!, parameters);
      return { ...r, isInsider: caller.isInsider, isTimeTracker: caller.isTimeTracker };
    });
  }

  /** Descriptions of the custom fields the change touches (standard fields have fixed labels in the composer). */
  private async customFieldLabels(tx: Sql, event: BugChangeEvent): Promise<Map<string, string>> {
    const names = [...new Set(event.changes.map((c) => c.field).filter((f) => f.startsWith('cf_')))];
    if (!names.length) return new Map();
    const fields = await this.fields.customFields(tx);
    return new Map(fields.filter((f) => names.includes(f.name)).map((f) => [f.name, f.description]));
  }
}

function toCallerUser(user: UserRecord) {
  return { id: user.id, login: user.login, realName: user.realName, email: user.email };
}
