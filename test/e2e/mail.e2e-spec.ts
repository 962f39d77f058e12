import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Like } from 'typeorm';
import { ADMIN_API_KEY, countQueries, startTestApp, type TestApp } from '../support/test-app.js';
import { BugMailService } from '../../src/mail/bug-mail.service.js';
import { MAIL_POLL_INTERVAL_MS, MailDeliveryService } from '../../src/mail/mail-delivery.service.js';
import { MailQueueService } from '../../src/mail/mail-queue.service.js';
import type { BugChangeEvent, KnownBugChangeEvent } from '../../src/bug/bug-events.js';
import { toDbDateTime } from '../../src/common/time/datetime.js';
import { QueuedMail } from '../../src/mail/entities/queued-mail.entity.js';
import { User } from '../../src/user/entities/user.entity.js';
import { Group } from '../../src/group/entities/group.entity.js';
import { Membership } from '../../src/group/entities/membership.entity.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { BugGroup } from '../../src/bug/entities/bug-group.entity.js';

/** Tests that boot an app of their own get more than Jest's default 5 s (MariaDB migrations take a moment). */
const APP_TEST_TIMEOUT_MS = 30_000;

/** A real SMTP listener on 127.0.0.1 that keeps every message it accepts. */
class SmtpListener {
  readonly received: Array<{ to: string[]; from: string; raw: string }> = [];
  private server: SMTPServer | undefined;
  port = 0;

