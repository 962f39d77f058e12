import { createHmac } from 'node:crypto';
import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, ok } from '../support/catalogue-fixtures.js';
import { changeGroups, clearMailQueue, fileBug, restrictBugs } from './bug-fixtures.js';
import { attach } from './attachment-fixtures.js';
import { eventually, WebhookReceiver, type ReceivedHook } from '../support/webhook-receiver.js';
import { QueuedMail } from '../../src/mail/entities/queued-mail.entity.js';
import { WebhookDeliveryService } from '../../src/webhook/webhook-delivery.service.js';

/**
 * Webhook deliveries (issue 15, beyond Bugzilla 5.0): queued in each change's transaction, delivered signed, once and
 * in order per bug by the workers of every instance, retried with backoff, disabled after consecutive failures (the
 * owner is mailed, the state readable), drained in order when re-enabled, and never showing their owner anything the
 * API would not. In-process only: the instance must reach the local receiver (TRACKER_WEBHOOK_ALLOW_PRIVATE=1) and
 * retry fast. Management over REST: webhook.e2e-spec.ts.
 */
const ENV = { TRACKER_WEBHOOK_ALLOW_PRIVATE: '1', TRACKER_WEBHOOK_RETRY_MS: '40', TRACKER_WEBHOOK_MAX_FAILURES: '3', TRACKER_WEBHOOK_TIMEOUT_MS: '2000' };
const ALL_EVENTS = ['create', 'modify', 'comment', 'attachment'];

const verifies = (hook: ReceivedHook, secret: string) =>
  hook.headers['x-tracker-signature'] === `sha256=${createHmac('sha256', secret).update(hook.raw).digest('hex')}`;

