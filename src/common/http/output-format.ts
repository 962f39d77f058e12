import { hash } from 'node:crypto';
import { Errors, TrackerError } from '../errors/index.js';

/** Output types in Bugzilla's order of preference (misc.md, "Response format selection"). */
const OUTPUT_TYPES = ['application/json', 'application/javascript', 'text/javascript', 'text/html'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

/**
 * Picks the output type from an Accept header: types without q get 1, 0.999, 0.998 … in order; the allowed type
 * ranked highest wins; no Accept, or nothing allowed in it (including a bare star type), gives JSON.
 */
export function negotiate(accept: string | undefined): OutputType {
  if (!accept) return 'application/json';
  let best: { type: OutputType; q: number } | undefined;
  accept.split(',').forEach((part, index) => {
    const [rawType, ...attributes] = part.split(';').map((s) => s.trim());
    const type = rawType.toLowerCase() as OutputType;
    if (!OUTPUT_TYPES.includes(type)) return;
    const qAttribute = attributes.find((a) => a.startsWith('q='));
    const q = qAttribute ? Number(qAttribute.slice(2)) || 0 : 1 - index / 1000;
    if (!best || q > best.q || (q === best.q && OUTPUT_TYPES.indexOf(type) < OUTPUT_TYPES.indexOf(best.type))) best = { type, q };
  });
  return best?.type ?? 'application/json';
}

const CALLBACK = /^[A-Za-z0-9_.[\]]+$/;

/** JSONP callback names: letters, digits and `[]._` only (error 32611 otherwise). */
export function validateCallback(callback: string | undefined): string | undefined {
  if (callback === undefined) return undefined;
  const trimmed = callback.trim();
  if (!CALLBACK.test(trimmed)) throw TrackerError.of(Errors.INVALID_CALLBACK);
  return trimmed;
}

export function isValidCallback(callback: string | undefined): callback is string {
  return callback !== undefined && CALLBACK.test(callback.trim());
}

export function jsonpBody(callback: string, json: string): string {
  return `/**/${callback.trim()}(${json})`;
}

/** Bugzilla::Util::html_quote of 5.0, which its HTML page uses: named entities, and `@` obscured as `&#64;`. */
const HTML_QUOTES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '@': '&#64;' };
const escapeHtml = (text: string) => text.replace(/[&<>"@]/g, (c) => HTML_QUOTES[c]);

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
}

/** The HTML page for browsers: the result as indented JSON with sorted keys, escaped, in a <pre>. */
export function htmlBody(json: string): string {
  let pretty = json;
  try {
    pretty = JSON.stringify(sortKeys(JSON.parse(json)), null, 2);
  } catch {
    /* not JSON: show as is */
  }
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Tracker::REST::API</title></head>\n<body><pre>${escapeHtml(pretty)}</pre></body></html>\n`;
}

/** The content type of JSON answers (the onSend hook names every response's type with its charset). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * ETag of a response: SHA-1 (base64) over the body's bytes and its content type. Bugzilla uses MD5; clients treat
 * the tag as opaque, and SHA-1 runs at twice MD5's speed here (a 50-bug page is ~100 KB, hashed on every GET).
 */
export function etagOf(body: string, contentType: string): string {
  return `"${hash('sha1', `${body}${contentType}`, 'base64')}"`;
}

export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/"/g, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '').replace(/"/g, '');
    return value === '*' || value === bare;
  });
}