  async start(port = 0): Promise<void> {
    this.server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  to(address: string) {
    return this.received.filter((m) => m.to.includes(address));
  }
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls `probe` until it answers something truthy (the answer is returned) or the time is up. */
async function waitFor<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 4000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `name: value` is a header line of the raw message. Names compare case-insensitively, as RFC 5322 and mail filters
 * do: nodemailer writes X-Bugzilla-URL as X-Bugzilla-Url.
 */
function expectHeader(raw: string, header: string): void {
  const [name, value] = [header.slice(0, header.indexOf(': ')), header.slice(header.indexOf(': ') + 2)];
  const lines = raw.split('\r\n\r\n')[0].split('\r\n').filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}: `));
  expect(lines.map((line) => line.slice(name.length + 2))).toContain(value);
}

type Participants = BugChangeEvent['participants'];
let nextBugId = 1000;
function changeEvent(changerId: number, participants: Partial<Participants>, over: Partial<KnownBugChangeEvent> = {}): KnownBugChangeEvent {
  return {
    bugId: nextBugId++,
    summary: 'The widget falls over',
    product: 'TestProduct',
    component: 'TestComponent',
    changerId,
    action: 'modify',
    productId: 1,
    componentId: 1,
    settingsMark: undefined,
    state: { classification: 'Unclassified', version: 'unspecified', keywords: [], severity: 'normal', priority: '---', status: 'ASSIGNED', resolution: '', targetMilestone: '---' },
    changes: [{ field: 'status', removed: 'NEW', added: 'ASSIGNED' }],
    participants: { reporterId: 0, assigneeId: 0, qaContactId: null, ccIds: [], formerIds: [], ...participants },
    at: toDbDateTime(new Date()),
    canSee: async (ids) => new Set(ids),
    ...over,
  };
}

describe('bug mail over SMTP (TRACKER_MAIL_URL=smtp://…)', () => {
  const smtp = new SmtpListener();
  let t: TestApp;
  let mailer: BugMailService;
  let users: Record<'changer' | 'reporter' | 'assignee' | 'quiet' | 'disabled' | 'insider', { id: number; login: string; apiKey: string }>;
  const mailsAbout = (bugId: number, to: string) => smtp.to(to).filter((m) => m.raw.includes(`Subject: [Bug ${bugId}]`));
  const apiUser = async (login: string) => Object.values(users).find((u) => u.login === login)!;

  const notify = (event: BugChangeEvent) => t.db.transaction((tx) => mailer.notify(tx, event));
  const queuedFor = (bugId: number) =>
    t.db.read.repository(QueuedMail).find({ where: { subject: Like(`[Bug ${bugId}]%`) }, order: { id: 'ASC' } });

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ TRACKER_MAIL_URL: `smtp://127.0.0.1:${smtp.port}` });
    mailer = t.app.get(BugMailService);
    await t.setParameters({ mailfrom: 'tracker-daemon@example.com', urlbase: 'https://tracker.example.com/', insidergroup: 'editusers' });
    users = {
      changer: await t.createUser('changer@example.com', { realName: 'Chan Ger' }),
      reporter: await t.createUser('reporter@example.com'),
      assignee: await t.createUser('assignee@example.com'),
      quiet: await t.createUser('quiet@example.com'),
      disabled: await t.createUser('disabled@example.com', { disabled: 'Gone fishing' }),
      insider: await t.createUser('insider@example.com', { groups: ['editusers'] }),
    };
    await t.db.transaction((tx) => tx.repository(User).update({ id: users.quiet.id }, { emailEnabled: false }));
  }, APP_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  describe('through the API (POST /rest/bug, PUT /rest/bug)', () => {
    it('filing a bug mails the assignee and CC list a "New:" mail with the description; not the reporter, not mail-off users', async () => {
      const cc = await t.createUser('api-cc@example.com');
      const res = await t.post('/bug', {
        product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Filed through the API',
        description: 'It falls over on Tuesdays.', assigned_to: 'assignee@example.com', cc: ['api-cc@example.com', 'quiet@example.com'],
      }, { key: (await apiUser('reporter@example.com')).apiKey });
      expect(res.status).toBe(200);
      const bugId: number = res.body.id;
      const [toAssignee] = await waitFor('the new-bug mail to the assignee', () => mailsAbout(bugId, 'assignee@example.com').length && mailsAbout(bugId, 'assignee@example.com'));
      expect(toAssignee.raw).toContain(`Subject: [Bug ${bugId}] New: Filed through the API`);
      expect(toAssignee.raw).toContain('It falls over on Tuesdays.');
      expect(toAssignee.raw).toContain('X-Tracker-Type: new');
      await waitFor('the new-bug mail to the CC', () => mailsAbout(bugId, cc.login).length);
      expect((await queuedFor(bugId)).map((r) => r.toAddress).sort()).toEqual(['api-cc@example.com', 'assignee@example.com']);
    });

    it('updating a bug mails the change table and the comment to everyone but the changer; a removed assignee hears of it', async () => {
      const reporterKey = (await apiUser('reporter@example.com')).apiKey;
      const created = await t.post('/bug', {
        product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Updated through the API',
        description: 'Needs an owner.', assigned_to: 'assignee@example.com',
      }, { key: reporterKey });
      const bugId: number = created.body.id;
      await waitFor('the new-bug mail', () => mailsAbout(bugId, 'assignee@example.com').length);

      const other = await t.createUser('new-owner@example.com');
      const res = await t.put(`/bug/${bugId}`, { assigned_to: other.login, comment: { body: 'Handing this over.' } }, { key: reporterKey });
      expect(res.status).toBe(200);
      const [toNewOwner] = await waitFor('the change mail to the new assignee', () => mailsAbout(bugId, other.login).length && mailsAbout(bugId, other.login));
      expect(toNewOwner.raw).toContain(`Subject: [Bug ${bugId}] Updated through the API`);
      expect(toNewOwner.raw).toMatch(/ +Assignee\|assignee@example\.com +\|new-owner@example\.com/);
      expect(toNewOwner.raw).toContain('Handing this over.');
      const [toOldOwner] = await waitFor('the change mail to the removed assignee', () => mailsAbout(bugId, 'assignee@example.com').length === 2 && mailsAbout(bugId, 'assignee@example.com').slice(1));
      expect(toOldOwner.raw).toContain('X-Tracker-Reason: AssignedTo');
      expect(toOldOwner.raw).toContain('X-Tracker-Type: changed');
      expect(mailsAbout(bugId, 'reporter@example.com')).toEqual([]);
    });

    it('the people a mail names are kept under the settings mark: a change to one through another instance is seen at once', async () => {
      const other = await startTestApp({ TRACKER_MAIL_URL: `smtp://127.0.0.1:${smtp.port}` }, { sharing: t });
      try {
        const reporterKey = (await apiUser('reporter@example.com')).apiKey;
        const watcher = await t.createUser('kept-watcher@example.com');
        const created = await t.post('/bug', {
          product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Watched', description: 'd',
          assigned_to: 'assignee@example.com', cc: [watcher.login],
        }, { key: reporterKey });
        const bugId: number = created.body.id;
        const mailsTo = async (login: string) => (await queuedFor(bugId)).filter((row) => row.toAddress === login).length;
        expect((await t.put(`/bug/${bugId}`, { comment: { body: 'first' } }, { key: reporterKey })).status).toBe(200);
        expect(await mailsTo(watcher.login)).toBe(2);
        expect((await other.put(`/user/${watcher.id}`, { email_enabled: false }, { key: ADMIN_API_KEY })).status).toBe(200);
        expect((await t.put(`/bug/${bugId}`, { comment: { body: 'second' } }, { key: reporterKey })).status).toBe(200);
        expect(await mailsTo(watcher.login)).toBe(2);
        expect(await mailsTo('assignee@example.com')).toBe(3);
      } finally {
        await other.close();
      }
    });

    it('the mails carry the X-Bugzilla-* headers of 5.0 with the bug\'s values after each change, threaded per recipient', async () => {
      expect((await t.post('/keyword', { name: 'hdr-perf', description: 'slow' }, { key: ADMIN_API_KEY })).status).toBe(200);
      expect((await t.post('/keyword', { name: 'Hdr-crash', description: 'falls over' }, { key: ADMIN_API_KEY })).status).toBe(200);
      const reporterKey = (await apiUser('reporter@example.com')).apiKey;
      const created = await t.post('/bug', {
        product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Headers for filters', severity: 'major',
        priority: 'High', description: 'Watch the headers.', assigned_to: 'assignee@example.com', keywords: ['hdr-perf', 'Hdr-crash'],
      }, { key: reporterKey });
      expect([created.status, created.body.message]).toEqual([200, undefined]);
      const bugId: number = created.body.id;
      const [filed] = await waitFor('the new-bug mail', () => mailsAbout(bugId, 'assignee@example.com').length && mailsAbout(bugId, 'assignee@example.com'));
      const thread = `<bug-${bugId}-${users.assignee.id}@tracker.example.com>`;
      for (const header of [
        'X-Bugzilla-Reason: AssignedTo', 'X-Bugzilla-Type: new', 'X-Bugzilla-Watch-Reason: None', 'X-Bugzilla-Product: TestProduct',
        'X-Bugzilla-Component: TestComponent', 'X-Bugzilla-Version: unspecified', 'X-Bugzilla-Keywords: Hdr-crash, hdr-perf',
        'X-Bugzilla-Severity: major', 'X-Bugzilla-Who: reporter@example.com', 'X-Bugzilla-Status: CONFIRMED', 'X-Bugzilla-Priority: High',
        'X-Bugzilla-Assigned-To: assignee@example.com', 'X-Bugzilla-URL: https://tracker.example.com/', `Message-ID: ${thread}`,
      ]) expectHeader(filed.raw, header);
      expect(filed.raw.toLowerCase()).not.toContain('x-bugzilla-target-milestone');

      await t.setParameters({ usetargetmilestone: '1' });
      const res = await t.put(`/bug/${bugId}`, { status: 'RESOLVED', resolution: 'FIXED', keywords: { remove: ['hdr-perf'] } }, { key: reporterKey });
      expect(res.status).toBe(200);
      const [, changed] = await waitFor('the change mail', () => mailsAbout(bugId, 'assignee@example.com').length === 2 && mailsAbout(bugId, 'assignee@example.com'));
      for (const header of [
        'X-Bugzilla-Type: changed', 'X-Bugzilla-Status: RESOLVED', 'X-Bugzilla-Resolution: FIXED', 'X-Bugzilla-Keywords: Hdr-crash',
        'X-Bugzilla-Target-Milestone: ---', 'X-Bugzilla-Changed-Fields: keywords status resolution', `In-Reply-To: ${thread}`, `References: ${thread}`,
      ]) expectHeader(changed.raw, header);

      expect((await t.post(`/bug/${bugId}/comment`, { comment: 'And a comment.' }, { key: reporterKey })).status).toBe(200);
      const [, , commented] = await waitFor('the comment mail', () => mailsAbout(bugId, 'assignee@example.com').length === 3 && mailsAbout(bugId, 'assignee@example.com'));
      for (const header of ['X-Bugzilla-Status: RESOLVED', 'X-Bugzilla-Keywords: Hdr-crash', `In-Reply-To: ${thread}`]) expectHeader(commented.raw, header);
      await t.setParameters({ usetargetmilestone: '0' });
    });

    it('nobody is mailed about a bug they cannot see: a reporter kept out by its group gets none (the visibility rule)', async () => {
      const reporterKey = (await apiUser('reporter@example.com')).apiKey;
      const created = await t.post('/bug', {
        product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Hidden from its reporter',
        description: 'Soon restricted.', assigned_to: 'assignee@example.com',
      }, { key: reporterKey });
      const bugId: number = created.body.id;
      await waitFor('the new-bug mail', () => mailsAbout(bugId, 'assignee@example.com').length);
      // Restricted to a group the reporter is not in, and the reporter no longer let in by being the reporter.
      // The changer is in the group; the assignee sees it as assignee.
      await t.db.transaction(async (tx) => {
        const { identifiers: [group] } = await tx.repository(Group).insert({ name: 'mail-secret', description: 'secret', isBugGroup: true, userRegexp: '', isActive: true });
        await tx.repository(BugGroup).insert({ bugId, groupId: group.id });
        await tx.repository(Bug).update({ id: bugId }, { isCreatorAccessible: false });
        await tx.repository(Membership).insert({ userId: users.changer.id, groupId: group.id, isBless: 0, grantType: 0 });
      });
      const changerKey = (await apiUser('changer@example.com')).apiKey;
      expect((await t.put(`/bug/${bugId}`, { comment: { body: 'Only for those who may see it.' } }, { key: changerKey })).status).toBe(200);
      await waitFor('the change mail to the assignee', () => mailsAbout(bugId, 'assignee@example.com').length === 2);
      expect((await queuedFor(bugId)).filter((r) => r.body.includes('Only for those who may see it.')).map((r) => r.toAddress)).toEqual(['assignee@example.com']);
      // Create Comment and Create Attachment read the bug's groups with their mail's reads: the same rule holds.
      expect((await t.post(`/bug/${bugId}/comment`, { comment: 'A comment for those who may see it.' }, { key: changerKey })).body.error).toBeUndefined();
      const attachment = { data: Buffer.from('x').toString('base64'), file_name: 'x.txt', summary: 'An attachment for those who may see it', content_type: 'text/plain' };
      expect((await t.post(`/bug/${bugId}/attachment`, attachment, { key: changerKey })).body.error).toBeUndefined();
      await waitFor('the comment and attachment mails to the assignee', () => mailsAbout(bugId, 'assignee@example.com').length === 4);
      expect((await queuedFor(bugId)).filter((r) => r.toAddress !== 'assignee@example.com')).toEqual([]);
      expect(mailsAbout(bugId, 'reporter@example.com')).toEqual([]);
    });
  });

