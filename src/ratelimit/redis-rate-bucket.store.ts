import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { RateRule } from '../config/app-config.js';
import { nextCell, tokenInterval, type RateDecision } from '../common/http/rate-limit.js';
import type { RateBucketStore } from './rate-bucket-store.js';

/**
 * One request against a bucket, atomically in Redis: answers the bucket's `tat` before the request and moves it
 * when the request is admitted. The admission test is nextCell's (src/common/http/rate-limit.ts), which then
 * makes the decision from the same `tat`; the key expires once the bucket is full again.
 */
const TAKE_CELL = `
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local tolerance = tonumber(ARGV[3])
local start = math.max(tat, now)
if start - now <= tolerance then
  local next = start + interval
  redis.call('SET', KEYS[1], string.format('%.3f', next), 'PX', math.ceil(next - now) + 1000)
end
return string.format('%.3f', tat)
`;

/** One token put back (`tat` one tokenInterval earlier), atomically; a bucket already gone (full again) stays gone. */
const GIVE_BACK_CELL = `
local tat = redis.call('GET', KEYS[1])
if tat then
  redis.call('SET', KEYS[1], string.format('%.3f', math.max(0, tonumber(tat) - tonumber(ARGV[1]))), 'KEEPTTL')
end
return 1
`;

const logger = new Logger('RateLimit');

interface RateCommands {
  takeRateCell(key: string, now: number, interval: number, tolerance: number): Promise<string>;
  giveBackRateCell(key: string, interval: number): Promise<number>;
}

/** The buckets in Redis (REDIS_URL): keys `<TRACKER_REDIS_PREFIX>ratelimit:<bucket>`. */
export class RedisRateBucketStore implements RateBucketStore {
  private constructor(private readonly redis: Redis & RateCommands, private readonly prefix: string) {}

  /** ioredis is loaded only here: a service without REDIS_URL does not pay for it at start (issue 13: cold start). */
  static async open(url: string, prefix: string): Promise<RedisRateBucketStore> {
    const { Redis } = await import('ioredis');
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    // Connection errors surface as failed commands below (a 503 per request); the client only reconnects.
    redis.on('error', () => undefined);
    redis.defineCommand('takeRateCell', { numberOfKeys: 1, lua: TAKE_CELL });
    redis.defineCommand('giveBackRateCell', { numberOfKeys: 1, lua: GIVE_BACK_CELL });
    return new RedisRateBucketStore(redis as Redis & RateCommands, prefix);
  }

  async take(bucketKey: string, rule: RateRule, now: number): Promise<RateDecision> {
    const interval = 60_000 / rule.perMinute;
    let tat: number;
    try {
      tat = Number(await this.redis.takeRateCell(`${this.prefix}ratelimit:${bucketKey}`, now, interval, interval * (rule.burst - 1)));
    } catch (error) {
      // The buckets' store is down: refused as when the database is (503, Retry-After), never admitted unlimited.
      logger.warn(`rate limit store unavailable: ${(error as Error).message}`);
      throw TrackerError.of(Errors.DATABASE_UNAVAILABLE);
    }
    return nextCell(tat, now, rule).decision;
  }

  async giveBack(bucketKey: string, rule: RateRule): Promise<void> {
    await this.redis.giveBackRateCell(`${this.prefix}ratelimit:${bucketKey}`, tokenInterval(rule));
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
