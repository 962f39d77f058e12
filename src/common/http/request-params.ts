import { Errors, TrackerError } from '../errors/index.js';
import { isIdInRange } from '../ids.js';

/**
 * The parameters of one request as Bugzilla clients encode them: query string
 * laid over the JSON body (query wins), repeated keys as arrays, `True`/`1`/`true` booleans, comma lists, and the
 * `Tracker_*` / `Bugzilla_*` / plain / header spellings of credentials. Nothing downstream parses a query again.
 */
export class RequestParams {
  constructor(private readonly values: Readonly<Record<string, unknown>>) {}

  /**
   * Merges the parsed query string and JSON body. Only non-GET requests have a body; query values win key by key.
   * Keys with characters other than letters, digits, `_`, `.`, `-` are dropped at every level (Bugzilla does too).
   */
  static merge(query: Record<string, unknown> | undefined, body: unknown): RequestParams {
    const merged: Record<string, unknown> = {};
    if (body !== undefined) Object.assign(merged, sanitise(body) as Record<string, unknown>);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (LEGAL_KEY.test(key)) merged[key] = value;
    }
    return new RequestParams(merged);
  }

  /**
   * Parses a raw request body: empty → nothing; otherwise it must be declared as JSON (the seed: "Content-Type
   * must be application/json", error 32613) and be a JSON object (error 32000).
   */
  static parseBody(raw: string | undefined, contentType: string | undefined): Record<string, unknown> | undefined {
    if (raw === undefined || raw.trim() === '') return undefined;
    if (!isJsonContentType(contentType)) throw TrackerError.of(Errors.ILLEGAL_CONTENT_TYPE, { contentType: contentType ?? '' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      throw TrackerError.of(Errors.JSON_INVALID_PARAMS, { reason: (err as Error).message });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw TrackerError.of(Errors.BODY_NOT_OBJECT);
    if (depthExceeds(parsed, MAX_BODY_DEPTH)) throw TrackerError.of(Errors.BODY_TOO_DEEP, { depth: MAX_BODY_DEPTH });
    return parsed as Record<string, unknown>;
  }

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.values, key) && this.values[key] !== undefined;
  }

  raw(key: string): unknown {
    return this.values[key];
  }

  /** All parameters, for services that take a whole body (Create Bug, Update Bug …). */
  all(): Readonly<Record<string, unknown>> {
    return this.values;
  }

  /** The data of a request: all parameters but credentials, JSONP callback and field selection. */
  data(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.values).filter(([key]) => !PROTOCOL_KEYS.has(key)));
  }

  /** A scalar string; of a repeated key, the first value. */
  string(key: string): string | undefined {
    const value = this.values[key];
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (first === undefined || first === null) return undefined;
    if (typeof first === 'object') throw TrackerError.of(Errors.PARAM_INVALID, { param: key });
    return String(first);
  }

  int(key: string): number | undefined {
    const value = this.string(key);
    if (value === undefined || value.trim() === '') return undefined;
    if (!/^-?\d+$/.test(value.trim())) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param: key });
    return Number(value);
  }

  bool(key: string): boolean | undefined {
    return this.has(key) ? toBoolean(this.values[key]) : undefined;
  }

  /** A list: repeated keys, a JSON array, or one value. `commas` also splits `a,b` (id lists, field lists). */
  list(key: string, options: { commas?: boolean } = {}): string[] {
    const value = this.values[key];
    if (value === undefined || value === null) return [];
    const items = Array.isArray(value) ? value : [value];
    const strings = items.map((item) => {
      if (item !== null && typeof item === 'object') throw TrackerError.of(Errors.PARAM_SCALAR_ARRAY_REQUIRED, { param: key });
      return String(item);
    });
    return options.commas ? strings.flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '') : strings;
  }

  /** A list of integers (ids): comma lists accepted; a non-numeric item is error 52. */
  intList(key: string): number[] {
    return this.list(key, { commas: true }).map((item) => {
      if (!/^\d+$/.test(item)) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param: key });
      if (!isIdInRange(item)) throw TrackerError.of(Errors.ID_OUT_OF_RANGE, { param: key, value: item });
      return Number(item);
    });
  }

  object(key: string): Record<string, unknown> | undefined {
    const value = this.values[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw TrackerError.of(Errors.PARAM_INVALID, { param: key });
    return value as Record<string, unknown>;
  }

  /** `include_fields` / `exclude_fields`: arrays or strings split on commas, whitespace and `+`. */
  fieldList(key: string): string[] | undefined {
    if (!this.has(key)) return undefined;
    const value = this.values[key];
    const items = Array.isArray(value) ? value : [value];
    return items.flatMap((item) => String(item ?? '').split(/[\s,+]+/)).filter(Boolean);
  }

  /**
   * The "ids-or-names" rule of routes.md: a path segment of digits joins `ids`, anything else `names`; both are
   * combined with the `ids` and `names` of the query and body (the seed combines them; duplicates removed).
   */
  idsAndNames(segment?: string): { ids: number[]; names: string[] } {
    const ids = this.intList('ids');
    const names = this.list('names');
    if (segment !== undefined) {
      if (/^\d+$/.test(segment) && !isIdInRange(segment)) throw TrackerError.of(Errors.ID_OUT_OF_RANGE, { param: 'id', value: segment });
      if (/^\d+$/.test(segment)) ids.unshift(Number(segment));
      else names.unshift(segment);
    }
    return { ids: [...new Set(ids)], names: [...new Set(names)] };
  }

  /** A list parameter with the path's values first (`GET /rest/bug/35?ids=36` names 35 and 36). */
  listWithPath(key: string, pathValues: string[]): string[] {
    return [...new Set([...pathValues, ...this.list(key, { commas: true })])];
  }

  /** The credentials the request carries, in any spelling real clients use. */
  credentials(headers: Record<string, string | string[] | undefined>): Credentials {
    const header = (name: string) => {
      const value = headers[name];
      return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
    };
    const pick = (...keys: string[]) => {
      for (const key of keys) {
        const value = this.string(key);
        if (value !== undefined && value !== '') return value;
      }
      return undefined;
    };
    const bearer = /^Bearer\s+(\S+)$/i.exec(header('authorization') ?? '')?.[1];
    // The short `login`/`password` count only together (misc.md): `login` alone is a parameter of valid_login.
    const shortPair = this.has('login') && this.has('password');
    return {
      apiKey: (pick('Tracker_api_key', 'Bugzilla_api_key', 'api_key') ?? header('x-tracker-api-key') ?? header('x-bugzilla-api-key') ?? bearer)?.trim(),
      login: pick('Tracker_login', 'Bugzilla_login', ...(shortPair ? ['login'] : [])) ?? header('x-tracker-login') ?? header('x-bugzilla-login'),
      password: pick('Tracker_password', 'Bugzilla_password', ...(shortPair ? ['password'] : [])) ?? header('x-tracker-password') ?? header('x-bugzilla-password'),
      token: pick('Tracker_token', 'Bugzilla_token', 'token') ?? header('x-tracker-token') ?? header('x-bugzilla-token'),
      restrictLogin: toBoolean(this.raw('Tracker_restrictlogin') ?? this.raw('Bugzilla_restrictlogin') ?? this.raw('restrict_login') ?? false),
    };
  }
}

