import os from 'node:os';
import type { UserRecord } from '../user/user.service.js';
import type { KnownBugChangeEvent } from '../bug/bug-events.js';
import { changeTable, composeBugMail, fromAddress, wrapCell, type ComposeContext, type RecipientView } from './bug-mail.composer.js';

const user = (id: number, login: string, realName = ''): UserRecord => ({
  id, login, email: login, realName, cryptpassword: null, loginDeniedText: '', emailEnabled: true,
});

const changer = user(1, 'changer@example.com', 'Chan Ger');
const context: ComposeContext = { changer, urlbase: 'https://tracker.example.com/', mailfrom: 'tracker-daemon@example.com', emailsuffix: '' };
const recipient = (over: Partial<RecipientView> = {}): RecipientView => ({
  user: user(3, 'assignee@example.com'), reasons: ['AssignedTo'], isInsider: false, isTimeTracker: false, ...over,
});

const change = (over: Partial<KnownBugChangeEvent> = {}): KnownBugChangeEvent => ({
  bugId: 42,
  summary: 'Crash on start',
  product: 'TestProduct',
  component: 'TestComponent',
  changerId: 1,
  action: 'modify',
  productId: 1,
  componentId: 1,
  settingsMark: undefined,
  state: { classification: 'Unclassified', version: 'unspecified', keywords: [], severity: 'normal', priority: '---', status: 'ASSIGNED', resolution: '', targetMilestone: '---' },
  changes: [{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }],
  participants: { reporterId: 2, assigneeId: 3, qaContactId: null, ccIds: [], formerIds: [] },
  at: '2024-05-01 10:00:00',
  canSee: async (ids) => new Set(ids),
  ...over,
});

