import path from 'node:path';

/** The service's configuration, read from the environment once at start and validated. */
export class AppConfig {
  port: number;
  host: string;
  /** `mysql://…`, `mariadb://…` or `sqlite:PATH`. */
  databaseUrl: string;
  /** Read replicas (MariaDB, GTID replication: docs/replicas.md): GET requests' reads after their first go there. */
  databaseReplicaUrls: string[];
  /** How replicas are used and watched (docs/replicas.md). */
  replicas: ReplicaSettings;
  /** TRACKER_CREATE_DATABASE=1: a MySQL/MariaDB database that does not exist yet is created at start. */
  createDatabase: boolean;
  urlbase: string;
  adminEmail: string;
  adminPassword: string | undefined;
  adminApiKey: string | undefined;
  /** `smtp://…`/`smtps://…` for SMTP delivery, `off` to drop mail, unset for .eml files under `dataDir`. */
  mailUrl: string | undefined;
  dataDir: string;
  maxBodyBytes: number;
  /**
   * TRACKER_REQUEST_TIMEOUT_MS: how long a client may take to send a whole request, headers and body (120 s); one
   * still arriving then is answered 408 and its connection closed.
   */
  requestTimeoutMs: number;
  /** How long a SIGTERM/SIGINT waits for in-flight requests and the mail worker before the process gives up. */
  shutdownGraceMs: number;
  /** TRACKER_METRICS=1 serves Prometheus metrics on /metrics. */
  metrics: boolean;
  /** LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
  logLevel: LogLevel;
  /**
   * Rate limits per caller (TRACKER_RATE_LIMIT_READ / _WRITE, requests per minute; bursts _READ_BURST / _WRITE_BURST,
   * the per-minute figure by default). A kind left unset is not limited.
   */
  rateLimits: { read?: RateRule; write?: RateRule };
  /** REDIS_URL: where the rate-limit counters live; the database when unset. */
  redisUrl: string | undefined;
  /** TRACKER_REDIS_PREFIX: the start of every key the service writes to Redis (`tracker:`). */
  redisPrefix: string;
  /** Outgoing webhooks (beyond 5.0): how requests are made and when a failing webhook is disabled. */
  webhooks: WebhookSettings;
  /** The change feed (beyond 5.0, issue 44: GET /rest/changes). */
  changeFeed: ChangeFeedSettings;
  /**
   * How many loaded bugs (with their kept JSON) one instance keeps: TRACKER_CACHE_BUGS entries (5000) and about
   * TRACKER_CACHE_BUGS_MB megabytes (32), whichever is reached first. TRACKER_CACHE_BUGS_CHECK=1 (the test suites
   * set it) compares each bug an update keeps as it left it with the database's, and fails the update if they differ.
   */
  bugCache: { entries: number; bytes: number; checkWrites: boolean };
  /**
   * TRACKER_FAST_PATHS=off turns every speed mechanism off (held statements, named and prepared statements, combined
   * writes, commit conditions and presumed callers, companion reads, kept answers, kept bugs and kept reads, shared
   * Update Bug transactions, the update projection): the service is then plain NestJS + TypeORM, slower and the same
   * on the wire. `on` (the default) leaves them on. Each mechanism reads this where it decides to engage.
   */
  fastPaths: boolean;
  /**
   * How many API requests an instance works on at once and how long the others may wait for their turn
   * (src/common/http/admission.ts): TRACKER_MAX_IN_FLIGHT, TRACKER_MAX_QUEUE, TRACKER_MAX_WAIT_MS.
   */
  admission: AdmissionLimits;
  /**
   * Bugzilla 5.0's XML-RPC and JSON-RPC endpoints (src/rpc, docs/rpc.md): TRACKER_XMLRPC and TRACKER_JSONRPC, `on`
   * (the default) or `off` for a site that serves REST only.
   */
  rpc: { xml: boolean; json: boolean };
}

