import { advance, cursorOf, positionOf, type FeedPosition } from './feed-position.js';

const limits = { now: 10_000, gapSeconds: 300, maxMissing: 3 };
const row = (id: number, at = 10_000) => ({ id, at });
const start: FeedPosition = { high: 10, highAt: 9_000, missing: [] };

describe('advance (the feed position)', () => {
  it('hands out the rows above the position in number order and moves to the last', () => {
    const { delivered, next } = advance(start, [row(11), row(12)], limits);
    expect(delivered.map((r) => r.id)).toEqual([11, 12]);
    expect(next).toEqual({ high: 12, highAt: 10_000, missing: [] });
  });

  it('keeps a number skipped by a newer change as missing, and hands it out when its row shows up', () => {
    const first = advance(start, [row(11), row(13)], limits);
    expect(first.next.missing).toEqual([[12, 10_000]]);
    const second = advance(first.next, [row(12, 9_990), row(14)], limits);
    expect(second.delivered.map((r) => r.id)).toEqual([12, 14]);
    expect(second.next).toEqual({ high: 14, highAt: 10_000, missing: [] });
  });

  it('lets a missing number go once it has been missing longer than a transaction lives (rolled back)', () => {
    const waiting: FeedPosition = { high: 13, highAt: 9_000, missing: [[12, 9_000]] };
    expect(advance(waiting, [], { ...limits, now: 9_200 }).next.missing).toEqual([[12, 9_000]]);
    expect(advance(waiting, [], { ...limits, now: 9_301 }).next.missing).toEqual([]);
  });

  it('keeps no gap below a change older than a transaction lives', () => {
    expect(advance(start, [row(15, 9_000)], limits).next).toEqual({ high: 15, highAt: 9_000, missing: [] });
  });

  it('stops before a gap it cannot keep, and says it waits', () => {
    const { delivered, next, blocked } = advance(start, [row(11), row(16)], limits);
    expect(delivered.map((r) => r.id)).toEqual([11]);
    expect(blocked).toBe(true);
    expect(next).toEqual({ high: 11, highAt: 10_000, missing: [] });
  });
});

describe('the cursor', () => {
  const reader = { userId: 7, groupIds: [3, 1] };
  const position: FeedPosition = { high: 42, highAt: 1_700_000_000, missing: [[40, 1_700_000_000]] };

  it('reads back the position it was made from, for the same reader, on any instance (the site secret)', () => {
    expect(positionOf(cursorOf(position, reader, 's3cret'), { userId: 7, groupIds: [1, 3] }, 's3cret')).toEqual(position);
  });

  it('refuses an altered, a foreign or a malformed cursor', () => {
    const cursor = cursorOf(position, reader, 's3cret');
    const [body, signature] = cursor.split('.');
    const altered = Buffer.from(Buffer.from(body, 'base64url').toString().replace('42', '41')).toString('base64url');
    expect(positionOf(`${altered}.${signature}`, reader, 's3cret')).toBe('invalid');
    expect(positionOf(cursor, reader, 'other')).toBe('invalid');
    expect(positionOf('garbage', reader, 's3cret')).toBe('invalid');
  });

  it('belongs to its reader and their groups: another user, or new groups, must resync', () => {
    const cursor = cursorOf(position, reader, 's3cret');
    expect(positionOf(cursor, { userId: 8, groupIds: [1, 3] }, 's3cret')).toBe('other_reader');
    expect(positionOf(cursor, { userId: 7, groupIds: [1] }, 's3cret')).toBe('other_reader');
  });
});
