import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { Errors, TrackerError } from '../common/errors/index.js';
import { RPC_METHODS, restCallOf, type RestCall, type RpcMethod } from './rpc-methods.js';
import type { RpcCall } from './rpc-values.js';

/** What a method answered: its result, or the error of the one catalogue as REST gave it (code and message). */
export type RpcOutcome = { result: unknown } | { fault: { code: number; message: string } };

/**
 * The one way both protocols call a method: as the REST request 5.0's REST layer maps it to, made inside this
 * process (Fastify's inject) so that it runs the route's whole pipeline — the request hook (admission, rate limit,
 * credentials), the access guard, the controller and its service, field selection, the exception filter. No rule
 * is repeated here; the adapter only chooses the route and carries the params (credentials among them, in any of
 * the spellings REST takes) as the route's query or body.
 */
@Injectable()
export class RpcDispatcher {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** The method of a name, undefined for one 5.0 does not serve (or Tracker serves no route of). */
  methodOf(name: string): RpcMethod | undefined {
    return Object.prototype.hasOwnProperty.call(RPC_METHODS, name) ? RPC_METHODS[name] : undefined;
  }

  /** Calls `method` (the one of `call.method`) with the call's params, for a client at `ip`. */
  async call(method: RpcMethod, { method: name, params }: RpcCall, ip: string): Promise<RpcOutcome> {
    let calls: Array<[RestCall, Record<string, unknown>]>;
    try {
      const bugs = Array.isArray(params.ids) ? params.ids : [params.ids];
      calls = method.perBug && bugs.length > 1
        ? bugs.map((bug) => ({ ...params, ids: [bug] })).map((one) => [restCallOf(name, method, one), one])
        : [[restCallOf(name, method, params), params]];
    } catch (error) {
      if (error instanceof TrackerError) return { fault: { code: error.code, message: error.message } };
      throw error;
    }
    const results: unknown[] = [];
    for (const [call, callParams] of calls) {
      const outcome = await this.rest(call, callParams, ip);
      if ('fault' in outcome) return outcome;
      results.push(outcome.result);
    }
    const result = results.length === 1 ? results[0] : { ids: results.flatMap((one) => (one as { ids: unknown[] }).ids) };
    return { result: method.answer ? method.answer(result) : result };
  }

  private async rest(call: RestCall, params: Record<string, unknown>, ip: string): Promise<RpcOutcome> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const isRead = call.verb === 'GET';
    // The protocol's JSONP callback is the protocol's (JSON-RPC over GET); the route answers plain JSON.
    const { callback: _callback, ...forwarded } = params;
    const answered = await fastify.inject({
      method: call.verb,
      url: `/rest/${call.path}`,
      query: isRead ? queryOf(forwarded) : undefined,
      headers: { accept: 'application/json', ...(isRead ? {} : { 'content-type': 'application/json' }) },
      payload: isRead ? undefined : JSON.stringify(forwarded),
      remoteAddress: ip,
    });
    const body = parsed(answered.body);
    if (answered.statusCode === 200 && body.ok) return { result: body.value };
    const error = (body.ok ? body.value : null) as { code?: unknown; message?: unknown } | null;
    if (typeof error?.code === 'number' && typeof error.message === 'string') return { fault: { code: error.code, message: error.message } };
    const internal = TrackerError.of(Errors.INTERNAL);
    return { fault: { code: internal.code, message: internal.message } };
  }
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * A GET route's params as its query: lists as repeated keys, booleans as 1 and 0, a struct (which no GET route
 * takes) as its JSON, for the route to refuse as REST would.
 */
function queryOf(params: Record<string, unknown>): Record<string, string | string[]> {
  const scalar = (value: unknown): string => (typeof value === 'boolean' ? (value ? '1' : '0') : typeof value === 'object' ? JSON.stringify(value) : String(value));
  // No prototype: a param named __proto__ is a param like any other (the route refuses it as REST does).
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    query[key] = Array.isArray(value) ? value.filter((item) => item !== null && item !== undefined).map(scalar) : scalar(value);
  }
  return query;
}
