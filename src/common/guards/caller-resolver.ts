import type { Caller } from '../caller.js';
import type { Credentials } from '../http/request-params.js';

/** Implemented by the auth module: turns a request's credentials into a Caller (or throws the right error). */
export interface CallerResolver {
  resolve(credentials: Credentials, ip: string): Promise<Caller>;
}

export const CALLER_RESOLVER = Symbol('CallerResolver');