/** AppConfig.admission. */
export interface AdmissionLimits {
  /** Requests worked on at once (TRACKER_MAX_IN_FLIGHT); 0 turns admission off: every request goes in at once. */
  maxInFlight: number;
  /** Requests waiting for their turn at most (TRACKER_MAX_QUEUE); one more is refused at once. */
  maxQueue: number;
  /** The longest a request waits for its turn before it is refused (TRACKER_MAX_WAIT_MS). */
  maxWaitMs: number;
  /**
   * How long one turn of the event loop takes requests in before the next ones wait for a later turn (ms), where a
   * request's work runs synchronously in the loop (SQLite: 2); 0, no such bound (MySQL/MariaDB, whose statements
   * wait for the server and let the loop turn).
   */
  turnBudgetMs: number;
}

export interface WebhookSettings {
  /** TRACKER_WEBHOOK_ALLOW_PRIVATE=1 lets webhooks post to loopback and private addresses (tests, closed networks). */
  allowPrivate: boolean;
  /** TRACKER_WEBHOOK_TIMEOUT_MS: how long one request may take, connection to last byte. */
  timeoutMs: number;
  /** TRACKER_WEBHOOK_MAX_FAILURES: consecutive failed attempts after which the webhook is disabled. */
  maxFailures: number;
  /** TRACKER_WEBHOOK_RETRY_MS: the first retry's delay; each further one doubles it, up to an hour. */
  retryBaseMs: number;
  /**
   * TRACKER_WEBHOOK_POLL_MS: how often an idle worker looks for deliveries nobody woke it for (queued by an instance
   * that stopped before sending them). A commit that queues deliveries wakes its own instance's worker at once, and a
   * worker sleeps only until its next retry is due.
   */
  pollMs: number;
}

export interface ChangeFeedSettings {
  /** TRACKER_CHANGE_FEED_RETENTION_DAYS (30): changes older are pruned; a cursor that old answers change_cursor_expired. */
  retentionDays: number;
  /**
   * TRACKER_CHANGE_FEED_GAP_S (300): how long a transaction may stay open after writing its change row. A change
   * number missing from the feed longer than this was rolled back; until then a cursor waits for it.
   */
  gapSeconds: number;
}

export interface ReplicaSettings {
  /** TRACKER_REPLICA_MAX_LAG_S (2): a replica further behind the primary is out of rotation until it catches up. */
  maxLagMs: number;
  /**
   * TRACKER_REPLICA_WAIT_MS (100): how long a request waits for its replica to apply the primary's position at its
   * start (MASTER_GTID_WAIT) before it reads the primary instead; 0 never waits.
   */
  waitMs: number;
  /** TRACKER_REPLICA_PROBE_MS (1000): how often each replica's position, replication and lag are probed. */
  probeMs: number;
}

/** A token bucket: `perMinute` requests per minute refill it, `burst` is its size. */
export interface RateRule {
  perMinute: number;
  burst: number;
}

export class ConfigError extends Error {}

/** The levels of LOG_LEVEL (pino's, and `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A turn's intake of requests on SQLite (AdmissionLimits.turnBudgetMs): short enough that the loop turns some
 * hundreds of times a second under load (one new connection accepted per turn), long enough that its cost per turn
 * (~30 µs) stays small.
 */
const SQLITE_TURN_BUDGET_MS = 2;

const DEFAULT_DATABASE_URL = 'sqlite:./data/tracker.sqlite';