export interface Credentials {
  apiKey?: string;
  login?: string;
  password?: string;
  token?: string;
  restrictLogin: boolean;
}

/** The parameters `credentials()` reads a credential from but the short `login`/`password` pair. */
const CREDENTIAL_PARAMETERS = [
  ...['api_key', 'login', 'password', 'token', 'restrictlogin'].flatMap((k) => [`Tracker_${k}`, `Bugzilla_${k}`]),
  'api_key', 'token', 'restrict_login',
];

/** Keys that steer the protocol rather than carry data. */
export const PROTOCOL_KEYS: ReadonlySet<string> = new Set([...CREDENTIAL_PARAMETERS, 'callback', 'include_fields', 'exclude_fields']);

const CREDENTIAL_KEYS_LOWER: ReadonlySet<string> = new Set([...CREDENTIAL_PARAMETERS, 'login', 'password'].map((key) => key.toLowerCase()));

/** Whether a parameter may carry a credential (any case): what a URL the service hands out must not repeat. */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEYS_LOWER.has(key.toLowerCase());
}

const LEGAL_KEY = /^[A-Za-z0-9_.-]+$/;

/**
 * How deeply a request body may nest objects and arrays. The deepest body of the API (an Update Bug flag change
 * inside an attachment inside a list …) is five levels; everything after parsing walks bodies recursively, so a
 * body of 10,000 levels must be refused before anything walks it.
 */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests deeper than `limit` (walked with a stack, not recursion: the input is the attacker's). */
function depthExceeds(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

function sanitise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sanitise);
  if (value === null || typeof value !== 'object') return value;
  const clean: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (LEGAL_KEY.test(key)) clean[key] = sanitise(item);
  return clean;
}

/** `application/json`, with or without parameters, and the `+json` family (`application/vnd.api+json`). */
export function isJsonContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.-]+\+json$/.test(type);
}

/** Bugzilla's truth: 0, '0', '', false, 'false', 'False' (and an empty list) are false; anything else true. */
export function toBoolean(value: unknown): boolean {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null || first === false || first === 0) return false;
  const text = String(first).trim().toLowerCase();
  return !(text === '' || text === '0' || text === 'false' || text === 'off' || text === 'no');
}
