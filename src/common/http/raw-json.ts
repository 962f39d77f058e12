import type { FastifyReply } from 'fastify';
import { etagOf, JSON_TYPE } from './output-format.js';

/**
 * A response body a service has already serialised, with the request's field selection already applied: the
 * FieldSelectionInterceptor sends it as it is (as `application/json`; JSONP, HTML and ETag still apply in onSend).
 * For answers assembled from kept JSON (Get Bug, Search Bugs), where parsing back into objects would undo the gain.
 */
export class RawJson {
  /**
   * `etag`, when given, is the ETag of `text` sent as JSON (see `tagged`): the onSend hook uses it instead of
   * hashing the body again, as long as the body goes out as that JSON.
   */
  constructor(readonly text: string, readonly etag?: string) {}

  /** The text with its ETag, for an answer that is kept and sent many times: hashed once, here. */
  static tagged(text: string): RawJson {
    return new RawJson(text, etagOf(text, JSON_TYPE));
  }
}

/** Marks the reply as sending `json`: its content type, and its ETag when it came with one. */
export function sendsRawJson(reply: FastifyReply, json: RawJson): void {
  void reply.header('content-type', JSON_TYPE);
  if (json.etag !== undefined) void reply.header('etag', json.etag);
}

/** `{"a":1}` + `{b: 2}` → `{"a":1,"b":2}`: fields appended to an object's JSON text, in order. */
export function appendJsonFields(objectJson: string, fields: Record<string, unknown>): string {
  const more = JSON.stringify(fields);
  if (more === '{}') return objectJson;
  if (objectJson === '{}') return more;
  return `${objectJson.slice(0, -1)},${more.slice(1)}`;
}