  it('a change reaches the SMTP listener with the change table, From mailfrom and X-Tracker / X-Bugzilla headers', async () => {
    const event = changeEvent(users.changer.id, { reporterId: users.reporter.id, assigneeId: users.assignee.id }, {
      comment: { id: 1, text: 'Working on it now.', isPrivate: false },
    });
    await notify(event);
    const [mail] = await waitFor('the mail to the assignee', () => mailsAbout(event.bugId, 'assignee@example.com').length && mailsAbout(event.bugId, 'assignee@example.com'));
    expect(mail.from).toBe('tracker-daemon@example.com');
    expect(mail.raw).toContain(`Subject: [Bug ${event.bugId}] The widget falls over`);
    expect(mail.raw).toContain('X-Tracker-Reason: AssignedTo');
    expect(mail.raw).toContain('X-Tracker-Product: TestProduct');
    expect(mail.raw).toContain('X-Tracker-Who: changer@example.com');
    // the names existing Bugzilla users' filters match
    for (const header of ['X-Bugzilla-Reason: AssignedTo', 'X-Bugzilla-Product: TestProduct', 'X-Bugzilla-Component: TestComponent', 'X-Bugzilla-Who: changer@example.com', 'X-Bugzilla-Type: changed']) {
      expect(mail.raw).toContain(header);
    }
    expect(mail.raw).toContain(`https://tracker.example.com/show_bug.cgi?id=${event.bugId}`);
    expect(mail.raw).toContain('Chan Ger <changer@example.com> changed:');
    expect(mail.raw).toContain('             Status|NEW                         |ASSIGNED');
    expect(mail.raw).toContain('Working on it now.');
    await waitFor('the mail to the reporter', () => mailsAbout(event.bugId, 'reporter@example.com').length);
    const rows = await waitFor('both rows sent', async () => {
      const r = await queuedFor(event.bugId);
      return r.every((row) => row.sentAt) && r;
    });
    expect(rows.map((r) => r.toAddress).sort()).toEqual(['assignee@example.com', 'reporter@example.com']);
    expect(rows.every((r) => r.attempts === 0 && r.lastError === null)).toBe(true);
  });

