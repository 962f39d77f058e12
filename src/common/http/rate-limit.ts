import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { RateRule } from '../../config/app-config.js';
import type { Credentials } from './request-params.js';

/**
 * Rate limits (issue 15, beyond Bugzilla 5.0): a token bucket per caller and kind of request, kept as a generic
 * cell rate (GCRA): one number per bucket, the "theoretical arrival time" `tat` (ms) at which the bucket is full
 * again. A request is admitted when the bucket holds a token: `max(tat, now) - now <= (burst - 1) × interval`.
 * The stores (src/ratelimit) keep `tat` shared by all instances and apply `nextCell` atomically.
 */
export type RequestKind = 'read' | 'write';

export interface RateDecision {
  allowed: boolean;
  /** The bucket's size (X-RateLimit-Limit). */
  limit: number;
  /** Requests still admitted at once after this one (X-RateLimit-Remaining). */
  remaining: number;
  /** Seconds until the bucket is full again (X-RateLimit-Reset). */
  resetSeconds: number;
  /** Seconds until the next request is admitted (Retry-After), 0 when admitted. */
  retryAfterSeconds: number;
}

/** What the request hook asks: `undefined` when that kind of request is not limited. */
export interface RateLimiter {
  take(kind: RequestKind, bucket: string): Promise<RateDecision | undefined>;
  /** Puts back the token a request took (a conditional GET answered 304, issue 44). */
  giveBack(kind: RequestKind, bucket: string): Promise<void>;
}

/** The token each admitted request took, until its answer is known. */
const takenTokens = new WeakMap<object, () => Promise<void>>();

/** Notes that `request` took a token that `giveBack` puts back. */
export function noteTakenToken(request: object, giveBack: () => Promise<void>): void {
  takenTokens.set(request, giveBack);
}

/**
 * An unchanged poll (a conditional GET answered 304, issue 44) does not count against the rate limit: the token the
 * request took goes back to its bucket before the answer leaves (so the client's next request finds it). Undefined
 * when the request took none; a failure leaves the token taken.
 */
export function giveBackTakenToken(request: object): Promise<void> | undefined {
  const giveBack = takenTokens.get(request);
  takenTokens.delete(request);
  return giveBack?.().catch(() => undefined);
}

/** How far one token moves a bucket's `tat`; a token given back moves it that much earlier (never below 0). */
export function tokenInterval(rule: RateRule): number {
  return 60_000 / rule.perMinute;
}

/** The bucket's state after one request at `now`: its new `tat` (unchanged when refused) and the decision. */
export function nextCell(tat: number, now: number, rule: RateRule): { tat: number; decision: RateDecision } {
  const interval = tokenInterval(rule);
  const tolerance = interval * (rule.burst - 1);
  const start = Math.max(tat, now);
  const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));
  if (start - now > tolerance) {
    return {
      tat,
      decision: { allowed: false, limit: rule.burst, remaining: 0, resetSeconds: seconds(start - now), retryAfterSeconds: Math.max(1, seconds(start - now - tolerance)) },
    };
  }
  const next = start + interval;
  const remaining = Math.max(0, Math.floor((tolerance - (next - now)) / interval) + 1);
  return { tat: next, decision: { allowed: true, limit: rule.burst, remaining, resetSeconds: seconds(next - now), retryAfterSeconds: 0 } };
}

/**
 * The bucket of a request: the credential as sent (login, else token, else API key — the order credentials are
 * resolved in), digested so that no secret is stored; the client address for anonymous requests. Checked before
 * the credential is: a caller with a wrong key is limited per that key.
 */
export function bucketOf(kind: RequestKind, credentials: Credentials, ip: string): string {
  // Hex: the key column compares case-insensitively, as every string column here.
  const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 40);
  const who = credentials.login !== undefined && credentials.password !== undefined
    ? `login:${digest(credentials.login.toLowerCase())}`
    : credentials.token ? `token:${digest(credentials.token)}`
      : credentials.apiKey ? `key:${digest(credentials.apiKey)}`
        : `ip:${ip}`;
  return `${kind}:${who}`;
}

/** The X-RateLimit-* headers (and Retry-After when refused), on every response of a limited kind. */
export function setRateHeaders(reply: FastifyReply, decision: RateDecision): void {
  void reply.header('X-RateLimit-Limit', String(decision.limit));
  void reply.header('X-RateLimit-Remaining', String(decision.remaining));
  void reply.header('X-RateLimit-Reset', String(decision.resetSeconds));
  if (!decision.allowed) void reply.header('Retry-After', String(decision.retryAfterSeconds));
}
