import { createHmac } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { CommitSignals } from '../database/commit-signals.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { EveryInterval, WorkerLoop } from '../common/worker-loop.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { MailService } from '../mail/mail.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { UserService } from '../user/user.service.js';
import type { Webhook } from './entities/webhook.entity.js';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { postJson, type PostOutcome } from './webhook-http.js';
import { WebhookPayloadService } from './webhook-payload.service.js';
import { WebhookRepository } from './webhook.repository.js';
import { WEBHOOK_CHANNEL, type StoredEvent } from './webhook.service.js';

const FAILED_PASS_DELAY_MS = 15_000;
/** Deliveries one instance sends at once. */
const MAX_IN_FLIGHT = 20;
const MAX_RETRY_DELAY_MS = 3600_000;
/** Delivered and skipped deliveries stay readable (GET /rest/webhook/{id}/deliveries) this long, then go. */
export const FINISHED_RETENTION_DAYS = 7;
const PURGE_INTERVAL_MS = 3600_000;
/** How soon a delivery whose subject a read did not find yet (a lagging replica) is rendered again. */
const NOT_YET_RETRY_MS = 2000;
/** The error text kept per failure. */
const MAX_ERROR_LENGTH = 2000;

/** The wait before attempt `failedAttempts + 1`: the base, doubling per failure, at most an hour. */
export function webhookRetryDelayMs(baseMs: number, failedAttempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_DELAY_MS);
}

