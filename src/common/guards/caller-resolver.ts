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
}

export const CALLER_RESOLVER = Symbol('CallerResolver');
