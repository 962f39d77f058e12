import { Errors, TrackerError } from '../common/errors/index.js';
import { validateCallback } from '../common/http/output-format.js';
import type { RpcCall } from './rpc-values.js';

/**
 * JSON-RPC as Bugzilla 5.0 serves it (JSON::RPC's server under Bugzilla::WebService::Server::JSONRPC): 1.0
 * envelopes (`params` a list, answered `{result, error, id}`) and 1.1 ones (a `version` member, answered
 * `{version: "1.1", result}`); a 2.0 envelope has no `version`, so 5.0 reads it as 1.0, as here. Every error is
 * answered with HTTP 200 in the envelope.
 */
export interface JsonRpcEnvelope {
  /** 1.1 when the request names a version (5.0: any `version`); 1.0 otherwise. */
  v11: boolean;
  /** The request's id; absent in a 1.0 notification, which gets no answer. */
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** An error before or around the call, with the envelope to answer it in. */
export class JsonRpcError extends Error {
  constructor(readonly envelope: JsonRpcEnvelope, readonly code: number, message: string) {
    super(message);
  }

  static of(envelope: JsonRpcEnvelope, error: TrackerError): JsonRpcError {
    return new JsonRpcError(envelope, error.code, error.message);
  }
}

/** A POST body: one JSON object (JSON::RPC answers anything else 100201, in a 1.1 envelope without id). */
export function envelopeOfPost(body: string | undefined): JsonRpcEnvelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw JsonRpcError.of({ v11: true }, TrackerError.of(Errors.JSON_RPC_PARSE_ERROR));
  const object = parsed as Record<string, unknown>;
  return { v11: object.version !== undefined && object.version !== null && object.version !== '', id: object.id ?? undefined, method: object.method, params: object.params };
}

/** A JSONP callback (the GET form's, or a POST's in its query) checked; a bad one is error 32611 in the envelope. */
export function checkCallback(envelope: JsonRpcEnvelope, callback: string | undefined): void {
  try {
    validateCallback(callback);
  } catch (error) {
    throw JsonRpcError.of(envelope, error as TrackerError);
  }
}

/**
 * The GET form (JSON-RPC 2.0 over HTTP, as 5.0 reads it): `method`, `params` (JSON, not base64), `id` (the
 * installation's urlbase when absent, so that an answer is sent), `version` and `callback` in the query.
 */
export function envelopeOfGet(query: Record<string, unknown>, urlbase: string): JsonRpcEnvelope {
  const text = (key: string) => {
    const value = query[key];
    return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
  };
  const version = text('version');
  const envelope: JsonRpcEnvelope = { v11: version === '1.1', id: text('id') ?? urlbase };
  checkCallback(envelope, text('callback'));
  const method = text('method');
  if (!method) throw JsonRpcError.of(envelope, TrackerError.of(Errors.JSON_RPC_GET_METHOD_REQUIRED));
  const params = text('params');
  if (params === undefined) return { ...envelope, method, params: envelope.v11 ? {} : [] };
  try {
    return { ...envelope, method, params: JSON.parse(params) };
  } catch (error) {
    throw JsonRpcError.of(envelope, TrackerError.of(Errors.JSON_RPC_GET_INVALID_PARAMS, { params, reason: (error as Error).message }));
  }
}

/** JSON::RPC's checks of the envelope, in its order: the method's name, then 1.0's list of params. */
export function callOf(envelope: JsonRpcEnvelope, isKnown: (method: string) => boolean): RpcCall {
  const { method, params } = envelope;
  if (method === undefined || method === null) throw JsonRpcError.of(envelope, TrackerError.of(Errors.JSON_RPC_METHOD_MISSING));
  if (typeof method !== 'string' || /[^-._a-zA-Z0-9]/.test(method)) throw JsonRpcError.of(envelope, TrackerError.of(Errors.JSON_RPC_METHOD_INVALID));
  if (!isKnown(method)) throw JsonRpcError.of(envelope, TrackerError.of(Errors.JSON_RPC_NO_SUCH_METHOD, { method }));
  if (!envelope.v11 && !Array.isArray(params)) throw JsonRpcError.of(envelope, TrackerError.of(Errors.JSON_RPC_1_0_PARAMS));
  const struct: unknown = Array.isArray(params) ? params[0] : params;
  if (struct !== undefined && struct !== null && (typeof struct !== 'object' || Array.isArray(struct))) {
    throw JsonRpcError.of(envelope, TrackerError.of(Errors.JSON_INVALID_PARAMS, { reason: 'the params must be one object' }));
  }
  return { method, params: (struct as Record<string, unknown> | null | undefined) ?? {} };
}

/** The answer of a call that succeeded; '' for a 1.0 notification (no id). */
export function resultBody(envelope: JsonRpcEnvelope, result: unknown): string {
  if (envelope.v11) return JSON.stringify({ version: '1.1', result });
  if (envelope.id === undefined) return '';
  return JSON.stringify({ error: null, id: envelope.id, result });
}

/**
 * The answer of an error. 5.0 moves its own codes up by 100000 and JSON::RPC moves them back down, so they arrive
 * as they are, except the negative ones, which stay 100000 higher (-32000 → 68000).
 */
export function errorBody(envelope: JsonRpcEnvelope, code: number, message: string): string {
  const sent = code < 0 ? code + 100000 : code;
  if (envelope.v11) return JSON.stringify({ version: '1.1', error: { name: 'JSONRPCError', code: sent, message }, ...(envelope.id === undefined ? {} : { id: envelope.id }) });
  if (envelope.id === undefined) return '';
  return JSON.stringify({ error: { code: sent, message }, id: envelope.id, result: null });
}
