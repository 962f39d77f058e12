import type { Caller } from '../caller.js';
import type { Credentials } from '../http/request-params.js';
import type { CompanionFound, CompanionRead, CompanionRequest } from '../http/companion-read.js';

/** A route's companion read, asked for along with the caller (see CompanionRead). */
export interface CompanionAsk {
  read: CompanionRead<unknown>;
  request: CompanionRequest;
}

/** Implemented by the auth module: turns a request's credentials into a Caller (or throws the right error). */
export interface CallerResolver {
  /** With `companion`, its value comes back when it could be read with the credential for exactly this caller. */
  resolve(credentials: Credentials, ip: string, companion?: CompanionAsk): Promise<{ caller: Caller; companion?: CompanionFound }>;
  /** The caller the credential named last on this instance, taken on trust until a write confirms it (PresumedCaller). */
  presume(credentials: Credentials, ip: string): PresumedCaller | undefined;
}

/**
 * A write's caller taken on trust: the one its API key or login token named last on this instance, under the settings
 * mark read then (issue 13: the credential's statement was a round trip of its own before the write's). The transaction
 * carries the credential's check as its commit condition (Db.transaction), so nothing commits unless the credential
 * still names exactly that caller; a request that did not commit so is checked the whole way and, for another
 * caller, run again (presumesCaller in src/fast-paths.ts).
 */
export interface PresumedCaller {
  readonly caller: Caller;
  /**
   * Db.transaction's CommitCondition: a statement failing unless the credential still names `caller`; `failed` once a
   * transaction failed on it.
   */
  readonly condition: { readonly statement: { sql: string; params: readonly unknown[] }; met: boolean; failed?: boolean };
  /** The caller the credential names now, checked the whole way (its refusal thrown): `caller` itself when it still is. */
  resolve(): Promise<Caller>;
}

export const CALLER_RESOLVER = Symbol('CallerResolver');