/** A switch set `on` or `off` (either case), `on` when unset. */
function onOrOff(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim().toLowerCase() || 'on';
  if (value !== 'on' && value !== 'off') throw new ConfigError(`${name} must be on or off (got '${env[name]}')`);
  return value === 'on';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got '${raw}')`);
  }
  return value;
}

function rateRule(env: NodeJS.ProcessEnv, name: string): RateRule | undefined {
  if (!env[name]?.trim()) return undefined;
  const perMinute = integer(env, name, 0, 1, 1_000_000);
  return { perMinute, burst: integer(env, `${name}_BURST`, perMinute, 1, 1_000_000) };
}

/** A URL as the log may show it (errors, the start-up line): the password of its user part masked. */
export function withoutPassword(url: string): string {
  return url.replace(/(\/\/[^/@:]*:).*@/, '$1***@');
}

function databaseUrl(env: NodeJS.ProcessEnv, name: string, raw: string): string {
  if (/^sqlite:.+/.test(raw)) return raw;
  if (/^(mysql|mariadb):\/\/[^/]+(\/[^/?]+)?(\?.*)?$/.test(raw)) {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      /* fall through to the error */
    }
    if (url) {
      checkServerOptions(name, url.searchParams);
      return raw;
    }
  }
  throw new ConfigError(`${name} must be mysql://user:password@host:port/database, mariadb://… or sqlite:PATH (got '${withoutPassword(raw)}')`);
}

/**
 * The one option a MySQL/MariaDB URL takes in its query: `socketPath`, the server's Unix socket (mysql2's name), for a
 * server on the same host. Anything else would be dropped without a word by TypeORM's URL parsing, so it stops the
 * start instead.
 */
