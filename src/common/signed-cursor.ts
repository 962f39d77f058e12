import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An opaque cursor a client hands back (issue 44: the change feed's, Search Bugs' next page): `payload` as JSON in
 * base64url, then an HMAC-SHA256 of it under the site secret and `purpose`. Every instance has the secret, so any
 * instance reads any instance's cursor; nothing is kept on the server, and no cursor can be altered or used for
 * another purpose.
 */
export function signedCursor(payload: unknown, purpose: string, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${signature(body, purpose, secret)}`;
}

/** The payload of a cursor signedCursor made for `purpose`, or undefined when it is malformed or altered. */
export function cursorPayload<T>(cursor: string, purpose: string, secret: string): T | undefined {
  const [body, signed, ...rest] = cursor.split('.');
  if (!body || !signed || rest.length) return undefined;
  const expected = Buffer.from(signature(body, purpose, secret));
  const given = Buffer.from(signed);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
}

function signature(body: string, purpose: string, secret: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${body}`).digest('base64url').slice(0, 32);
}
