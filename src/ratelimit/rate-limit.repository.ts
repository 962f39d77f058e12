import { Injectable } from '@nestjs/common';
import { LessThan } from 'typeorm';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { RateRule } from '../config/app-config.js';
import { nextCell, tokenInterval, type RateDecision } from '../common/http/rate-limit.js';
import { RateLimitBucket } from './entities/rate-limit-bucket.entity.js';
import type { RateBucketStore } from './rate-bucket-store.js';

/** Buckets left alone this long are full again whatever their rule, and are deleted. */
const IDLE_BUCKET_MS = 60 * 60 * 1000;

/** The buckets in the database (no REDIS_URL): shared by every instance on it. */
@Injectable()
export class RateLimitRepository implements RateBucketStore {
  constructor(private readonly db: Db) {}

  /**
   * One request against the bucket, in one transaction on the primary: the row is created if missing, read under
   * its row lock (MySQL; SQLite's writer is alone), and moved only when the request is admitted.
   */
  async take(bucketKey: string, rule: RateRule, now: number): Promise<RateDecision> {
    const { decision, isNew } = await this.db.transaction(async (tx) => {
      const buckets = tx.repository(RateLimitBucket);
      await this.createIfMissing(tx, bucketKey);
      const query = buckets.createQueryBuilder('b').where('b.bucket_key = :bucketKey', { bucketKey });
      if (tx.dialect === 'mysql') query.setLock('pessimistic_write');
      const { tat } = (await query.getOneOrFail());
      const cell = nextCell(tat, now, rule);
      if (cell.decision.allowed) await buckets.update({ bucketKey }, { tat: cell.tat });
      return { decision: cell.decision, isNew: tat === 0 };
    });
    // A new bucket is rare (once per caller and idle hour): the moment to drop the idle ones. Its own statement,
    // after the commit, so that it never holds up the request's bucket; best effort: the next new bucket retries.
    if (isNew) await this.db.transaction((tx) => tx.repository(RateLimitBucket).delete({ tat: LessThan(now - IDLE_BUCKET_MS) })).catch(() => undefined);
    return decision;
  }

  /** One statement, atomic as the Redis store's script: a bucket already gone (full again) stays gone. */
  async giveBack(bucketKey: string, rule: RateRule): Promise<void> {
    await this.db.transaction((tx) => tx.repository(RateLimitBucket).createQueryBuilder().update()
      .set({ tat: () => 'CASE WHEN tat > :interval THEN tat - :interval ELSE 0 END' })
      .where('bucket_key = :bucketKey', { bucketKey, interval: tokenInterval(rule) })
      .execute());
  }

  /**
   * On MySQL an upsert that takes the row's exclusive lock at once: INSERT IGNORE would take a shared lock on an
   * existing row, and two requests upgrading theirs for the read below deadlock.
   */
  private async createIfMissing(tx: Sql, bucketKey: string): Promise<void> {
    if (tx.dialect !== 'mysql') {
      await tx.repository(RateLimitBucket).createQueryBuilder().insert().values({ bucketKey, tat: 0 }).orIgnore().execute();
      return;
    }
    const q = tx.quote;
    await tx.run(`INSERT INTO ${q('rate_limit_buckets')} (${q('bucket_key')}, ${q('tat')}) VALUES (?, 0) ON DUPLICATE KEY UPDATE ${q('bucket_key')} = ${q('bucket_key')}`, [bucketKey]);
  }
}
