import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../common/time/clock.js';
import type { RateDecision, RateLimiter, RequestKind } from '../common/http/rate-limit.js';
import type { RateBucketStore } from './rate-bucket-store.js';

export const RATE_BUCKET_STORE = Symbol('RateBucketStore');

/**
 * The rate limits of TRACKER_RATE_LIMIT_READ / _WRITE (issue 15), for the request hook: the rule of the request's
 * kind applied to its bucket in the store all instances share (Redis with REDIS_URL, else the database).
 */
@Injectable()
export class RateLimitService implements RateLimiter, OnModuleDestroy {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Inject(RATE_BUCKET_STORE) private readonly store: RateBucketStore,
  ) {}

  /** Whether any kind of request is limited: without limits the request hook does no rate work at all. */
  get isOn(): boolean {
    return this.config.rateLimits.read !== undefined || this.config.rateLimits.write !== undefined;
  }

  async take(kind: RequestKind, bucket: string): Promise<RateDecision | undefined> {
    const rule = this.config.rateLimits[kind];
    return rule && this.store.take(bucket, rule, this.clock.now().getTime());
  }

  async giveBack(kind: RequestKind, bucket: string): Promise<void> {
    const rule = this.config.rateLimits[kind];
    if (rule) await this.store.giveBack(bucket, rule);
  }

  async onModuleDestroy(): Promise<void> {
    await this.store.close?.();
  }
}
