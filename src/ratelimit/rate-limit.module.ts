import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { RateLimitRepository } from './rate-limit.repository.js';
import { RedisRateBucketStore } from './redis-rate-bucket.store.js';
import { RATE_BUCKET_STORE, RateLimitService } from './rate-limit.service.js';

/** Rate limits (issue 15, beyond Bugzilla 5.0): the buckets' store and the limiter the request hook asks. */
@Module({
  providers: [
    RateLimitRepository,
    {
      provide: RATE_BUCKET_STORE,
      // Redis only when something is limited: a REDIS_URL alone opens no connection.
      useFactory: (config: AppConfig, repository: RateLimitRepository) =>
        (config.redisUrl && (config.rateLimits.read || config.rateLimits.write) ? RedisRateBucketStore.open(config.redisUrl, config.redisPrefix) : repository),
      inject: [AppConfig, RateLimitRepository],
    },
    RateLimitService,
  ],
  exports: [RateLimitService],
})
export class RateLimitModule {}
