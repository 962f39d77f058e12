/**
 * The `{add, remove, set}` objects of Update Bug (updates.md, "Update Bug: body objects").
 * normaliseAddRemoveSet turns what the client sent into an ordered list of steps, following the quirks of
 * each key in Bugzilla 5.0's set_all; applyAddRemoveSet runs the steps against the current list.
 */
import { Errors, TrackerError } from '../common/errors/index.js';

export type AddRemoveSetAction = 'add' | 'remove' | 'set';

export interface AddRemoveSetStep<T = unknown> {
  action: AddRemoveSetAction;
  values: T[];
}

/** Steps in application order; an empty list means "nothing to do". */
export interface AddRemoveSet<T = unknown> {
  steps: AddRemoveSetStep<T>[];
}

export interface AddRemoveSetOptions {
  /** Key name for error messages (`keywords`, `cc` …). */
  field?: string;
  /** The `set` key is honoured (alias, keywords, blocks, depends_on). */
  allowSet: boolean;
  /** A bare string or array stands for `{set: value}` (alias). Otherwise it is refused with 53. */
  plainMeansSet?: boolean;
  /**
   * Keywords: the keys are applied in sorted order (add, remove, set — so set is final) and any other key is a
   * `set`, applied at its alphabetical place. Without it, unknown keys are ignored.
   */
  otherKeyMeansSet?: boolean;
  /**
   * `set` replaces the list only when truthy in Perl terms (alias: `set: null` or `''` is ignored); otherwise
   * the key's presence is enough (blocks/depends_on: `set: null` empties the list).
   */
  setNeedsValue?: boolean;
  /** A string inside add/remove/set is split on blanks and commas (keywords); otherwise it is refused with 53. */
  splitStrings?: boolean;
}

/** The rules of each Update Bug key (Bugzilla 5.0 set_all). */
export const UPDATE_OBJECT_RULES = {
  alias: { field: 'alias', allowSet: true, plainMeansSet: true, setNeedsValue: true },
  keywords: { field: 'keywords', allowSet: true, otherKeyMeansSet: true, splitStrings: true },
  blocks: { field: 'blocks', allowSet: true },
  depends_on: { field: 'depends_on', allowSet: true },
  regressed_by: { field: 'regressed_by', allowSet: true },
  regressions: { field: 'regressions', allowSet: true },
  cc: { field: 'cc', allowSet: false },
  groups: { field: 'groups', allowSet: false },
  see_also: { field: 'see_also', allowSet: false },
} as const satisfies Record<string, AddRemoveSetOptions>;

export type UpdateObjectKey = keyof typeof UPDATE_OBJECT_RULES;

function invalid(field: string | undefined, key?: string): TrackerError {
  return TrackerError.of(Errors.PARAM_INVALID, { param: key ? `${field ?? 'value'}.${key}` : field ?? 'value', function: 'Bug.update' });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function listOf(value: unknown, opts: AddRemoveSetOptions, key: string): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined);
  if (typeof value === 'string' && opts.splitStrings) return value.trim().split(/[\s,]+/).filter((s) => s !== '');
  throw invalid(opts.field, key);
}

/**
 * Normalises one Update Bug key. Order of the steps:
 * - `set` present (and allowed) → only `[set]` (set wins; add/remove ignored);
 * - otherwise `[add, remove]`: a value in both ends up removed, as Bugzilla adds before it removes;
 * - keywords: every key in sorted order, unknown keys as `set`.
 * null/undefined means "no change". Anything that is not an object (or, for alias, a string/array) is 53,
 * as is a list value that is not an array.
 */
export function normaliseAddRemoveSet<T = unknown>(value: unknown, opts: AddRemoveSetOptions): AddRemoveSet<T> {
  if (value === null || value === undefined) return { steps: [] };

  if (!isPlainObject(value)) {
    if (opts.plainMeansSet && (typeof value === 'string' || typeof value === 'number' || Array.isArray(value))) {
      return normaliseAddRemoveSet<T>({ set: Array.isArray(value) ? value : [value] }, opts);
    }
    throw invalid(opts.field);
  }

  if (opts.otherKeyMeansSet) {
    // Perl's `sort keys`: plain code-point order, which puts add < remove < set.
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      steps: keys.map((key) => ({
        action: key === 'add' || key === 'remove' ? key : 'set',
        values: listOf(value[key], opts, key) as T[],
      })),
    };
  }

  if (opts.allowSet && 'set' in value && value.set !== undefined) {
    const setGiven = opts.setNeedsValue ? value.set !== null && value.set !== '' : true;
    if (setGiven) return { steps: [{ action: 'set', values: listOf(value.set, opts, 'set') as T[] }] };
  }

  const steps: AddRemoveSetStep<T>[] = [];
  for (const action of ['add', 'remove'] as const) {
    if (value[action] === undefined || value[action] === null) continue;
    steps.push({ action, values: listOf(value[action], opts, action) as T[] });
  }
  return { steps };
}

/** Normalises an Update Bug key with its own rules (UPDATE_OBJECT_RULES). */
export function normaliseUpdateObject<T = unknown>(key: UpdateObjectKey, value: unknown): AddRemoveSet<T> {
  return normaliseAddRemoveSet<T>(value, UPDATE_OBJECT_RULES[key]);
}

/**
 * Transforms the values of every step (validate aliases, resolve logins or bug IDs …). The callback gets the
 * step's action so that, for example, See Also URLs are validated on add but removed as typed.
 */
export function mapAddRemoveSet<T, U>(op: AddRemoveSet<T>, fn: (value: T, action: AddRemoveSetAction) => U): AddRemoveSet<U> {
  return { steps: op.steps.map((s) => ({ action: s.action, values: s.values.map((v) => fn(v, s.action)) })) };
}

export type Equality<T> = (a: T, b: T) => boolean;

/** Case-insensitive equality for strings (see_also URLs, keyword names). */
export const sameIgnoringCase: Equality<unknown> = (a, b) =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;

/** Equality of IDs given as numbers or numeric strings. */
export const sameId: Equality<unknown> = (a, b) => String(a).trim() === String(b).trim();

export interface AddRemoveSetResult<T> {
  /** The new list: survivors in their current order (and spelling), then additions in request order. */
  result: T[];
  added: T[];
  removed: T[];
}

function uniqueBy<T>(items: readonly T[], eq: Equality<T>): T[] {
  const out: T[] = [];
  for (const item of items) if (!out.some((o) => eq(o, item))) out.push(item);
  return out;
}

/**
 * Applies the steps to `current`. Duplicates are collapsed; adding an existing value or removing an absent
 * one is a no-op; `set` keeps the current spelling of values that stay.
 */
export function applyAddRemoveSet<T>(current: readonly T[], op: AddRemoveSet<T>, eq: Equality<T> = Object.is): AddRemoveSetResult<T> {
  const start = uniqueBy(current, eq);
  let list = [...start];
  for (const step of op.steps) {
    const values = uniqueBy(step.values, eq);
    if (step.action === 'add') {
      for (const v of values) if (!list.some((x) => eq(x, v))) list.push(v);
    } else if (step.action === 'remove') {
      list = list.filter((x) => !values.some((v) => eq(x, v)));
    } else {
      const kept = list.filter((x) => values.some((v) => eq(x, v)));
      list = [...kept, ...values.filter((v) => !kept.some((x) => eq(x, v)))];
    }
  }
  return {
    result: list,
    added: list.filter((x) => !start.some((s) => eq(s, x))),
    removed: start.filter((s) => !list.some((x) => eq(s, x))),
  };
}
