import { TrackerError } from '../errors/index.js';
import { errorCode } from '../errors/testing.js';
import { parseDateInput, parseDeadline, toApiDate, toApiDateTime, toDbDateTime } from './datetime.js';


describe('parseDateInput — misc.md "Fields declared as dates are converted on input"', () => {
  const iso = (v: string) => parseDateInput(v, 'new_since').toISOString();

  it('accepts YYYY-MM-DD as midnight UTC', () => {
    expect(iso('2014-09-23')).toBe('2014-09-23T00:00:00.000Z');
  });

  it('accepts YYYY-MM-DD hh:mm:ss (no zone = UTC)', () => {
    expect(iso('2014-09-23 19:12:17')).toBe('2014-09-23T19:12:17.000Z');
  });

  it('accepts YYYY.MM.DD, with or without a time', () => {
    expect(iso('2014.09.23')).toBe('2014-09-23T00:00:00.000Z');
    expect(iso('2014.09.23 01:02:03')).toBe('2014-09-23T01:02:03.000Z');
  });

  it('accepts ISO-8601 with Z', () => {
    expect(iso('2014-09-23T19:12:17Z')).toBe('2014-09-23T19:12:17.000Z');
  });

  it('accepts ISO-8601 with a numeric offset and converts to UTC', () => {
    expect(iso('2014-09-23T19:12:17+02:00')).toBe('2014-09-23T17:12:17.000Z');
    expect(iso('2014-09-23T19:12:17-0130')).toBe('2014-09-23T20:42:17.000Z');
    expect(iso('2014-09-23T19:12:17+02')).toBe('2014-09-23T17:12:17.000Z');
  });

  it('accepts ISO-8601 basic form YYYYMMDDThh:mm:ss and YYYYMMDD', () => {
    expect(iso('20140923T19:12:17')).toBe('2014-09-23T19:12:17.000Z');
    expect(iso('20140923T191217Z')).toBe('2014-09-23T19:12:17.000Z');
    expect(iso('20140923')).toBe('2014-09-23T00:00:00.000Z');
  });

  it('accepts fractional seconds and hh:mm without seconds', () => {
    expect(iso('2014-09-23T19:12:17.250Z')).toBe('2014-09-23T19:12:17.250Z');
    expect(iso('2014-09-23 19:12')).toBe('2014-09-23T19:12:00.000Z');
  });

  it('trims surrounding blanks', () => {
    expect(iso('  2014-09-23  ')).toBe('2014-09-23T00:00:00.000Z');
  });

  it('returns a copy of a valid Date', () => {
    const d = new Date('2020-01-01T00:00:00Z');
    const parsed = parseDateInput(d, 'x');
    expect(parsed.getTime()).toBe(d.getTime());
    expect(parsed).not.toBe(d);
  });

  it.each([
    ['garbage', 'yesterday'],
    ['empty', ''],
    ['impossible day', '2014-02-30'],
    ['impossible month', '2014-13-01'],
    ['impossible hour', '2014-09-23 24:00:00'],
    ['impossible minute', '2014-09-23T10:60:00Z'],
    ['mixed separators', '2014-09.23'],
    ['bad zone', '2014-09-23T10:00:00+25:00'],
    ['trailing junk', '2014-09-23T10:00:00Zfoo'],
  ])('refuses %s with 56 (illegal_date)', (_label, value) => {
    expect(errorCode(() => parseDateInput(value, 'new_since'))).toBe(56);
  });

  it('refuses non-strings and invalid Dates with 56', () => {
    expect(errorCode(() => parseDateInput(20140923, 'new_since'))).toBe(56);
    expect(errorCode(() => parseDateInput(null, 'new_since'))).toBe(56);
    expect(errorCode(() => parseDateInput(new Date('nope'), 'new_since'))).toBe(56);
  });

  it('names the value in the error message', () => {
    try {
      parseDateInput('bogus', 'creation_time');
      throw new Error('expected a throw');
    } catch (e) {
      expect((e as TrackerError).message).toContain("'bogus' is not a legal date");
      expect((e as TrackerError).httpStatus).toBe(400);
    }
  });
});

describe('parseDeadline — deadline is YYYY-MM-DD or empty (updates.md)', () => {
  it('returns the date as given', () => {
    expect(parseDeadline('2024-02-29')).toBe('2024-02-29');
  });

  it('zero-pads single-digit month and day like Bugzilla\'s validate_date', () => {
    expect(parseDeadline('2024-2-9')).toBe('2024-02-09');
  });

  it('clears on empty string, blanks, null and undefined', () => {
    expect(parseDeadline('')).toBeNull();
    expect(parseDeadline('   ')).toBeNull();
    expect(parseDeadline(null)).toBeNull();
    expect(parseDeadline(undefined)).toBeNull();
  });

  it.each(['2023-02-29', '2024-09-23T10:00:00Z', '2024.09.23', 'tomorrow', '20240923'])('refuses %s with 56', (v) => {
    expect(errorCode(() => parseDeadline(v))).toBe(56);
  });

  it('refuses a number with 56 and names the format', () => {
    try {
      parseDeadline(5);
      throw new Error('expected a throw');
    } catch (e) {
      expect((e as TrackerError).code).toBe(56);
      expect((e as TrackerError).message).toContain('YYYY-MM-DD');
    }
  });
});

describe('output conventions — misc.md "Datetimes: UTC, YYYY-MM-DDThh:mm:ssZ"', () => {
  it('formats a Date with seconds precision', () => {
    expect(toApiDateTime(new Date('2014-09-23T19:12:17.999Z'))).toBe('2014-09-23T19:12:17Z');
  });

  it('formats a stored UTC text, with or without fractional seconds', () => {
    expect(toApiDateTime('2014-09-23 19:12:17')).toBe('2014-09-23T19:12:17Z');
    expect(toApiDateTime('2014-09-23 19:12:17.123456')).toBe('2014-09-23T19:12:17Z');
    expect(toApiDateTime('2014-09-23T19:12:17Z')).toBe('2014-09-23T19:12:17Z');
  });

  it('keeps null as null', () => {
    expect(toApiDateTime(null)).toBeNull();
    expect(toApiDate(null)).toBeNull();
    expect(toApiDate(undefined)).toBeNull();
  });

  it('formats dates as YYYY-MM-DD', () => {
    expect(toApiDate('2024-03-05')).toBe('2024-03-05');
    expect(toApiDate('2024-03-05 23:59:59')).toBe('2024-03-05');
    expect(toApiDate(new Date('2024-03-05T23:59:59Z'))).toBe('2024-03-05');
  });

  it('pads years below 1000', () => {
    const d = new Date(0);
    d.setUTCFullYear(999, 0, 2);
    expect(toApiDate(d)).toBe('0999-01-02');
  });

  it('stores datetimes as YYYY-MM-DD hh:mm:ss in UTC, seconds truncated', () => {
    expect(toDbDateTime(new Date('2014-09-23T19:12:17.999Z'))).toBe('2014-09-23 19:12:17');
  });

  it('round-trips input → storage → output', () => {
    const d = parseDateInput('2014-09-23T21:12:17+02:00', 'x');
    expect(toApiDateTime(toDbDateTime(d))).toBe('2014-09-23T19:12:17Z');
  });

  it('treats a malformed stored value as an internal error, not a client error', () => {
    expect(errorCode(() => toApiDateTime('not a date'))).toBe(-32000);
    expect(errorCode(() => toDbDateTime(new Date('x')))).toBe(-32000);
  });
});
