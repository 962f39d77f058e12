import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { AppConfig } from '../config/app-config.js';
import type { Sql } from '../database/sql.js';
import { toDbDateTime } from '../common/time/datetime.js';
import type { OutgoingMail } from './mail-transport.js';
import { MailRepository } from './mail.repository.js';
import type { QueuedMail } from './entities/queued-mail.entity.js';

/** A message to put in the outbox (the columns of mail_queue a writer chooses). */
export interface QueuedMessage {
  to: string;
  subject: string;
  body: string;
  /** From, threading and X-Tracker-* headers; stored as JSON in `headers`. */
  headers: Record<string, string>;
}

export interface ClaimedMail extends OutgoingMail {
  /** Delivery attempts made before this one. */
  attempts: number;
}

/** After this many failed attempts a row stays in the outbox, unsent, with its last error (for an administrator). */
export const MAX_DELIVERY_ATTEMPTS = 10;
/** How long a claimed row belongs to the instance that claimed it; after that (a crash) another may retry it. */
export const CLAIM_LEASE_SECONDS = 300;

/** Sent rows are kept this long (to look into a "did it go out?" question), then deleted. */
export const SENT_RETENTION_DAYS = 7;

/** Seconds to wait before the next attempt after `failedAttempts` failures: 10 s doubling, at most an hour. */
export function retryDelaySeconds(failedAttempts: number): number {
  return Math.min(10 * 2 ** Math.max(0, failedAttempts - 1), 3600);
}

const later = (now: Date, seconds: number) => toDbDateTime(new Date(now.getTime() + seconds * 1000));

/**
 * The outbox (mail_queue): writers add rows inside their own transaction, so mail exists only if the change
 * committed; the delivery worker of any instance claims due rows atomically and records the outcome.
 */
@Injectable()
export class MailQueueService {
  /** `TRACKER_MAIL_URL=off`: messages are recorded as sent at once, and no worker polls for them. */
  private readonly dropping: boolean;

  constructor(private readonly db: Db, private readonly mails: MailRepository, config: AppConfig) {
    this.dropping = config.mailUrl === 'off';
  }

  /**
   * Adds messages to the outbox in the caller's transaction, due at once (`at`: the request's timestamp); with mail
   * off they are stored as sent (what would have gone out stays visible for a week).
   */
  async enqueue(tx: Sql, messages: readonly QueuedMessage[], at: string): Promise<void> {
    await this.mails.add(tx, messages.map((m) => ({
      createdAt: at,
      toAddress: m.to,
      subject: m.subject,
      body: m.body,
      headers: JSON.stringify(m.headers),
      attempts: 0,
      nextAttemptAt: at,
      lastError: null,
      sentAt: this.dropping ? at : null,
    })));
  }

  /** The outbox depth: unsent rows still to be tried, and those given up after MAX_DELIVERY_ATTEMPTS. */
  unsentCounts(): Promise<{ waiting: number; givenUp: number }> {
    return this.mails.unsentCounts(this.db.read, MAX_DELIVERY_ATTEMPTS);
  }

  /** With mail turned off: rows left pending by an earlier configuration are recorded as sent (dropped). */
  async dropPending(at: Date): Promise<number> {
    return this.db.transaction((tx) => this.mails.markPendingSent(tx, toDbDateTime(at), MAX_DELIVERY_ATTEMPTS));
  }

  /**
   * Claims up to `limit` due rows for this instance. Each claim is a conditional UPDATE that moves
   * next_attempt_at to a lease only if nobody moved it since we read it, so of two instances reading the same row
   * exactly one gets affected = 1 and sends it.
   */
  async claimDue(now: Date, limit: number): Promise<ClaimedMail[]> {
    const nowText = toDbDateTime(now);
    const lease = later(now, CLAIM_LEASE_SECONDS);
    return this.db.transaction(async (tx) => {
      const due = await this.mails.due(tx, nowText, MAX_DELIVERY_ATTEMPTS, limit);
      const claimed: ClaimedMail[] = [];
      for (const row of due) {
        if (!(await this.mails.claim(tx, row.id, row.nextAttemptAt, lease))) continue; // another instance claimed it first
        claimed.push(toClaimedMail(row));
      }
      return claimed;
    });
  }

  async markSent(id: number, at: Date): Promise<void> {
    await this.db.transaction((tx) => this.mails.change(tx, id, { sentAt: toDbDateTime(at), lastError: null }));
  }

  /** Deletes rows sent before `before`; returns how many. Unsent rows (pending or given up) are never deleted. */
  async purgeSent(before: Date): Promise<number> {
    return this.db.transaction((tx) => this.mails.deleteSentBefore(tx, toDbDateTime(before)));
  }

  /** Records a failed attempt and when to try again (backoff), or, past the last attempt, leaves the row for good. */
  async markFailed(mail: ClaimedMail, error: string, at: Date): Promise<void> {
    const attempts = mail.attempts + 1;
    await this.db.transaction((tx) =>
      this.mails.change(tx, mail.id, { attempts, lastError: error.slice(0, 2000), nextAttemptAt: later(at, retryDelaySeconds(attempts)) }),
    );
  }
}

function toClaimedMail(row: QueuedMail): ClaimedMail {
  return {
    id: row.id,
    to: row.toAddress,
    subject: row.subject,
    body: row.body,
    headers: parseHeaders(row.headers),
    createdAt: row.createdAt,
    attempts: row.attempts,
  };
}

function parseHeaders(text: string | null): Record<string, string> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}
