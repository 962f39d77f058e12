import { Entity, Index } from 'typeorm';
import { MillisecondsColumn, StringColumn } from '../../database/columns.js';
import { ActivityTable } from '../../database/activity-table.js';

/**
 * One rate-limit bucket (src/common/http/rate-limit.ts): the kind of request and the caller (a digest of the
 * credential, or the client address), and its theoretical arrival time. Written by ordinary requests: activity.
 */
@Entity('rate_limit_buckets')
@ActivityTable()
@Index('ix_rate_limit_buckets_tat', ['tat'])
export class RateLimitBucket {
  @StringColumn(100, { primary: true })
  bucketKey: string;

  /** When the bucket is full again (ms since the epoch); in the past means full. */
  @MillisecondsColumn()
  tat: number;
}