  it('the changer gets no mail about their own change, even as reporter and CC', async () => {
    const event = changeEvent(users.changer.id, { reporterId: users.changer.id, assigneeId: users.assignee.id, ccIds: [users.changer.id] });
    await notify(event);
    const rows = await queuedFor(event.bugId);
    expect(rows.map((r) => r.toAddress)).toEqual(['assignee@example.com']);
    await waitFor('the assignee mail', () => smtp.received.some((m) => m.raw.includes(`[Bug ${event.bugId}]`)));
    expect(smtp.to('changer@example.com')).toEqual([]);
  });

  it('users with email_enabled=false and disabled accounts get none', async () => {
    const event = changeEvent(users.changer.id, { reporterId: users.quiet.id, assigneeId: users.disabled.id, ccIds: [users.reporter.id] });
    await notify(event);
    expect((await queuedFor(event.bugId)).map((r) => r.toAddress)).toEqual(['reporter@example.com']);
  });

  it('a private comment reaches the insider group only', async () => {
    const event = changeEvent(users.changer.id, { reporterId: users.reporter.id, assigneeId: users.insider.id }, {
      changes: [{ field: 'priority', removed: '---', added: 'P1' }],
      comment: { id: 1, text: 'Only for insiders.', isPrivate: true },
    });
    await notify(event);
    const rows = await queuedFor(event.bugId);
    expect(rows.find((r) => r.toAddress === 'insider@example.com')!.body).toContain('Only for insiders.');
    const outsider = rows.find((r) => r.toAddress === 'reporter@example.com')!;
    expect(outsider.body).toContain('           Priority|---                         |P1');
    expect(outsider.body).not.toContain('Only for insiders.');
  });

