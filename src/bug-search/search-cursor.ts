import { createHash } from 'node:crypto';
import { cursorPayload, signedCursor } from '../common/signed-cursor.js';
import type { SortedBug, SqlCondition } from '../bug/bug.types.js';

/**
 * Search Bugs' `next` cursor (issue 44): the last bug of a page with its sort keys' values and the digest of the
 * search it belongs to, signed (signedCursor): any instance continues any instance's paging.
 */
export function searchCursorOf(last: SortedBug, search: string, secret: string): string {
  return signedCursor({ i: last.id, k: last.keys, s: search }, 'search', secret);
}

/** The bug a cursor continues after, or undefined when it is malformed, altered or another search's. */
export function searchCursorPosition(cursor: string, search: string, secret: string): SortedBug | undefined {
  const payload = cursorPayload<{ i: number; k: Array<string | number | null>; s: string }>(cursor, 'search', secret);
  return payload?.s === search ? { id: payload.i, keys: payload.k } : undefined;
}

/** What makes two searches the same for paging: the compiled WHERE (the caller's visibility included) and the sort. */
export function searchDigest(where: SqlCondition, order: unknown): string {
  return createHash('sha256').update(JSON.stringify([where.sql, where.params, order])).digest('base64url').slice(0, 16);
}