describe('bug mail composition', () => {
  it('subject is "[Bug <id>] <summary>" for a change and adds "New:" for a new bug', () => {
    expect(composeBugMail(change(), recipient(), context)!.subject).toBe('[Bug 42] Crash on start');
    expect(composeBugMail(change({ action: 'create', changes: [] }), recipient(), context)!.subject).toBe('[Bug 42] New: Crash on start');
  });

  it('clips the subject to the 255 characters the outbox holds', () => {
    const mail = composeBugMail(change({ summary: 'x'.repeat(255) }), recipient(), context)!;
    expect(mail.subject).toHaveLength(255);
    expect(mail.subject.startsWith('[Bug 42] xxx')).toBe(true);
  });

  it('addresses the user email plus the emailsuffix parameter, from the mailfrom parameter', () => {
    const mail = composeBugMail(change(), recipient(), { ...context, emailsuffix: '.test' })!;
    expect(mail.to).toBe('assignee@example.com.test');
    expect(mail.headers.From).toBe('tracker-daemon@example.com');
  });

  it('qualifies a bare mailfrom (Bugzilla\'s default bugzilla-daemon) with the urlbase host, else the host name, as a local MTA would', () => {
    expect(fromAddress('bugzilla-daemon', 'https://tracker.example.com/')).toBe('bugzilla-daemon@tracker.example.com');
    expect(fromAddress('bugzilla-daemon', '')).toBe(`bugzilla-daemon@${os.hostname()}`);
    expect(fromAddress('Tracker <bugs@example.com>', 'https://tracker.example.com/')).toBe('Tracker <bugs@example.com>');
  });

  it('body: the bug URL, who changed it, the What|Removed|Added table, the comment and the reasons', () => {
    const mail = composeBugMail(
      change({
        changes: [
          { field: 'status', removed: 'NEW', added: 'ASSIGNED' },
          { field: 'cf_colour', removed: '', added: 'red' },
        ],
        comment: { id: 1, text: 'Taking it.', isPrivate: false },
      }),
      recipient({ reasons: ['AssignedTo', 'CC'] }),
      { ...context, customFieldLabels: new Map([['cf_colour', 'Colour']]) },
    )!;
    expect(mail.body).toBe(
      [
        'https://tracker.example.com/show_bug.cgi?id=42',
        '',
        'Chan Ger <changer@example.com> changed:',
        '',
        '           What    |Removed                     |Added',
        '-'.repeat(76),
        '             Status|NEW                         |ASSIGNED',
        '             Colour|                            |red',
        '',
        '--- Comment from Chan Ger <changer@example.com> ---',
        'Taking it.',
        '',
        '-- ',
        'You are receiving this mail because:',
        'You are the assignee for the bug.',
        'You are on the CC list for the bug.',
        '',
      ].join('\n'),
    );
  });

  it('headers: those of Bugzilla 5.0 in its order, each also as X-Tracker-*, and threading on the new-bug mail', () => {
    const assignee = user(3, 'assignee@example.com');
    const mail = composeBugMail(
      change({ state: { classification: 'Unclassified', version: '1.0', keywords: ['regression', 'Perf'], severity: 'major', priority: 'P1', status: 'ASSIGNED', resolution: '', targetMilestone: 'M2' } }),
      recipient({ reasons: ['AssignedTo', 'Reporter'] }),
      { ...context, assignee },
    )!;
    const about = {
      Reason: 'AssignedTo Reporter',
      Type: 'changed',
      'Watch-Reason': 'None',
      Product: 'TestProduct',
      Component: 'TestComponent',
      Version: '1.0',
      Keywords: 'Perf, regression',
      Severity: 'major',
      Who: 'changer@example.com',
      Status: 'ASSIGNED',
      Resolution: '',
      Priority: 'P1',
      'Assigned-To': 'assignee@example.com',
      'Changed-Fields': 'status',
      URL: 'https://tracker.example.com/',
    };
    expect(mail.headers).toEqual({
      From: 'tracker-daemon@example.com',
      'In-Reply-To': '<bug-42-3@tracker.example.com>',
      References: '<bug-42-3@tracker.example.com>',
      ...Object.fromEntries(Object.entries(about).flatMap(([name, value]) => [[`X-Tracker-${name}`, value], [`X-Bugzilla-${name}`, value]])),
    });
    expect(Object.keys(mail.headers).filter((h) => h.startsWith('X-Bugzilla-'))).toEqual(Object.keys(about).map((h) => `X-Bugzilla-${h}`));
    const created = composeBugMail(change({ action: 'create' }), recipient(), context)!;
    expect(created.headers['Message-ID']).toBe('<bug-42-3@tracker.example.com>');
    expect(created.headers['X-Tracker-Type']).toBe('new');
  });

  it('classification, QA contact and target milestone headers only when their parameters are on, as 5.0 sends them', () => {
    const off = composeBugMail(change(), recipient(), context)!;
    expect(Object.keys(off.headers).filter((h) => /Classification|QA-Contact|Target-Milestone/.test(h))).toEqual([]);
    const qa = user(5, 'qa@example.com');
    const on = composeBugMail(change(), recipient(), { ...context, qaContact: qa, shows: { classification: true, qaContact: true, targetMilestone: true } })!;
    expect(on.headers['X-Bugzilla-Classification']).toBe('Unclassified');
    expect(on.headers['X-Bugzilla-QA-Contact']).toBe('qa@example.com');
    expect(on.headers['X-Bugzilla-Target-Milestone']).toBe('---');
  });

  it('names BMO\'s bug fields (bmo_bug_fields) in the change table by their labels, as BMO\'s mail does', () => {
    const mail = composeBugMail(change({ changes: [
      { field: 'type', removed: 'defect', added: 'task' }, { field: 'regressed_by', removed: '', added: '7' }, { field: 'regressions', removed: '', added: '9' },
    ] }), recipient(), context)!;
    expect(mail.body).toContain(changeTable([
      { label: 'Type', removed: 'defect', added: 'task' }, { label: 'Regressed by', removed: '', added: '7' }, { label: 'Regressions', removed: '', added: '9' },
    ]));
  });

  it('a new bug lists its fields and its description', () => {
    const mail = composeBugMail(
      change({
        action: 'create',
        changes: [
          { field: 'summary', removed: '', added: 'Crash on start' },
          { field: 'status', removed: '', added: 'NEW' },
          { field: 'assigned_to', removed: '', added: 'assignee@example.com' },
          { field: 'qa_contact', removed: '', added: '' },
        ],
        comment: { id: 1, text: 'It crashes.', isPrivate: false },
      }),
      recipient(),
      { ...context, urlbase: '' },
    )!;
    expect(mail.body).toBe(
      [
        '            Bug ID: 42',
        '           Summary: Crash on start',
        '           Product: TestProduct',
        '         Component: TestComponent',
        '            Status: NEW',
        '          Assignee: assignee@example.com',
        '',
        'It crashes.',
        '',
        '-- ',
        'You are receiving this mail because:',
        'You are the assignee for the bug.',
        '',
      ].join('\n'),
    );
    expect(mail.headers['X-Tracker-URL']).toBeUndefined();
    expect(mail.headers['Message-ID']).toBe('<bug-42-3@tracker>');
  });

  it('a private comment reaches insiders only, marked private', () => {
    const event = change({ comment: { id: 1, text: 'secret', isPrivate: true } });
    expect(composeBugMail(event, recipient(), context)!.body).not.toContain('secret');
    const insider = composeBugMail(event, recipient({ isInsider: true }), context)!;
    expect(insider.body).toContain('--- Comment from Chan Ger <changer@example.com> (private) ---\nsecret');
  });

  it('a change that is only a private comment sends nothing to a non-insider', () => {
    const event = change({ changes: [], comment: { id: 1, text: 'secret', isPrivate: true } });
    expect(composeBugMail(event, recipient(), context)).toBeNull();
    expect(composeBugMail(event, recipient({ isInsider: true }), context)).not.toBeNull();
  });

  it('time-tracking fields reach time trackers only; nothing else left means no mail', () => {
    const event = change({ changes: [{ field: 'remaining_time', removed: '5.00', added: '3.00' }] });
    expect(composeBugMail(event, recipient(), context)).toBeNull();
    const tracker = composeBugMail(event, recipient({ isTimeTracker: true }), context)!;
    expect(tracker.body).toContain('    Remaining Hours|5.00                        |3.00');
  });

  it('wraps long values inside their column', () => {
    expect(wrapCell('a@example.com, b@example.com, c@example.com', 28)).toEqual(['a@example.com,', 'b@example.com, c@example.com']);
    expect(wrapCell('x'.repeat(30), 28)).toEqual(['x'.repeat(28), 'xx']);
    expect(wrapCell('', 28)).toEqual(['']);
    expect(changeTable([{ label: 'CC', removed: '', added: 'first@example.com second@example.com' }]).split('\n').slice(2)).toEqual([
      '                 CC|                            |first@example.com',
      '                   |                            |second@example.com',
    ]);
  });
});
