import { NestFactory } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLog, NestLog, type LogLevel } from './common/logging/log.js';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { configureHttp, edgeErrorHandlers, RequestLog, requestDeadline, requestIdOf } from './common/http/fastify-setup.js';
import { installRequestHook } from './common/http/request-hook.js';
import { declareFastPaths } from './common/http/fast-paths.js';
import { Admission } from './common/http/admission.js';
import { FAST_PATHS } from './fast-paths.js';
import { CALLER_RESOLVER, type CallerResolver } from './common/guards/caller-resolver.js';
import { Clock } from './common/time/clock.js';
import { setupOpenApi } from './openapi.js';
import { installAttachmentBodyLimit } from './attachment/attachment-body.js';
import { maxAttachmentBytes } from './attachment/attachment.rules.js';
import { ParametersService } from './params/parameters.service.js';
import { RateLimitService } from './ratelimit/rate-limit.service.js';
import { readScopeHook } from './database/read-scope.js';

export interface CreateAppOptions {
  /** Overrides LOG_LEVEL (the tests log errors only). */
  logLevel?: LogLevel;
  /** The source of "now"; the system clock unless a test passes one it can move. */
  clock?: Clock;
}

/** Builds the HTTP application (main.ts and the e2e tests share it). */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const log = createLog(options.logLevel ?? config.logLevel);
  const adapter = new FastifyAdapter({
    bodyLimit: config.maxBodyBytes, trustProxy: process.env.TRACKER_TRUST_PROXY === '1', ...edgeErrorHandlers(),
    ...requestDeadline(config.requestTimeoutMs),
    loggerInstance: log, logController: new RequestLog(), genReqId: requestIdOf,
  });
  configureHttp(adapter.getInstance<FastifyInstance>(), { metrics: config.metrics });
  // Which reads of a request may go to a read replica, and as of when (docs/replicas.md); without replicas every read
  // goes to the one database, and requests pay nothing for the hook.
  if (config.databaseReplicaUrls.length) adapter.getInstance<FastifyInstance>().addHook('onRequest', readScopeHook);
  // Before Nest scans the modules: it registers the interceptors the handlers name (a presumed caller's) as it scans.
  declareFastPaths(FAST_PATHS);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options.clock), adapter, {
    logger: new NestLog(log),
    // Bodies are read as text by configureHttp and parsed by RequestParams (coded errors, any Content-Type).
    bodyParser: false,
  });
  // The API under /rest, as Bugzilla; the operators' endpoints and 5.0's RPC endpoints (src/rpc) beside it.
  app.setGlobalPrefix('rest', { exclude: ['health/live', 'health/ready', 'metrics', 'xmlrpc.cgi', 'jsonrpc.cgi'] });
  setupOpenApi(app);
  // Create Attachment's body follows maxattachmentsize, read per request (base64 is a third larger than the file).
  const parameters = app.get(ParametersService);
  installAttachmentBodyLimit(adapter.getInstance<FastifyInstance>(), config.maxBodyBytes, {
    guessed: () => {
      const kept = parameters.lastKept();
      return kept && maxAttachmentBytes(kept);
    },
    current: async () => maxAttachmentBytes(await parameters.load()),
  });
  // After the OpenAPI routes and before app.init() declares the controllers' routes: the hook serves exactly those.
  const limiter = app.get(RateLimitService);
  installRequestHook(adapter.getInstance<FastifyInstance>(), {
    resolver: app.get<CallerResolver>(CALLER_RESOLVER), clock: app.get(Clock), ...(limiter.isOn ? { limiter } : {}), fastPaths: config.fastPaths,
    admission: Admission.of(config.admission),
    instanceOf: (type) => app.get(type, { strict: false }),
  });
  await app.init();
  return app;
}
