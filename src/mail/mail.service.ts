import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { CommitSignals } from '../database/commit-signals.js';
import { MailQueueService, type QueuedMessage } from './mail-queue.service.js';

/** The commit-signal channel of the mail outbox (CommitSignals). */
export const MAIL_CHANNEL = 'mail';

/**
 * Outgoing mail as other modules use it: messages put in the outbox in the caller's transaction, and the delivery
 * worker woken when it commits.
 */
@Injectable()
export class MailService {
  constructor(private readonly queue: MailQueueService, private readonly signals: CommitSignals) {}

  async send(tx: Sql, messages: readonly QueuedMessage[], at: string): Promise<void> {
    if (!messages.length) return;
    await this.queue.enqueue(tx, messages, at);
    this.signals.afterCommitOf(tx, MAIL_CHANNEL);
  }
}
