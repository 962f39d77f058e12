import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { CommitSignals } from '../database/commit-signals.js';
import { EveryInterval, WorkerLoop } from '../common/worker-loop.js';
import { MailQueueService, SENT_RETENTION_DAYS } from './mail-queue.service.js';
import { MAIL_CHANNEL } from './mail.service.js';
import { createMailTransport, type MailTransport } from './mail-transport.js';
import { mailDeliveries, observeAtScrape } from '../common/metrics/metrics.js';

/** How often an idle worker looks at the outbox (it is also woken right after a commit that queued mail). */
export const MAIL_POLL_INTERVAL_MS = 1000;
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
  private purgeTimer: NodeJS.Timeout | undefined;
  private readonly loop = new WorkerLoop(
    { name: 'Mail delivery', pollMs: MAIL_POLL_INTERVAL_MS, failedPassDelayMs: FAILED_PASS_DELAY_MS, logger: this.logger },
    async () => {
      await this.purgeSentIfDue();
      await this.deliverDue();
    },
  );
  private stopSignalListener: (() => void) | undefined;
  private started = false;
  private readonly purges = new EveryInterval(PURGE_INTERVAL_MS);

  constructor(
    private readonly config: AppConfig,
    private readonly queue: MailQueueService,
    private readonly signals: CommitSignals,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Delivery belongs to the serving instances: the admin command line (no HTTP adapter) sends nothing. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.adapterHost.httpAdapter) await this.start();
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    observeAtScrape('tracker_mail_outbox', 'Unsent outgoing mail: waiting for delivery, or given up.', ['state'], async () => {
      const { waiting, givenUp } = await this.queue.unsentCounts();
      return [[{ state: 'waiting' }, waiting], [{ state: 'given_up' }, givenUp]];
    });
    this.transport = createMailTransport(this.config);
    this.logger.log(`Mail delivery: ${this.transport.kind === 'files' ? `.eml files in ${this.config.dataDir}/mail` : this.transport.kind}`);
    if (this.transport.kind === 'off') {
      // Nothing to send: new rows are written as sent (MailQueueService), so no pass polls the database. Rows an
      // earlier configuration left pending are dropped now, and old rows purged hourly.
      await this.queue.dropPending(new Date());
      await this.purgeSentIfDue();
      this.purgeTimer = setInterval(() => void this.purgeSentIfDue().catch((err) => this.logger.error(`Mail purge failed: ${reasonOf(err)}`)), PURGE_INTERVAL_MS);
      this.purgeTimer.unref();
      return;
    }
    this.stopSignalListener = this.signals.on(MAIL_CHANNEL, () => this.loop.wake());
    this.loop.start();
  }

  /**
   * Stops on shutdown, before the data source closes (onModuleDestroy runs before any onApplicationShutdown, where
   * TypeORM closes its connections): waits for the send in progress; rows claimed but not yet sent go back to the
   * queue when their lease ends.
   */
  async onModuleDestroy(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    clearInterval(this.purgeTimer);
    this.stopSignalListener?.();
    await this.loop.stop();
    this.transport?.close();
  }

  /** Runs a delivery pass now (or right after the current one). */
  wake(): void {
    this.loop.wake();
  }

  /** Once an hour per instance: forget the rows sent more than SENT_RETENTION_DAYS ago (the outbox stays small). */
  private async purgeSentIfDue(): Promise<void> {
    if (!this.purges.due()) return;
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
        if (!this.loop.isRunning) return sent;
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
      if (batch.length < BATCH_SIZE || !this.loop.isRunning) return sent;
    }
  }
}
