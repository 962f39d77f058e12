import type { RateRule } from '../config/app-config.js';
import type { RateDecision } from '../common/http/rate-limit.js';

/** Where buckets live, shared by all instances: the database or Redis. `take` is atomic per bucket. */
export interface RateBucketStore {
  take(bucketKey: string, rule: RateRule, now: number): Promise<RateDecision>;
  /** Puts one token back (`tat` one tokenInterval earlier), atomically. */
  giveBack(bucketKey: string, rule: RateRule): Promise<void>;
  /** Releases the store's own connection (Redis); the database store has none. */
  close?(): Promise<void>;
}