/** `sha256=<hex>`: HMAC-SHA256 of the body with the webhook's secret (X-Tracker-Signature). */
export function signatureOf(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The webhook worker: runs in every serving instance, claims due deliveries atomically (one instance per delivery),
 * renders each for its owner on its first attempt, POSTs it signed, and records the outcome on the delivery and the
 * webhook. Failures back off; after TRACKER_WEBHOOK_MAX_FAILURES consecutive ones the webhook is disabled and its
 * owner mailed. Up to MAX_IN_FLIGHT deliveries go at once; one bug's deliveries to one webhook one at a time, in order
 * (WebhookRepository.due).
 */
@Injectable()
export class WebhookDeliveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private readonly loop: WorkerLoop;
  private readonly purges = new EveryInterval(PURGE_INTERVAL_MS);
  private stopSignalListener: (() => void) | undefined;
  /** The deliveries being sent, each settled (never rejecting) once recorded. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly config: AppConfig,
    private readonly db: Db,
    private readonly repository: WebhookRepository,
    private readonly payloads: WebhookPayloadService,
    private readonly signals: CommitSignals,
    private readonly mail: MailService,
    private readonly users: UserService,
    private readonly parameters: ParametersService,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.loop = new WorkerLoop(
      { name: 'Webhook delivery', pollMs: config.webhooks.pollMs, failedPassDelayMs: FAILED_PASS_DELAY_MS, logger: this.logger },
      async () => {
        if (this.purges.due()) await this.purgeFinished(new Date(Date.now() - FINISHED_RETENTION_DAYS * 86400_000));
        await this.startDue();
        // Sleep only until the next delivery in line is due (a retry), not a whole poll.
        return this.untilNextDue();
      },
    );
  }

  /** Milliseconds until the next delivery in line is due (0 or less: now), or Infinity when none waits. */
  private async untilNextDue(): Promise<number> {
    const next = await this.repository.nextDueAt(this.db.read);
    return next === undefined ? Infinity : next - Date.now();
  }

  /** Delivery belongs to the serving instances: the admin command line (no HTTP adapter) sends nothing. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.adapterHost.httpAdapter) return;
    this.stopSignalListener = this.signals.on(WEBHOOK_CHANNEL, () => this.loop.wake());
    // What an earlier process left is looked at during start-up: a first pass only if something is due, so an
    // instance with nothing to send sends no statement until a commit or its poll wakes it.
    this.loop.start(await this.untilNextDue());
  }

  /** Waits for the deliveries in flight; claimed deliveries not yet sent are tried again when their lease ends. */
  async onModuleDestroy(): Promise<void> {
    this.stopSignalListener?.();
    await this.loop.stop();
    await Promise.all(this.inFlight);
  }

  /** Forgets delivered and skipped deliveries finished before `before`; answers how many. */
  purgeFinished(before: Date): Promise<number> {
    return this.db.transaction((tx) => this.repository.deleteFinishedBefore(tx, toDbDateTime(before)));
  }

  /**
   * Claims due deliveries up to MAX_IN_FLIGHT sent at once, and starts them; answers how many it started. It does not
   * wait for them: a receiver that lets each POST run to its timeout would otherwise hold back every other webhook,
   * and a batch's last deliveries would outlive their lease (another instance would claim and send them again). Each
   * finished delivery wakes the worker for the next ones. One bug's deliveries to one webhook still go in order: only
   * the first in line is ever claimed (WebhookRepository.due), and it stays first until it is finished.
   */
  async startDue(): Promise<number> {
    let started = 0;
    for (;;) {
      const room = MAX_IN_FLIGHT - this.inFlight.size;
      if (room <= 0 || !this.loop.isRunning) return started;
      const batch = await this.claimDue(room);
      const webhooks = new Map<number, Promise<Webhook | null>>();
      for (const delivery of batch) {
        // Each webhook of the batch read once.
        if (!webhooks.has(delivery.webhookId)) webhooks.set(delivery.webhookId, this.repository.byId(this.db.read, delivery.webhookId));
        this.track(webhooks.get(delivery.webhookId)!.then((webhook) => this.deliver(delivery, webhook)));
      }
      started += batch.length;
      if (batch.length < room) return started;
    }
  }

  /** Keeps `sending` in flight until it settles; then wakes the worker for what is due next. */
  private track(sending: Promise<void>): void {
    const settled: Promise<void> = sending
      .catch((err: unknown) => this.logger.error(`Webhook delivery failed to finish (tried again when its lease ends): ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.inFlight.delete(settled);
        this.loop.wake();
      });
    this.inFlight.add(settled);
  }

  /**
   * Claims up to `limit` due deliveries: each claim moves the next attempt to a lease only if nobody moved it since
   * it was read, so of two instances exactly one gets each delivery.
   */
  private claimDue(limit: number): Promise<WebhookDelivery[]> {
    const now = Date.now();
    const lease = now + Math.max(60_000, this.config.webhooks.timeoutMs * 3);
    return this.db.transaction(async (tx) => {
      const claimed: WebhookDelivery[] = [];
      for (const delivery of await this.repository.due(tx, now, limit)) {
        if (await this.repository.claim(tx, delivery.id, delivery.nextAttemptAt, lease)) claimed.push(delivery);
      }
      return claimed;
    });
  }

  /** Sends one claimed delivery of `webhook` (null: deleted since the claim, its deliveries with it). */
  private async deliver(delivery: WebhookDelivery, webhook: Webhook | null): Promise<void> {
    if (!webhook) return;
    let payload = delivery.payload;
    if (payload === null) {
      const rendered = await this.payloads.render(webhook, delivery, JSON.parse(delivery.event) as StoredEvent);
      if ('skipped' in rendered) {
        const at = toDbDateTime(new Date());
        await this.db.transaction((tx) => this.repository.changeDelivery(tx, delivery.id, { state: 'skipped', lastError: rendered.skipped, finishedAt: at }));
        return;
      }
      if ('notYet' in rendered) {
        // Not a failure of the receiver: tried again shortly, without counting against the webhook.
        const nextAttemptAt = Date.now() + Math.min(this.config.webhooks.retryBaseMs, NOT_YET_RETRY_MS);
        await this.db.transaction((tx) => this.repository.changeDelivery(tx, delivery.id, { lastError: rendered.notYet, nextAttemptAt }));
        return;
      }
      payload = rendered.payload;
      // Kept before the first attempt: every retry sends the same bytes under the same signature.
      const body = payload;
      await this.db.transaction((tx) => this.repository.changeDelivery(tx, delivery.id, { payload: body }));
    }
    const outcome = await postJson(webhook.url, payload, {
      'User-Agent': 'Tracker-Webhooks/1',
      'X-Tracker-Signature': signatureOf(webhook.secret, payload),
      'X-Tracker-Delivery': delivery.deliveryId,
      'X-Tracker-Event': delivery.action,
      'X-Tracker-Webhook-Id': String(webhook.id),
      ...(webhook.apiKeyHeader && webhook.apiKeyValue ? { [webhook.apiKeyHeader]: webhook.apiKeyValue } : {}),
    }, { timeoutMs: this.config.webhooks.timeoutMs, allowPrivate: this.config.webhooks.allowPrivate });
    if (outcome.error === undefined) await this.recordSuccess(webhook, delivery, outcome);
    else await this.recordFailure(webhook, delivery, outcome);
  }

  private async recordSuccess(webhook: Webhook, delivery: WebhookDelivery, outcome: PostOutcome): Promise<void> {
    const at = toDbDateTime(new Date());
    await this.db.transaction(async (tx) => {
      await this.repository.changeDelivery(tx, delivery.id, {
        state: 'delivered', attempts: delivery.attempts + 1, lastAttemptAt: at, lastStatus: outcome.status ?? null, lastError: null, finishedAt: at,
      });
      await this.repository.changeState(tx, webhook.id, { consecutiveFailures: 0, lastSuccessAt: at });
    });
  }

  /** Backs the delivery off; past the limit of consecutive failures, disables the webhook and mails its owner. */
  private async recordFailure(webhook: Webhook, delivery: WebhookDelivery, outcome: PostOutcome): Promise<void> {
    const now = new Date();
    const at = toDbDateTime(now);
    const attempts = delivery.attempts + 1;
    const error = outcome.error!.slice(0, MAX_ERROR_LENGTH);
    this.logger.warn(`Webhook ${webhook.id} delivery ${delivery.deliveryId} failed (attempt ${attempts}): ${error}`);
    await this.db.transaction(async (tx) => {
      await this.repository.changeDelivery(tx, delivery.id, {
        attempts, lastAttemptAt: at, lastStatus: outcome.status ?? null, lastError: error,
        nextAttemptAt: now.getTime() + webhookRetryDelayMs(this.config.webhooks.retryBaseMs, attempts),
      });
      const failures = await this.repository.countFailure(tx, webhook.id, { lastFailureAt: at, lastFailureStatus: outcome.status ?? null, lastFailureError: error });
      const current = await this.repository.byId(tx, webhook.id);
      if (failures < this.config.webhooks.maxFailures || !current?.enabled) return;
      const reason = `disabled after ${failures} consecutive failed deliveries; the last: ${error}`;
      await this.repository.change(tx, webhook.id, { enabled: false, disabledReason: reason.slice(0, MAX_ERROR_LENGTH) });
      await this.mailOwner(tx, webhook, reason, at);
      this.logger.warn(`Webhook ${webhook.id} disabled: ${reason}`);
    });
  }

  private async mailOwner(tx: Sql, webhook: Webhook, reason: string, at: string): Promise<void> {
    const owner = (await this.users.findByIds([webhook.ownerId], tx)).get(webhook.ownerId);
    if (!owner || !owner.emailEnabled) return;
    const parameters = await this.parameters.load(tx);
    const urlbase = parameters.get('urlbase');
    await this.mail.send(tx, [{
      to: `${owner.email}${parameters.get('emailsuffix')}`,
      subject: `[Tracker] Your webhook "${webhook.name}" was disabled`,
      body: [
        `Your webhook "${webhook.name}" (id ${webhook.id}) posting to ${webhook.url} was disabled:`,
        reason,
        '',
        'Its events are kept. Once the receiver works again, enable the webhook and they are delivered in order:',
        `  PUT ${urlbase}rest/webhook/${webhook.id} with {"enabled": true}`,
        `Its state and recent deliveries: GET ${urlbase}rest/webhook/${webhook.id} and ${urlbase}rest/webhook/${webhook.id}/deliveries`,
      ].join('\n'),
      headers: { From: parameters.get('mailfrom') },
    }], at);
  }
}