describe('webhook deliveries', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let owner: { id: number; login: string; apiKey: string };
  let insider: { id: number; login: string; apiKey: string };

  beforeAll(async () => {
    t = await startTestApp(ENV);
    receiver = new WebhookReceiver();
    await receiver.start();
    await createBugGroup(t, 'insiders');
    await t.setParameters({ insidergroup: 'insiders' });
    owner = await t.createUser('hook-owner@example.com', { realName: 'Hook Owner' });
    insider = await t.createUser('hook-insider@example.com', { groups: ['insiders'] });
    await changeGroups(t, 1, { add: ['insiders'] });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function createHook(fields: Record<string, unknown> = {}, key = owner.apiKey): Promise<{ id: number; secret: string }> {
    return ok(await t.post('/webhook', { name: 'sync', url: receiver.url, events: ALL_EVENTS, ...fields }, { key }));
  }
  const state = async (id: number, key = owner.apiKey) => ok(await t.get(`/webhook/${id}`, { key })).webhooks[0];
  const deliveries = async (id: number, key = owner.apiKey) => ok(await t.get(`/webhook/${id}/deliveries`, { key })).deliveries;
  /** Waits until the webhook has nothing pending (delivered or skipped). */
  const drained = (id: number, key = owner.apiKey) => eventually(`webhook ${id} to drain`, async () => (await state(id, key)).state.queue_depth === 0);

  describe('delivery', () => {
    it('delivers every event signed, once, in order, with the payload of the deployment format', async () => {
      const hook = await createHook();
      const bugId = await fileBug(t, { summary: 'Webhook bug', description: 'first words' });
      ok(await t.put(`/bug/${bugId}`, { status: 'IN_PROGRESS', cc: { add: [owner.login] }, comment: { body: 'working on it' } }, { key: ADMIN_API_KEY }));
      ok(await t.post(`/bug/${bugId}/comment`, { comment: 'a plain comment' }, { key: ADMIN_API_KEY }));
      const attachmentId = await attach(t, bugId, 'patch text', { summary: 'The fix' });
      await eventually('four deliveries', () => receiver.of(hook.id).length >= 4);
      await drained(hook.id);

      const got = receiver.of(hook.id);
      expect(got).toHaveLength(4);
      expect(got.map((r) => r.body.event.routing_key)).toEqual(['bug.create', 'bug.modify:status,cc', 'comment.create', 'attachment.create']);
      expect(got.map((r) => r.body.event.target)).toEqual(['bug', 'bug', 'comment', 'attachment']);
      expect(got.every((r) => verifies(r, hook.secret))).toBe(true);
      expect(new Set(got.map((r) => r.headers['x-tracker-delivery'])).size).toBe(4);

      const [created, modified, commented, attached] = got.map((r) => r.body);
      expect(created).toMatchObject({ webhook_id: hook.id, webhook_name: 'sync', event: { action: 'create', bug_id: bugId, user: { id: 1, login: 'admin@example.com' } } });
      expect(created.bug).toMatchObject({ id: bugId, summary: 'Webhook bug', product: 'TestProduct', comment: { count: 0, text: 'first words' } });
      expect(modified.event.changes).toEqual(expect.arrayContaining([
        expect.objectContaining({ field: 'status', added: 'IN_PROGRESS' }),
        { field: 'cc', removed: '', added: owner.login },
      ]));
      expect(modified.event.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(modified.bug).toMatchObject({ status: 'IN_PROGRESS', comment: { text: 'working on it' } });
      expect(commented.bug.comment).toMatchObject({ text: 'a plain comment', is_private: false });
      expect(attached.bug.attachment).toMatchObject({ id: attachmentId, summary: 'The fix', is_private: false });
      expect(attached.bug.attachment.data).toBeUndefined();

      const listed = await deliveries(hook.id);
      expect(listed.map((d: any) => [d.action, d.state, d.attempts, d.last_status])).toEqual([
        ['attachment', 'delivered', 1, 200], ['comment', 'delivered', 1, 200], ['modify', 'delivered', 1, 200], ['create', 'delivered', 1, 200],
      ]);
      expect((await state(hook.id)).state).toMatchObject({ consecutive_failures: 0, last_success_time: expect.any(String), queue_depth: 0 });
      ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
    });

    it('two instances on one database deliver each event exactly once, and one bug in order', async () => {
      const other = await startTestApp(ENV, { sharing: t });
      try {
        const hook = await createHook({ events: ['modify'] });
        const bugs = [await fileBug(t), await fileBug(t)];
        const changes = Array.from({ length: 6 }, (_, i) => i);
        for (const i of changes) {
          const app = i % 2 ? other : t;
          ok(await app.put(`/bug/${bugs[i % 2]}`, { whiteboard: `step ${i}` }, { key: ADMIN_API_KEY }));
        }
        await eventually('six deliveries', () => receiver.of(hook.id).length >= 6);
        await drained(hook.id);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const got = receiver.of(hook.id);
        expect(got).toHaveLength(6);
        expect(new Set(got.map((r) => r.headers['x-tracker-delivery'])).size).toBe(6);
        for (const [index, bugId] of bugs.entries()) {
          const steps = got.filter((r) => r.body.bug.id === bugId).map((r) => r.body.event.changes[0].added);
          expect(steps).toEqual(changes.filter((i) => i % 2 === index).map((i) => `step ${i}`));
        }
        ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
      } finally {
        await other.close();
      }
    });

    it('a receiver that holds its answer holds back no other webhook: deliveries go at once, each within its own timeout', async () => {
      // Its own instance, with a timeout far longer than the test waits: only a delivery that does not queue behind
      // the held one can arrive in time.
      const patient = await startTestApp({ ...ENV, TRACKER_WEBHOOK_TIMEOUT_MS: '60000' });
      const [slow, quick] = [new WebhookReceiver(), new WebhookReceiver()];
      await Promise.all([slow.start(), quick.start()]);
      slow.holding = true;
      try {
        const held = ok(await patient.post('/webhook', { name: 'held', url: slow.url, events: ['modify'] }, { key: ADMIN_API_KEY }));
        const prompt = ok(await patient.post('/webhook', { name: 'prompt', url: quick.url, events: ['comment'] }, { key: ADMIN_API_KEY }));
        const bugId = await fileBug(patient);
        ok(await patient.put(`/bug/${bugId}`, { whiteboard: 'held back' }, { key: ADMIN_API_KEY }));
        await eventually('the held delivery to be in flight', () => slow.of(held.id).length === 1);
        ok(await patient.post(`/bug/${bugId}/comment`, { comment: 'goes past it' }, { key: ADMIN_API_KEY }));
        await eventually('the prompt delivery, while the held one waits for its answer', () => quick.of(prompt.id).length === 1);
        expect(slow.of(held.id)).toHaveLength(1);

        slow.release();
        await eventually('the held delivery to be recorded', async () =>
          ok(await patient.get(`/webhook/${held.id}/deliveries`, { key: ADMIN_API_KEY })).deliveries[0].state === 'delivered');
        expect(slow.of(held.id)).toHaveLength(1);
      } finally {
        // Answered first: the instance's shutdown waits for its deliveries in flight.
        await Promise.all([slow.stop(), quick.stop()]);
        await patient.close();
      }
    });

    it('retries a failing receiver with the same delivery, keeps one bug in order, then disables the webhook and says why', async () => {
      const hook = await createHook({ name: 'fragile', events: ['modify'] });
      const bugId = await fileBug(t);
      await clearMailQueue(t);
      receiver.status = 503;
      ok(await t.put(`/bug/${bugId}`, { whiteboard: 'first' }, { key: ADMIN_API_KEY }));
      ok(await t.put(`/bug/${bugId}`, { whiteboard: 'second' }, { key: ADMIN_API_KEY }));
      await eventually('the webhook to be disabled', async () => !(await state(hook.id)).enabled);
      receiver.status = 200;

      const failed = receiver.of(hook.id);
      expect(failed).toHaveLength(3);
      // Every attempt was the first event, the same bytes under the same delivery id: the second waited its turn.
      expect(new Set(failed.map((r) => r.headers['x-tracker-delivery'])).size).toBe(1);
      expect(new Set(failed.map((r) => r.raw)).size).toBe(1);
      expect(failed[0].body.event.changes[0].added).toBe('first');

      const disabled = await state(hook.id);
      expect(disabled).toMatchObject({
        enabled: false,
        state: {
          status: 'disabled', consecutive_failures: 3, queue_depth: 2,
          disabled_reason: expect.stringContaining('3 consecutive failed deliveries'),
          last_failure: { time: expect.any(String), status: 503, error: expect.stringContaining('HTTP 503') },
        },
      });
      const [, firstDelivery] = await deliveries(hook.id);
      expect(firstDelivery).toMatchObject({ state: 'pending', attempts: 3, last_status: 503, last_error: expect.stringContaining('receiver says no') });
      const mails = await t.db.read.repository(QueuedMail).find();
      expect(mails.map((m) => [m.toAddress, m.subject])).toContainEqual([owner.login, '[Tracker] Your webhook "fragile" was disabled']);

      // Events keep queueing while it is disabled for failures, and nothing is sent.
      ok(await t.put(`/bug/${bugId}`, { whiteboard: 'third' }, { key: ADMIN_API_KEY }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.of(hook.id)).toHaveLength(3);
      expect((await state(hook.id)).state.queue_depth).toBe(3);

      // Re-enabled: the backlog drains in order, and the state is clean again.
      const enabled = ok(await t.put(`/webhook/${hook.id}`, { enabled: true }, { key: owner.apiKey })).webhooks[0];
      expect(enabled.state).toMatchObject({ status: 'enabled', disabled_reason: null, consecutive_failures: 0 });
      await eventually('the backlog to drain', () => receiver.of(hook.id).length >= 6);
      await drained(hook.id);
      expect(receiver.of(hook.id).slice(3).map((r) => r.body.event.changes[0].added)).toEqual(['first', 'second', 'third']);
      expect((await state(hook.id)).state).toMatchObject({ consecutive_failures: 0, last_success_time: expect.any(String), queue_depth: 0 });
      ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
    });

    it('delivered deliveries are forgotten after their retention; pending ones never', async () => {
      const hook = await createHook({ events: ['modify'] });
      const bugId = await fileBug(t);
      ok(await t.put(`/bug/${bugId}`, { whiteboard: 'kept a while' }, { key: ADMIN_API_KEY }));
      await drained(hook.id);
      ok(await t.put(`/webhook/${hook.id}`, { enabled: false }, { key: owner.apiKey }));
      const workers = t.app.get(WebhookDeliveryService);
      expect(await workers.purgeFinished(new Date(Date.now() - 60_000))).toBe(0);
      expect((await deliveries(hook.id)).map((d: any) => d.state)).toEqual(['delivered']);
      expect(await workers.purgeFinished(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
      expect(await deliveries(hook.id)).toEqual([]);
      ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
    });

    it('a webhook its owner disabled collects nothing', async () => {
      const hook = await createHook({ events: ['modify'], enabled: false });
      const bugId = await fileBug(t);
      ok(await t.put(`/bug/${bugId}`, { whiteboard: 'unseen' }, { key: ADMIN_API_KEY }));
      expect((await state(hook.id)).state).toMatchObject({ status: 'disabled', disabled_reason: 'disabled by its owner', queue_depth: 0 });
      ok(await t.put(`/webhook/${hook.id}`, { enabled: true }, { key: owner.apiKey }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.of(hook.id)).toHaveLength(0);
      ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
    });
  });

  describe("the owner's visibility", () => {
    it('never delivers a bug its owner cannot see', async () => {
      const hook = await createHook({ events: ['modify'] });
      const [hidden, shown] = [await fileBug(t), await fileBug(t)];
      await restrictBugs(t, 'hook-secret', [hidden]);
      ok(await t.put(`/bug/${hidden}`, { whiteboard: 'secret change' }, { key: ADMIN_API_KEY }));
      ok(await t.put(`/bug/${shown}`, { whiteboard: 'public change' }, { key: ADMIN_API_KEY }));
      await drained(hook.id);
      expect(receiver.of(hook.id).map((r) => r.body.bug.id)).toEqual([shown]);
      expect(JSON.stringify(receiver.of(hook.id))).not.toContain('secret change');
      // The administrator, who may see the bug, sees why its delivery went nowhere (its owner sees nothing of it: below).
      const skipped = (await deliveries(hook.id, ADMIN_API_KEY)).find((d: any) => d.bug_id === hidden);
      expect(skipped).toMatchObject({ state: 'skipped', last_error: `the owner may not see bug ${hidden}` });
      ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
    });

    it('lists to each caller only the deliveries of bugs they may see, a limit counting those alone (issue 40)', async () => {
      const hook = await createHook({ events: ['modify'] });
      const [shown, hidden] = [await fileBug(t), await fileBug(t)];
      await restrictBugs(t, 'hook-listing', [hidden]);
      ok(await t.put(`/bug/${shown}`, { whiteboard: 'public change' }, { key: ADMIN_API_KEY }));
      for (const whiteboard of ['secret 1', 'secret 2']) ok(await t.put(`/bug/${hidden}`, { whiteboard }, { key: ADMIN_API_KEY }));
      await drained(hook.id);
      expect((await deliveries(hook.id)).map((d: any) => d.bug_id)).toEqual([shown]);
      expect(ok(await t.get(`/webhook/${hook.id}/deliveries`, { key: owner.apiKey, query: { limit: 1 } })).deliveries.map((d: any) => d.bug_id)).toEqual([shown]);
      expect((await deliveries(hook.id, ADMIN_API_KEY)).map((d: any) => d.bug_id)).toEqual([hidden, hidden, shown]);
      ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
    });

    it('never delivers a private comment or attachment to an owner outside the insider group; an insider gets them', async () => {
      const outsiderHook = await createHook();
      const insiderHook = await createHook({}, insider.apiKey);
      const bugId = await fileBug(t);
      ok(await t.post(`/bug/${bugId}/comment`, { comment: 'insiders only', is_private: true }, { key: ADMIN_API_KEY }));
      ok(await t.put(`/bug/${bugId}`, { whiteboard: 'noted', comment: { body: 'private note', is_private: true } }, { key: ADMIN_API_KEY }));
      await attach(t, bugId, 'secret patch', { summary: 'Private fix', is_private: true });
      await drained(outsiderHook.id);
      await drained(insiderHook.id, insider.apiKey);

      const outsiderGot = receiver.of(outsiderHook.id);
      expect(outsiderGot.map((r) => r.body.event.routing_key)).toEqual(['bug.create', 'bug.modify:whiteboard']);
      expect(outsiderGot[1].body.bug.update_token).toBeUndefined();
      expect(outsiderGot[1].body.bug.comment).toBeUndefined();
      const text = JSON.stringify(outsiderGot);
      for (const secret of ['insiders only', 'private note', 'Private fix']) expect(text).not.toContain(secret);
      expect((await deliveries(outsiderHook.id)).filter((d: any) => d.state === 'skipped').map((d: any) => d.action)).toEqual(['attachment', 'comment']);

      const insiderGot = receiver.of(insiderHook.id);
      expect(insiderGot.map((r) => r.body.event.routing_key)).toEqual(['bug.create', 'comment.create', 'bug.modify:whiteboard', 'attachment.create']);
      expect(insiderGot[1].body.bug.comment).toMatchObject({ text: 'insiders only', is_private: true });
      expect(insiderGot[2].body.bug.comment).toMatchObject({ text: 'private note', is_private: true });
      expect(insiderGot[3].body.bug.attachment).toMatchObject({ summary: 'Private fix', is_private: true });
      for (const hook of [outsiderHook, insiderHook]) ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: hook === insiderHook ? insider.apiKey : owner.apiKey }));
    });

    it('leaves time-tracking fields out for an owner outside the time-tracking group', async () => {
      await createBugGroup(t, 'trackers');
      await changeGroups(t, 1, { add: ['trackers'] });
      await t.setParameters({ timetrackinggroup: 'trackers' });
      const hook = await createHook({ events: ['modify'] });
      const bugId = await fileBug(t);
      ok(await t.put(`/bug/${bugId}`, { estimated_time: 5, whiteboard: 'estimated' }, { key: ADMIN_API_KEY }));
      await eventually('the delivery', () => receiver.of(hook.id).length >= 1);
      const [got] = receiver.of(hook.id);
      expect(got.body.event.changes).toEqual([{ field: 'whiteboard', removed: '', added: 'estimated' }]);
      expect(got.body.event.routing_key).toBe('bug.modify:whiteboard');
      expect(got.body.bug.estimated_time).toBeUndefined();
      ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
    });
  });

  describe('filters', () => {
    it('delivers only the events, product and component a webhook names', async () => {
      await createProduct(t, 'HookProduct');
      ok(await t.post('/component', { product: 'HookProduct', name: 'Other', description: 'Other things', default_assignee: 'admin@example.com' }, { key: ADMIN_API_KEY }));
      const byProduct = await createHook({ product: 'HookProduct', events: ['create'] });
      const byComponent = await createHook({ product: 'HookProduct', component: 'Other', events: ['create'] });
      const commentsOnly = await createHook({ events: ['comment'] });

      const general = await fileBug(t, { product: 'HookProduct', component: 'General', version: '1.0' });
      const other = await fileBug(t, { product: 'HookProduct', component: 'Other', version: '1.0' });
      const elsewhere = await fileBug(t);
      ok(await t.post(`/bug/${elsewhere}/comment`, { comment: 'a comment' }, { key: ADMIN_API_KEY }));
      for (const hook of [byProduct, byComponent, commentsOnly]) await drained(hook.id);

      expect(receiver.of(byProduct.id).map((r) => r.body.bug.id)).toEqual([general, other]);
      expect(receiver.of(byComponent.id).map((r) => r.body.bug.id)).toEqual([other]);
      expect(receiver.of(commentsOnly.id).map((r) => [r.body.bug.id, r.body.event.action])).toEqual([[elsewhere, 'comment']]);

      // Removing the filter (product '') widens it again.
      ok(await t.put(`/webhook/${byProduct.id}`, { product: '' }, { key: owner.apiKey }));
      expect((await state(byProduct.id))).toMatchObject({ product: null, component: null });
      for (const hook of [byProduct, byComponent, commentsOnly]) ok(await t.request('DELETE', `/webhook/${hook.id}`, { key: owner.apiKey }));
    });
  });
});
