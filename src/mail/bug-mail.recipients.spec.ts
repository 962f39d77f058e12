import type { UserRecord } from '../user/user.service.js';
import type { BugChangeEvent } from '../bug/bug-events.js';
import { bugMailRecipients, involvedUserIds } from './bug-mail.recipients.js';

const user = (id: number, login: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  id, login, email: login, realName: '', cryptpassword: null, loginDeniedText: '', emailEnabled: true, ...extra,
});

const event = (over: Partial<BugChangeEvent> = {}, participants: Partial<BugChangeEvent['participants']> = {}): BugChangeEvent => ({
  bugId: 7,
  summary: 'It breaks',
  product: 'TestProduct',
  component: 'TestComponent',
  changerId: 1,
  action: 'modify',
  productId: 1,
  componentId: 1,
  settingsMark: undefined,
  state: { classification: 'Unclassified', version: 'unspecified', keywords: [], severity: 'normal', priority: '---', status: 'ASSIGNED', resolution: '', targetMilestone: '---' },
  changes: [],
  at: '2024-05-01 10:00:00',
  canSee: async (ids) => new Set(ids),
  ...over,
  participants: { reporterId: 2, assigneeId: 3, qaContactId: null, ccIds: [], formerIds: [], ...participants },
});

const users = (...list: UserRecord[]) => new Map(list.map((u) => [u.id, u]));
const summary = (recipients: ReturnType<typeof bugMailRecipients>) => recipients.map((r) => [r.user.id, r.reasons]);

describe('bug mail recipients', () => {
  const changer = user(1, 'changer@example.com');
  const reporter = user(2, 'reporter@example.com');
  const assignee = user(3, 'assignee@example.com');
  const qa = user(4, 'qa@example.com');
  const cc = user(5, 'cc@example.com');

  it('mails the assignee, QA contact, reporter and CC list, each with its reason', () => {
    const result = bugMailRecipients(event({}, { qaContactId: 4, ccIds: [5] }), users(changer, reporter, assignee, qa, cc));
    expect(summary(result)).toEqual([[3, ['AssignedTo']], [4, ['QAcontact']], [2, ['Reporter']], [5, ['CC']]]);
  });

  it('mails a user with several roles once, with every reason in Bugzilla order', () => {
    const result = bugMailRecipients(event({}, { reporterId: 3, ccIds: [3] }), users(changer, assignee));
    expect(summary(result)).toEqual([[3, ['AssignedTo', 'Reporter', 'CC']]]);
  });

  it('never mails the changer about their own change, whatever their roles', () => {
    const result = bugMailRecipients(event({ changerId: 2 }, { ccIds: [2] }), users(reporter, assignee));
    expect(summary(result)).toEqual([[3, ['AssignedTo']]]);
  });

  it('leaves out users with bug mail turned off (email_enabled false)', () => {
    const quiet = user(5, 'quiet@example.com', { emailEnabled: false });
    const result = bugMailRecipients(event({}, { ccIds: [5] }), users(changer, reporter, assignee, quiet));
    expect(result.map((r) => r.user.id)).toEqual([3, 2]);
  });

  it('leaves out disabled accounts (login_denied_text set)', () => {
    const disabled = user(3, 'gone@example.com', { loginDeniedText: 'Left the company' });
    const result = bugMailRecipients(event(), users(changer, reporter, disabled));
    expect(result.map((r) => r.user.id)).toEqual([2]);
  });

  it('mails removed participants with the role the change took from them', () => {
    const oldAssignee = user(6, 'old@example.com');
    const removedCc = user(8, 'gone-cc@example.com');
    const formerUnknown = user(9, 'someone@example.com');
    const changes = [
      { field: 'assigned_to', removed: 'Old@example.com', added: 'assignee@example.com' },
      { field: 'cc', removed: 'x@example.com, gone-cc@example.com', added: '' },
    ];
    const result = bugMailRecipients(event({ changes }, { formerIds: [6, 8, 9] }), users(changer, reporter, assignee, oldAssignee, removedCc, formerUnknown));
    expect(summary(result)).toEqual([[3, ['AssignedTo']], [2, ['Reporter']], [6, ['AssignedTo']], [8, ['CC']], [9, ['None']]]);
  });

  it('applies the same exclusions to removed participants (changer, mail off)', () => {
    const quiet = user(6, 'old@example.com', { emailEnabled: false });
    const result = bugMailRecipients(event({}, { formerIds: [1, 6] }), users(changer, reporter, assignee, quiet));
    expect(result.map((r) => r.user.id)).toEqual([3, 2]);
  });

  it('skips ids it could not load', () => {
    expect(bugMailRecipients(event({}, { ccIds: [99] }), users(reporter, assignee)).map((r) => r.user.id)).toEqual([3, 2]);
  });

  it('lists every involved user id once, for one query', () => {
    expect(involvedUserIds(event({ changerId: 2 }, { qaContactId: 4, ccIds: [5, 3], formerIds: [6, 5] }))).toEqual([2, 3, 4, 5, 6]);
  });
});