  it('nothing is queued or sent when the change rolls back (the outbox is in the same transaction)', async () => {
    const event = changeEvent(users.changer.id, { reporterId: users.reporter.id, assigneeId: users.assignee.id });
    await expect(
      t.db.transaction(async (tx) => {
        await mailer.notify(tx, event);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await queuedFor(event.bugId)).toEqual([]);
  });

  it('a failed delivery (listener down) stays queued with its error and backoff, and is delivered later', async () => {
    const port = smtp.port;
    await smtp.stop();
    const event = changeEvent(users.changer.id, { reporterId: users.reporter.id, assigneeId: 0 });
    const before = toDbDateTime(new Date());
    await notify(event);
    const [failed] = await waitFor('a failed attempt', async () => {
      const rows = await queuedFor(event.bugId);
      return rows.length === 1 && rows[0].attempts === 1 && rows;
    });
    expect(failed.sentAt).toBeNull();
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.nextAttemptAt > before).toBe(true);

    await smtp.start(port);
    // Let the backoff elapse (instead of waiting 10 s), then wake the worker as a poll would.
    await t.db.transaction((tx) => tx.repository(QueuedMail).update({ id: failed.id }, { nextAttemptAt: toDbDateTime(new Date(Date.now() - 1000)) }));
    t.app.get(MailDeliveryService).wake();
    await waitFor('the retried mail', () => smtp.received.some((m) => m.raw.includes(`[Bug ${event.bugId}]`)));
    const [sent] = await waitFor('the row marked sent', async () => {
      const rows = await queuedFor(event.bugId);
      return rows[0].sentAt && rows;
    });
    expect(sent).toMatchObject({ attempts: 1, lastError: null });
  });

  it('rows sent before the retention limit are purged; recent and unsent rows stay', async () => {
    const queue = t.app.get(MailQueueService);
    const daysAgo = (days: number) => toDbDateTime(new Date(Date.now() - days * 86400_000));
    const row = (subject: string, sentAt: string | null) => ({
      createdAt: daysAgo(9), toAddress: 'x@example.com', subject, body: '', headers: '{}', attempts: sentAt ? 0 : 10,
      nextAttemptAt: daysAgo(9), lastError: sentAt ? null : 'gave up', sentAt,
    });
    await t.db.transaction((tx) => tx.repository(QueuedMail).insert([row('purge-old', daysAgo(8)), row('purge-recent', daysAgo(1)), row('purge-unsent', null)]));
    expect(await queue.purgeSent(new Date(Date.now() - 7 * 86400_000))).toBe(1);
    const left = await t.db.read.repository(QueuedMail).find({ where: { subject: Like('purge-%') }, order: { subject: 'ASC' } });
    expect(left.map((r) => r.subject)).toEqual(['purge-recent', 'purge-unsent']);
  });

  it('two workers never claim one row twice', async () => {
    const delivery = t.app.get(MailDeliveryService);
    await delivery.onModuleDestroy(); // stop this instance's worker so the test's claims are the only ones
    const event = changeEvent(users.changer.id, { reporterId: users.reporter.id, assigneeId: users.assignee.id, ccIds: [users.insider.id] });
    await notify(event);
    const queue = t.app.get(MailQueueService);
    const [a, b] = await Promise.all([queue.claimDue(new Date(), 50), queue.claimDue(new Date(), 50)]);
    const ids = [...a, ...b].map((m) => m.id).sort();
    expect(ids).toEqual((await queuedFor(event.bugId)).map((r) => r.id).sort());
    expect(new Set(ids).size).toBe(ids.length);
    // A claimed row is leased: nobody can claim it again before the lease ends.
    expect(await queue.claimDue(new Date(), 50)).toEqual([]);
  });
});