function checkServerOptions(name: string, options: URLSearchParams): void {
  for (const [key, value] of options) {
    if (key !== 'socketPath') throw new ConfigError(`${name} takes no option '${key}' (the one option is socketPath=/path/to/mysqld.sock)`);
    if (!value.startsWith('/')) throw new ConfigError(`${name}'s socketPath must be an absolute path (got '${value}')`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const config = new AppConfig();
  config.port = integer(env, 'PORT', 3000, 0, 65535);
  config.host = env.HOST?.trim() || '127.0.0.1';
  config.databaseUrl = databaseUrl(env, 'DATABASE_URL', env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL);
  config.databaseReplicaUrls = (env.DATABASE_REPLICA_URLS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
    .map((u) => databaseUrl(env, 'DATABASE_REPLICA_URLS', u));
  if (config.databaseReplicaUrls.length && config.databaseUrl.startsWith('sqlite:')) {
    throw new ConfigError('DATABASE_REPLICA_URLS needs a MySQL/MariaDB DATABASE_URL');
  }
  config.replicas = {
    maxLagMs: integer(env, 'TRACKER_REPLICA_MAX_LAG_S', 2, 0, 3600) * 1000,
    waitMs: integer(env, 'TRACKER_REPLICA_WAIT_MS', 100, 0, 10_000),
    probeMs: integer(env, 'TRACKER_REPLICA_PROBE_MS', 1000, 50, 60_000),
  };
  config.createDatabase = env.TRACKER_CREATE_DATABASE?.trim() === '1';
  config.urlbase = env.TRACKER_URLBASE?.trim() ?? '';
  if (config.urlbase && !/^https?:\/\/\S+\/$/.test(config.urlbase)) {
    throw new ConfigError(`TRACKER_URLBASE must be an http(s) URL ending with '/' (got '${config.urlbase}')`);
  }
  config.adminEmail = env.TRACKER_ADMIN_EMAIL?.trim() || 'admin@example.com';
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(config.adminEmail)) {
    throw new ConfigError(`TRACKER_ADMIN_EMAIL must be an email address (got '${config.adminEmail}')`);
  }
  config.adminPassword = env.TRACKER_ADMIN_PASSWORD || undefined;
  if (config.adminPassword !== undefined && config.adminPassword.trim().length < 6) {
    throw new ConfigError('TRACKER_ADMIN_PASSWORD must be at least 6 characters long');
  }
  config.adminApiKey = env.TRACKER_ADMIN_API_KEY?.trim() || undefined;
  if (config.adminApiKey !== undefined && !/^[A-Za-z0-9_-]{20,}$/.test(config.adminApiKey)) {
    throw new ConfigError('TRACKER_ADMIN_API_KEY must be at least 20 characters of letters, digits, _ or -');
  }
  config.mailUrl = env.TRACKER_MAIL_URL?.trim() || undefined;
  if (config.mailUrl && config.mailUrl !== 'off' && !/^smtps?:\/\/\S+$/.test(config.mailUrl)) {
    throw new ConfigError(`TRACKER_MAIL_URL must be smtp://…, smtps://… or off (got '${withoutPassword(config.mailUrl)}')`);
  }
  const sqlitePath = config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl.slice('sqlite:'.length) : undefined;
  config.dataDir = path.resolve(env.TRACKER_DATA_DIR?.trim() || (sqlitePath && sqlitePath !== ':memory:' ? path.dirname(sqlitePath) : './data'));
  config.maxBodyBytes = integer(env, 'TRACKER_MAX_BODY_BYTES', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024);
  config.requestTimeoutMs = integer(env, 'TRACKER_REQUEST_TIMEOUT_MS', 120_000, 1000, 3600_000);
  config.shutdownGraceMs = integer(env, 'TRACKER_SHUTDOWN_GRACE_MS', 10_000, 0, 10 * 60 * 1000);
  config.metrics = env.TRACKER_METRICS?.trim() === '1';
  const logLevel = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${env.LOG_LEVEL}')`);
  config.logLevel = logLevel as LogLevel;
  config.rateLimits = { read: rateRule(env, 'TRACKER_RATE_LIMIT_READ'), write: rateRule(env, 'TRACKER_RATE_LIMIT_WRITE') };
  config.redisUrl = env.REDIS_URL?.trim() || undefined;
  config.redisPrefix = env.TRACKER_REDIS_PREFIX ?? 'tracker:';
  config.webhooks = {
    allowPrivate: env.TRACKER_WEBHOOK_ALLOW_PRIVATE?.trim() === '1',
    timeoutMs: integer(env, 'TRACKER_WEBHOOK_TIMEOUT_MS', 10_000, 100, 300_000),
    maxFailures: integer(env, 'TRACKER_WEBHOOK_MAX_FAILURES', 10, 1, 1000),
    retryBaseMs: integer(env, 'TRACKER_WEBHOOK_RETRY_MS', 10_000, 10, 3600_000),
    pollMs: integer(env, 'TRACKER_WEBHOOK_POLL_MS', 30_000, 100, 86_400_000),
  };
  config.changeFeed = {
    retentionDays: integer(env, 'TRACKER_CHANGE_FEED_RETENTION_DAYS', 30, 1, 3650),
    gapSeconds: integer(env, 'TRACKER_CHANGE_FEED_GAP_S', 300, 1, 86_400),
  };
  config.bugCache = {
    entries: integer(env, 'TRACKER_CACHE_BUGS', 5_000, 0, 10_000_000),
    bytes: integer(env, 'TRACKER_CACHE_BUGS_MB', 32, 0, 65_536) * 1024 * 1024,
    checkWrites: env.TRACKER_CACHE_BUGS_CHECK?.trim() === '1',
  };
  config.fastPaths = onOrOff(env, 'TRACKER_FAST_PATHS');
  config.admission = {
    maxInFlight: integer(env, 'TRACKER_MAX_IN_FLIGHT', 32, 0, 100_000),
    maxQueue: integer(env, 'TRACKER_MAX_QUEUE', 1_000, 1, 1_000_000),
    maxWaitMs: integer(env, 'TRACKER_MAX_WAIT_MS', 1_000, 1, 600_000),
    turnBudgetMs: config.databaseUrl.startsWith('sqlite:') ? SQLITE_TURN_BUDGET_MS : 0,
  };
  config.rpc = { xml: onOrOff(env, 'TRACKER_XMLRPC'), json: onOrOff(env, 'TRACKER_JSONRPC') };
  if (config.redisUrl && !/^rediss?:\/\/\S+$/.test(config.redisUrl)) throw new ConfigError(`REDIS_URL must be redis://… or rediss://… (got '${withoutPassword(config.redisUrl)}')`);
  return config;
}
