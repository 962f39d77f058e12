import { covers, furthest, parseGtidPosition } from './gtid.js';

describe('GTID positions', () => {
  it('reads MariaDB positions per domain; the empty text is the empty position', () => {
    expect(parseGtidPosition('0-1-100,1-2-7')).toEqual(new Map([[0, 100n], [1, 7n]]));
    expect(parseGtidPosition('')).toEqual(new Map());
    expect(parseGtidPosition(null)).toEqual(new Map());
    expect(() => parseGtidPosition('0-1')).toThrow("not a GTID: '0-1'");
  });

  it('covers a position when at least as far in every domain it names, whichever server wrote it', () => {
    const replica = parseGtidPosition('0-2-100,1-1-5');
    expect(covers(replica, parseGtidPosition('0-1-100'))).toBe(true);
    expect(covers(replica, parseGtidPosition('0-1-101'))).toBe(false);
    expect(covers(replica, parseGtidPosition('0-1-99,1-1-5'))).toBe(true);
    expect(covers(replica, parseGtidPosition('2-1-1'))).toBe(false);
    expect(covers(new Map(), parseGtidPosition(''))).toBe(true);
    // Sequence numbers beyond 2^53 compare exactly.
    expect(covers(parseGtidPosition('0-1-9007199254740993'), parseGtidPosition('0-1-9007199254740992'))).toBe(true);
  });

  it('merges two positions domain by domain', () => {
    expect(furthest(parseGtidPosition('0-1-5,1-1-9'), parseGtidPosition('0-1-7,2-1-1'))).toEqual(new Map([[0, 7n], [1, 9n], [2, 1n]]));
  });
});
