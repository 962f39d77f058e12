import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Caller } from '../caller.js';
import type { FieldSelection } from '../fields/field-selection.js';
import type { RequestParams } from './request-params.js';
import type { CompanionFound } from './companion-read.js';
import type { PresumedCaller } from '../guards/caller-resolver.js';

/** What is known about one request once the request hook has run (request-hook.ts), before any guard. */
export interface RequestContext {
  params: RequestParams;
  caller: Caller;
  selection: FieldSelection;
  /** The request's one timestamp (seconds precision): every row of one change carries it. */
  now: Date;
  ip: string;
  /** The route's companion read, when it was read with the credential (see CompanionRead). */
  companion?: CompanionFound;
  /** Set when `caller` is presumed (src/fast-paths.ts): the route's write must commit under its condition. */
  presumed?: PresumedCaller;
}

/**
 * What a write for this request commits under (Db.transaction's conditions): for a presumed caller, its credential
 * still naming it; nothing for a caller resolved the whole way.
 */
export function commitConditionsOf(context: Pick<RequestContext, 'presumed'>): Array<PresumedCaller['condition']> {
  return context.presumed ? [context.presumed.condition] : [];
}

/**
 * Whether the request's caller is taken on trust (a presumed caller): what the credential check would have refused
 * is checked by the write itself (its commit condition), and a visibility check the resolution would have made first
 * is made under the write's locks.
 */
export function callerOnTrust(context: Pick<RequestContext, 'presumed'>): boolean {
  return context.presumed !== undefined;
}

const CONTEXT = Symbol('tracker.request-context');
const REFUSAL = Symbol('tracker.credentials-refusal');

export function setRequestContext(request: object, context: RequestContext): void {
  (request as Record<symbol, RequestContext>)[CONTEXT] = context;
}

export function requestContext(request: object): RequestContext {
  const context = (request as Record<symbol, RequestContext | undefined>)[CONTEXT];
  if (!context) throw new Error('request context read before the request hook ran');
  return context;
}

/**
 * Credentials the request hook could not turn into a caller: the error is kept for the access guard to throw, so
 * that it reaches the route's own exception filters (logout and valid_login answer a dead token, DeadTokenAnswer).
 */
export function setCredentialsRefusal(request: object, error: unknown): void {
  (request as Record<symbol, { error: unknown }>)[REFUSAL] = { error };
}

export function credentialsRefusal(request: object): { error: unknown } | undefined {
  return (request as Record<symbol, { error: unknown } | undefined>)[REFUSAL];
}

export function peekRequestContext(request: object): RequestContext | undefined {
  return (request as Record<symbol, RequestContext | undefined>)[CONTEXT];
}

const fromContext = <K extends keyof RequestContext>(key: K) =>
  createParamDecorator((_: unknown, ctx: ExecutionContext) => requestContext(ctx.switchToHttp().getRequest())[key]);

/** Handler parameter decorators: `@Params() params`, `@CurrentCaller() caller`, `@Selection() selection`, `@Now() now`. */
export const Params = fromContext('params');
export const CurrentCaller = fromContext('caller');
export const Selection = fromContext('selection');
export const Now = fromContext('now');
export const Ctx = createParamDecorator((_: unknown, ctx: ExecutionContext) => requestContext(ctx.switchToHttp().getRequest()));
