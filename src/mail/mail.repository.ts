import { Injectable } from '@nestjs/common';
import { IsNull, LessThan, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { QueuedMail } from './entities/queued-mail.entity.js';

/** The outbox table (mail_queue): the only place that names it. Every method runs on the handle it is given. */
@Injectable()
export class MailRepository {
  async add(tx: Sql, rows: ReadonlyArray<Omit<QueuedMail, 'id'>>): Promise<void> {
    await insertRows(tx.repository(QueuedMail), rows);
  }

  /** Unsent rows with attempts left and due by `now`, oldest due first. */
  due(tx: Sql, now: string, maxAttempts: number, limit: number): Promise<QueuedMail[]> {
    return tx.repository(QueuedMail).find({
      where: { sentAt: IsNull(), nextAttemptAt: LessThanOrEqual(now), attempts: LessThan(maxAttempts) },
      order: { nextAttemptAt: 'ASC', id: 'ASC' },
      take: limit,
    });
  }

  /**
   * Moves an unsent row's next attempt to `until` only if it is still `seenNextAttemptAt` (nobody claimed it since
   * it was read): true for exactly one of several claimers of the same row.
   */
  async claim(tx: Sql, id: number, seenNextAttemptAt: string, until: string): Promise<boolean> {
    const { affected } = await tx.repository(QueuedMail).update({ id, nextAttemptAt: seenNextAttemptAt, sentAt: IsNull() }, { nextAttemptAt: until });
    return affected === 1;
  }

  async change(tx: Sql, id: number, values: Partial<Pick<QueuedMail, 'sentAt' | 'lastError' | 'attempts' | 'nextAttemptAt'>>): Promise<void> {
    await tx.repository(QueuedMail).update({ id }, values);
  }

  /** How many rows are unsent: with attempts left (waiting) and without (given up). */
  async unsentCounts(sql: ReadSql, maxAttempts: number): Promise<{ waiting: number; givenUp: number }> {
    const repository = sql.repository(QueuedMail);
    const [waiting, givenUp] = await Promise.all([
      repository.countBy({ sentAt: IsNull(), attempts: LessThan(maxAttempts) }),
      repository.countBy({ sentAt: IsNull(), attempts: MoreThanOrEqual(maxAttempts) }),
    ]);
    return { waiting, givenUp };
  }

  /** Records unsent rows with attempts left as sent at `at`; returns how many. */
  async markPendingSent(tx: Sql, at: string, maxAttempts: number): Promise<number> {
    const { affected } = await tx.repository(QueuedMail).update({ sentAt: IsNull(), attempts: LessThan(maxAttempts) }, { sentAt: at });
    return affected ?? 0;
  }

  /** Deletes rows sent before `before` (unsent rows have no sent_at and are never matched); returns how many. */
  async deleteSentBefore(tx: Sql, before: string): Promise<number> {
    const { affected } = await tx.repository(QueuedMail).delete({ sentAt: LessThan(before) });
    return affected ?? 0;
  }
}
