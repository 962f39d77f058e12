import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { MailQueueService, SENT_RETENTION_DAYS } from './mail-queue.service.js';
import { MailKicker } from './mail-kicker.js';
import { createMailTransport, type MailTransport } from './mail-transport.js';
import { mailDeliveries, observeAtScrape } from '../common/metrics/metrics.js';

/** How often an idle worker looks at the outbox (it is also woken right after a commit that queued mail). */
export const MAIL_POLL_INTERVAL_MS = 1000;
/** After a pass that failed as a whole (the database is unreachable …): wait longer, log less. */
const FAILED_PASS_DELAY_MS = 15_000;
const BATCH_SIZE = 20;
const PURGE_INTERVAL_MS = 3600_000;

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The delivery worker: runs in every serving instance, sends due outbox rows through the configured transport and
 * records the outcome. A failure is logged and retried later with backoff (MailQueueService); it never reaches a
 * request, which only wrote rows. Rows are claimed atomically, so several instances never send one row twice.
 */
@Injectable()
export class MailDeliveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private transport: MailTransport | undefined;
  private timer: NodeJS.Timeout | undefined;
  private cycle: Promise<void> | undefined;
  private wakeAgain = false;
  private running = false;
  private stopKickListener: (() => void) | undefined;
  private lastPurge = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly queue: MailQueueService,
    private readonly kicker: MailKicker,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Delivery belongs to the serving instances: the admin command line (no HTTP adapter) sends nothing. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.adapterHost.httpAdapter) await this.start();
  }

  async start(): Promise<void> {
    if (this.running) return;
    observeAtScrape('tracker_mail_outbox', 'Unsent outgoing mail: waiting for delivery, or given up.', ['state'], async () => {
      const { waiting, givenUp } = await this.queue.unsentCounts();
      return [[{ state: 'waiting' }, waiting], [{ state: 'given_up' }, givenUp]];
    });
    this.transport = createMailTransport(this.config);
    this.running = true;
    this.logger.log(`Mail delivery: ${this.transport.kind === 'files' ? `.eml files in ${this.config.dataDir}/mail` : this.transport.kind}`);
    if (this.transport.kind === 'off') {
      // Nothing to send: new rows are written as sent (MailQueueService), so no pass polls the database. Rows an
      // earlier configuration left pending are dropped now, and old rows purged hourly.
      await this.queue.dropPending(new Date());
      await this.purgeSentIfDue();
      this.timer = setInterval(() => void this.purgeSentIfDue().catch((err) => this.logger.error(`Mail purge failed: ${reasonOf(err)}`)), PURGE_INTERVAL_MS);
      this.timer.unref();
      return;
    }
    this.stopKickListener = this.kicker.onKick(() => this.wake());
    this.wake();
  }

  /**
   * Stops on shutdown, before the data source closes (onModuleDestroy runs before any onApplicationShutdown, where
   * TypeORM closes its connections): waits for the send in progress; rows claimed but not yet sent go back to the
   * queue when their lease ends.
   */
  async onModuleDestroy(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.stopKickListener?.();
    await this.cycle;
    this.transport?.close();
  }

  /** Runs a delivery pass now (or right after the current one). */
  wake(): void {
    if (!this.running) return;
    if (this.cycle) {
      this.wakeAgain = true;
      return;
    }
    clearTimeout(this.timer);
    let delay = MAIL_POLL_INTERVAL_MS;
    this.cycle = this.purgeSentIfDue()
      .then(() => this.deliverDue())
      .then(() => undefined)
      .catch((err) => {
        delay = FAILED_PASS_DELAY_MS;
        this.logger.error(`Mail delivery pass failed (next try in ${FAILED_PASS_DELAY_MS / 1000} s): ${reasonOf(err)}`);
      })
      .finally(() => {
        this.cycle = undefined;
        if (!this.running) return;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), delay);
        this.timer.unref();
      });
  }

  /** Once an hour per instance: forget the rows sent more than SENT_RETENTION_DAYS ago (the outbox stays small). */
  private async purgeSentIfDue(): Promise<void> {
    if (Date.now() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = Date.now();
    await this.queue.purgeSent(new Date(Date.now() - SENT_RETENTION_DAYS * 86400_000));
  }

  /** Sends every due row (batch by batch); returns how many went out. */
  async deliverDue(): Promise<number> {
    const transport = this.transport;
    if (!transport) return 0;
    let sent = 0;
    for (;;) {
      const batch = await this.queue.claimDue(new Date(), BATCH_SIZE);
      for (const mail of batch) {
        if (!this.running) return sent;
        try {
          await transport.send(mail);
        } catch (err) {
          const reason = reasonOf(err);
          this.logger.warn(`Mail ${mail.id} to ${mail.to} not delivered (attempt ${mail.attempts + 1}): ${reason}`);
          await this.queue.markFailed(mail, reason, new Date());
          mailDeliveries.inc({ outcome: 'failed' });
          continue;
        }
        // Marked one by one, right after each send: a crash then resends at most the message in flight.
        await this.queue.markSent(mail.id, new Date());
        mailDeliveries.inc({ outcome: 'sent' });
        sent++;
      }
      if (batch.length < BATCH_SIZE || !this.running) return sent;
    }
  }
}
