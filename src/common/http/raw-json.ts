import { hash } from 'node:crypto';
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

  /**
   * An answer made of kept JSON and a few texts of this request: its ETag is derived from the inputs, the kept
   * ones by their digests, instead of hashing the whole text again (a bug's kept JSON is most of a Get Bug answer
   * whose update_token changes every second). `inputs` must determine `text`, the first naming the answer's shape.
   * Inputs are joined with NUL, which JSON text never holds raw, and a digest is marked by SOH: distinct inputs
   * hash distinct strings.
   */
  static derived(text: string, inputs: ReadonlyArray<string | RawJson>): RawJson {
    const parts = inputs.map((input) => (typeof input === 'string' ? input : `\u0001${input.digest()}`));
    return new RawJson(text, `"${hash('sha1', `${parts.join('\0')}\0${JSON_TYPE}`, 'base64')}"`);
  }

  private textDigest?: string;

  /** SHA-1 of the text, computed once: what a derived answer's ETag hashes in place of this text. */
  digest(): string {
    return (this.textDigest ??= hash('sha1', this.text, 'base64'));
  }
}

/** Marks the reply as sending `json`: its content type, and its ETag when it came with one. */
export function sendsRawJson(reply: FastifyReply, json: RawJson): void {
  void reply.header('content-type', JSON_TYPE);
  if (json.etag !== undefined) void reply.header('etag', json.etag);
}

/** `{"a":1}` + `{"b":2}` → `{"a":1,"b":2}`: two objects' JSON texts joined, the first's fields first. */
export function joinJsonObjects(first: string, second: string): string {
  if (second === '{}') return first;
  if (first === '{}') return second;
  return `${first.slice(0, -1)},${second.slice(1)}`;
}