describe('bug mail as .eml files (TRACKER_MAIL_URL unset) and dropped (off)', () => {
  /** A second app of its own, with the mail setting under test and a data directory of its own. */
  async function withApp(mailUrl: string, test: (t: TestApp, dataDir: string) => Promise<void>): Promise<void> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-mail-'));
    const t = await startTestApp({ TRACKER_MAIL_URL: mailUrl, TRACKER_DATA_DIR: dataDir });
    try {
      await test(t, dataDir);
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('writes each message as an .eml file under <dataDir>/mail/', () =>
    withApp('', async (t, dataDir) => {
      const reporter = await t.createUser('eml-reporter@example.com');
      const changer = await t.createUser('eml-changer@example.com');
      const event = changeEvent(changer.id, { reporterId: reporter.id, assigneeId: changer.id }, { action: 'create', changes: [] });
      await t.db.transaction((tx) => t.app.get(BugMailService).notify(tx, event));
      const dir = path.join(dataDir, 'mail');
      const emlFiles = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : []);
      const [file] = await waitFor('an .eml file', () => emlFiles().length === 1 && emlFiles());
      expect(file).toMatch(/^\d{8}-\d{6}-\d+\.eml$/);
      const raw = fs.readFileSync(path.join(dir, file), 'utf8');
      expect(raw).toContain('To: eml-reporter@example.com');
      expect(raw).toContain(`Subject: [Bug ${event.bugId}] New: The widget falls over`);
      expect(raw).toContain(`Message-ID: <bug-${event.bugId}-${reporter.id}@tracker>`);
      expect(raw).toContain('X-Tracker-Reason: Reporter');
    }), APP_TEST_TIMEOUT_MS);

  it('off: rows are written as sent, nothing is written to disk, and no worker polls the database', () =>
    withApp('off', async (t, dataDir) => {
      const reporter = await t.createUser('off-reporter@example.com');
      const changer = await t.createUser('off-changer@example.com');
      const event = changeEvent(changer.id, { reporterId: reporter.id, assigneeId: changer.id });
      await t.db.transaction((tx) => t.app.get(BugMailService).notify(tx, event));
      const [row] = await t.db.read.repository(QueuedMail).find();
      expect(row).toMatchObject({ sentAt: event.at, attempts: 0 });
      // Idle for longer than the SMTP worker's poll interval: not one statement (query-counting tests rely on it).
      expect(await countQueries(() => new Promise((resolve) => setTimeout(resolve, MAIL_POLL_INTERVAL_MS * 2.5)))).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'mail'))).toBe(false);
    }), APP_TEST_TIMEOUT_MS);

  it('off: rows an earlier configuration left pending are dropped (marked sent); rows given up on stay', () =>
    withApp('off', async (t) => {
      const at = toDbDateTime(new Date());
      const row = (subject: string, attempts: number) => ({
        createdAt: at, toAddress: 'x@example.com', subject, body: '', headers: '{}', attempts, nextAttemptAt: at, lastError: null, sentAt: null,
      });
      await t.db.transaction((tx) => tx.repository(QueuedMail).insert([row('pending', 2), row('given up', 10)]));
      expect(await t.app.get(MailQueueService).dropPending(new Date())).toBe(1);
      const rows = await t.db.read.repository(QueuedMail).find({ order: { id: 'ASC' } });
      expect(rows.map((r) => [r.subject, r.sentAt !== null])).toEqual([['pending', true], ['given up', false]]);
    }), APP_TEST_TIMEOUT_MS);
});
