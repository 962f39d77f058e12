import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Caller } from '../caller.js';
import type { FieldSelection } from '../fields/field-selection.js';
import type { RequestParams } from './request-params.js';

/** What is known about one request once the access guard has run. */
export interface RequestContext {
  params: RequestParams;
  caller: Caller;
  selection: FieldSelection;
  /** The request's one timestamp (seconds precision): every row of one change carries it. */
  now: Date;
  ip: string;
}

const CONTEXT = Symbol('tracker.request-context');

export function setRequestContext(request: object, context: RequestContext): void {
  (request as Record<symbol, RequestContext>)[CONTEXT] = context;
}

export function requestContext(request: object): RequestContext {
  const context = (request as Record<symbol, RequestContext | undefined>)[CONTEXT];
  if (!context) throw new Error('request context read before the access guard ran');
  return context;
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
