/**
 * Date and datetime conversion at the edges of the service (misc.md, "Fields declared as dates are converted on
 * input" and "Output value conventions"). Everything here is UTC: the service's zone is UTC and the database
 * stores UTC, so no function reads the process time zone.
 */
import { Errors, TrackerError } from '../errors/index.js';

const pad2 = (n: number) => String(n).padStart(2, '0');
const pad4 = (n: number) => String(n).padStart(4, '0');

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  /** Offset east of UTC in minutes; 0 when the input named no zone (the server zone is UTC). */
  offsetMinutes: number;
}

// One pattern per accepted family. Each yields named groups so that buildDate has one shape to check.
const ZONE = '(?<zone>Z|[+-]\\d{2}(?::?\\d{2})?)';
const TIME = '(?<hour>\\d{2}):(?<minute>\\d{2})(?::(?<second>\\d{2})(?:[.,](?<frac>\\d{1,9}))?)?';
const PATTERNS: RegExp[] = [
  // YYYY-MM-DD, YYYY.MM.DD (single-digit month/day tolerated, as Bugzilla's parser does), optional time and zone.
  new RegExp(`^(?<year>\\d{4})(?<sep>[-.])(?<month>\\d{1,2})\\k<sep>(?<day>\\d{1,2})(?:[ T]${TIME}\\s*${ZONE}?)?$`, 'i'),
  // ISO-8601 basic form: YYYYMMDD, YYYYMMDDThh:mm:ss, YYYYMMDDThhmmss, with an optional zone.
  new RegExp(`^(?<year>\\d{4})(?<month>\\d{2})(?<day>\\d{2})(?:T(?:${TIME}|(?<bhour>\\d{2})(?<bminute>\\d{2})(?<bsecond>\\d{2})?)${ZONE}?)?$`, 'i'),
];

function zoneOffsetMinutes(zone: string | undefined): number | null {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? '0');
  if (hours > 23 || minutes > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function matchParts(text: string): Parts | null {
  for (const pattern of PATTERNS) {
    const g = pattern.exec(text)?.groups;
    if (!g) continue;
    const offsetMinutes = zoneOffsetMinutes(g.zone);
    if (offsetMinutes === null) return null;
    const frac = g.frac ?? '';
    return {
      year: Number(g.year),
      month: Number(g.month),
      day: Number(g.day),
      hour: Number(g.hour ?? g.bhour ?? 0),
      minute: Number(g.minute ?? g.bminute ?? 0),
      second: Number(g.second ?? g.bsecond ?? 0),
      millis: frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0,
      offsetMinutes,
    };
  }
  return null;
}

/** Builds the instant, refusing impossible calendar values (2014-02-30, 25:00) instead of rolling them over. */
function buildDate(p: Parts): Date | null {
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.hour > 23 || p.minute > 59 || p.second > 59) return null;
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  d.setUTCFullYear(p.year, p.month - 1, p.day);
  d.setUTCHours(p.hour, p.minute, p.second, p.millis);
  if (d.getUTCFullYear() !== p.year || d.getUTCMonth() !== p.month - 1 || d.getUTCDate() !== p.day) return null;
  return new Date(d.getTime() - p.offsetMinutes * 60_000);
}

function illegalDate(value: unknown, field: string, format: string): TrackerError {
  return TrackerError.of(Errors.ILLEGAL_DATE, { date: value instanceof Date ? 'Invalid Date' : String(value ?? ''), field, format });
}

/**
 * Parses a date/datetime parameter (new_since, creation_time, last_change_time, custom date fields).
 * Accepted: YYYY-MM-DD, YYYY-MM-DD hh:mm[:ss], YYYY.MM.DD[ hh:mm:ss], ISO-8601 extended
 * (YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm|±hhmm|±hh]) and basic (YYYYMMDD[Thh:mm:ss|Thhmmss][zone]).
 * A value without a zone is UTC. Anything else is 56.
 */
export function parseDateInput(value: unknown, field: string): Date {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw illegalDate(value, field, 'YYYY-MM-DDThh:mm:ssZ');
    return new Date(value.getTime());
  }
  if (typeof value !== 'string') throw illegalDate(value, field, 'YYYY-MM-DDThh:mm:ssZ');
  const parts = matchParts(value.trim());
  const date = parts && buildDate(parts);
  if (!date) throw illegalDate(value, field, 'YYYY-MM-DDThh:mm:ssZ');
  return date;
}

/**
 * Validates the `deadline` input: YYYY-MM-DD (Bugzilla also takes single-digit month/day), or ''/null to clear.
 * Returns the zero-padded date, or null when the deadline is cleared.
 */
export function parseDeadline(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw illegalDate(value, 'deadline', 'YYYY-MM-DD');
  const text = value.trim();
  if (text === '') return null;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const date = m && buildDate({ year: +m[1], month: +m[2], day: +m[3], hour: 0, minute: 0, second: 0, millis: 0, offsetMinutes: 0 });
  if (!date) throw illegalDate(value, 'deadline', 'YYYY-MM-DD');
  return toApiDate(date);
}

// Database text: 'YYYY-MM-DD', 'YYYY-MM-DD hh:mm:ss[.ffffff]', or already ISO ('...T...Z'); always UTC.
const DB_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function fromStored(value: Date | string, what: string): Date {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw TrackerError.of(Errors.INTERNAL, { reason: `invalid ${what}` });
    return value;
  }
  const m = DB_TEXT.exec(value.trim());
  const offsetMinutes = m ? zoneOffsetMinutes(m[8]) : null;
  const date =
    m && offsetMinutes !== null
      ? buildDate({
          year: +m[1], month: +m[2], day: +m[3],
          hour: +(m[4] ?? 0), minute: +(m[5] ?? 0), second: +(m[6] ?? 0),
          millis: m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0,
          offsetMinutes,
        })
      : null;
  // A malformed stored value is our bug, not the client's: report it as an internal error.
  if (!date) throw TrackerError.of(Errors.INTERNAL, { reason: `invalid ${what} '${value}'` });
  return date;
}

/** The instant of a stored UTC text (or a Date), as milliseconds since the epoch. */
export function storedTimeMs(value: Date | string): number {
  return fromStored(value, 'datetime').getTime();
}

/** `YYYY-MM-DDThh:mm:ssZ` (seconds precision, UTC) from a Date or a stored UTC text; null stays null. */
export function toApiDateTime(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const d = fromStored(value, 'datetime');
  return `${toApiDate(d)}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}Z`;
}

/** `YYYY-MM-DD` (UTC) from a Date or a stored text; null stays null. */
export function toApiDate(value: Date): string;
export function toApiDate(value: Date | string | null | undefined): string | null;
export function toApiDate(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const d = fromStored(value, 'date');
  return `${pad4(d.getUTCFullYear())}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** `YYYY-MM-DD hh:mm:ss` (UTC, seconds truncated) for storage and for comparisons in SQL. */
export function toDbDateTime(date: Date): string {
  const d = fromStored(date, 'datetime');
  return `${toApiDate(d)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}
