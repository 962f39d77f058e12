import { createHash } from 'node:crypto';
import { cursorPayload, signedCursor } from '../common/signed-cursor.js';

/**
 * Where a reader of the change feed stands (issue 44; docs/mirror.md, "How the feed and the cursors work"). Change numbers are generated
 * ids of bug_changes: handed out in the order the writes reach the table, committed in another order on MariaDB. A
 * number below the highest seen that is not there yet may belong to a transaction still open, so the position keeps
 * it as `missing` and the next read asks for it again, until its row shows up or it is older than any transaction
 * lives (then it was rolled back). Nothing is kept on the server: the position travels in the cursor.
 */
export interface FeedPosition {
  /** The highest change number handed out. */
  high: number;
  /** When that change was written (epoch seconds), 0 before any: how old the position is (the retained window). */
  highAt: number;
  /** Numbers below `high` not seen yet, each with the time (epoch seconds) of the first change seen after it. */
  missing: ReadonlyArray<readonly [number, number]>;
}

/** A change row as the feed pages it. */
export interface NumberedChange {
  id: number;
  /** When it was written, epoch seconds. */
  at: number;
}

export interface AdvanceLimits {
  /** The reader's clock, epoch seconds. */
  now: number;
  /** How long a transaction may stay open after writing its change row: a number missing longer was rolled back. */
  gapSeconds: number;
  /** The most numbers a position keeps missing (its cursor's size); past it the position waits for them to settle. */
  maxMissing: number;
}

/**
 * The changes of `rows` (by number: the missing ones asked for again and those above `from.high`) to hand out, and
 * the position after them. A row above a gap is handed out only while the position can keep the gap's numbers; a gap
 * that opened before a change older than `gapSeconds` is not kept (its transaction ended long ago).
 */
export function advance<T extends NumberedChange>(from: FeedPosition, rows: readonly T[], limits: AdvanceLimits): { delivered: T[]; next: FeedPosition; blocked: boolean } {
  const settledBefore = limits.now - limits.gapSeconds;
  const missing = new Map(from.missing.map(([id, since]) => [id, since]));
  const delivered: T[] = [];
  let { high, highAt } = from;
  let blocked = false;
  for (const row of rows) {
    if (row.id <= from.high) {
      if (missing.delete(row.id)) delivered.push(row);
      continue;
    }
    const span = row.id - high - 1;
    const keepsGap = span > 0 && row.at >= settledBefore;
    if (keepsGap && missing.size + span > limits.maxMissing) {
      blocked = true;
      break;
    }
    if (keepsGap) for (let id = high + 1; id < row.id; id++) missing.set(id, row.at);
    delivered.push(row);
    high = row.id;
    highAt = row.at;
  }
  const stillOpen = [...missing].filter(([, since]) => since >= settledBefore).sort(([a], [b]) => a - b);
  return { delivered, next: { high, highAt, missing: stillOpen }, blocked };
}

/** Whose position a cursor is: the caller and their groups (a change of groups changes what they may see). */
export interface Reader {
  userId: number;
  groupIds: readonly number[];
}

export type CursorProblem = 'invalid' | 'other_reader';

/** The cursor: the position and a digest of its reader, signed (signedCursor). */
export function cursorOf(position: FeedPosition, reader: Reader, secret: string): string {
  return signedCursor({ h: position.high, a: position.highAt, g: position.missing, r: readerDigest(reader) }, 'changes', secret);
}

/** The position a cursor names, or why it names none for this reader. */
export function positionOf(cursor: string, reader: Reader, secret: string): FeedPosition | CursorProblem {
  const decoded = cursorPayload<{ h: number; a: number; g: Array<[number, number]>; r: string }>(cursor, 'changes', secret);
  if (!decoded) return 'invalid';
  if (decoded.r !== readerDigest(reader)) return 'other_reader';
  return { high: decoded.h, highAt: decoded.a, missing: decoded.g };
}

function readerDigest(reader: Reader): string {
  const groups = [...reader.groupIds].sort((a, b) => a - b).join(',');
  return createHash('sha256').update(`${reader.userId}:${groups}`).digest('base64url').slice(0, 12);
}
