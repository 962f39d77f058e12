/**
 * How changes are written in the Update responses (`changes`) and in history (updates.md, "Update Bug:
 * response" and "Bug history entries"): every value is a string, lists are joined with ", ", booleans are
 * "0"/"1", missing values are "".
 */
import { DEPENDENCIES, type BugGraph } from './bug.types.js';

// ---- Field names ------------------------------------------------------------------------------------------

/** Internal (Bugzilla column / fielddefs) name → API name, for `changes` keys and history `field_name`. */
const INTERNAL_TO_API: Readonly<Record<string, string>> = {
  bug_status: 'status',
  short_desc: 'summary',
  bug_file_loc: 'url',
  status_whiteboard: 'whiteboard',
  rep_platform: 'platform',
  bug_severity: 'severity',
  dependson: 'depends_on',
  blocked: 'blocks',
  dup_id: 'dupe_of',
  everconfirmed: 'is_confirmed',
  cclist_accessible: 'is_cc_accessible',
  reporter_accessible: 'is_creator_accessible',
  bug_group: 'groups',
  product_id: 'product',
  component_id: 'component',
  // search.md's FIELD_MAP; they do not appear in changes but may in generic code paths.
  bug_id: 'id',
  reporter: 'creator',
  creation_ts: 'creation_time',
  delta_ts: 'last_change_time',
};

const API_TO_INTERNAL: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(INTERNAL_TO_API)
    .filter(([internal]) => internal !== 'product_id' && internal !== 'component_id')
    .map(([internal, api]) => [api, internal]),
);

/** Maps an internal field name to its API name; other names (flagtypes.name, cc, keywords …) pass unchanged. */
export function apiFieldName(internal: string): string {
  return INTERNAL_TO_API[internal] ?? internal;
}

/** The reverse of apiFieldName, for input keys; unmapped names pass unchanged (so internal names work too). */
export function internalFieldName(api: string): string {
  return API_TO_INTERNAL[api] ?? api;
}

// ---- Values -----------------------------------------------------------------------------------------------

/** Time fields whose sides are written differently (removed: stored two decimals; added: as sent). */
export const TIME_CHANGE_FIELDS: ReadonlySet<string> = new Set(['estimated_time', 'remaining_time', 'work_time']);

/** Any value as a change string: null → "", booleans "0"/"1", lists joined with ", ". */
export function formatChangeValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) return formatList(value);
  return String(value);
}

/** A list joined with ", " in the given order; empty and missing items are skipped. */
export function formatList(values: readonly unknown[]): string {
  return values.map(formatChangeValue).filter((v) => v !== '').join(', ');
}

/** Keywords are listed alphabetically (case-insensitive, as Bugzilla sorts them). */
export function formatKeywords(names: readonly string[]): string {
  return formatList([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || a.localeCompare(b)));
}

export function formatBoolean(value: unknown): '0' | '1' {
  return value === true || value === 1 || value === '1' ? '1' : '0';
}

/** The `removed` side of a time field: the stored value with two decimals ("0.00"). */
export function formatTimeRemoved(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? n.toFixed(2) : String(value);
}

/** The `added` side of a time field: the value as the client sent it (10.5 → "10.5", 6 → "6"). */
export function formatTimeAdded(value: unknown): string {
  return formatChangeValue(value);
}

/** work_time in history has two decimals ("2.50"). */
export const formatWorkTime = formatTimeRemoved;

// ---- Flags ------------------------------------------------------------------------------------------------

export interface FlagSnapshot {
  /** Flag type name. */
  name: string;
  status: string;
  requestee?: string | null;
  /** Login of the setter; only used to tell apart otherwise identical flags when diffing. */
  setter?: string | null;
}

/** `review?(dev@example.com)`, `approval+`. */
export function flagSummary(flag: FlagSnapshot): string {
  return `${flag.name}${flag.status}${flag.requestee ? `(${flag.requestee})` : ''}`;
}

/**
 * The `flagtypes.name` change between two states of a bug's (or attachment's) flags, or null when nothing
 * changed. Like Bugzilla, summaries are compared together with the setter, then shown without it; identical
 * summaries pair off one by one, so two `review+` flags and one removed show one `review+` removed.
 */
export function diffFlags(before: readonly FlagSnapshot[], after: readonly FlagSnapshot[]): { removed: string; added: string } | null {
  const key = (f: FlagSnapshot) => `${f.setter ?? ''}:${flagSummary(f)}`;
  const remaining = after.map((f) => ({ flag: f, key: key(f), used: false }));
  const removed: FlagSnapshot[] = [];
  for (const f of before) {
    const match = remaining.find((r) => !r.used && r.key === key(f));
    if (match) match.used = true;
    else removed.push(f);
  }
  const added = remaining.filter((r) => !r.used).map((r) => r.flag);
  if (removed.length === 0 && added.length === 0) return null;
  return { removed: removed.map(flagSummary).join(', '), added: added.map(flagSummary).join(', ') };
}

// ---- The other end of a dependency ------------------------------------------------------------------------

/** A change recorded on another bug than the one changed (or created). */
export interface OtherBugChange extends ChangeEntry {
  bugId: number;
}

type ListChange = { added: readonly number[]; removed: readonly number[] };

/**
 * The history of the bugs at the other end of a bug's changed dependencies, for Create and Update Bug alike: the
 * lists stay mirror images, so a bug added to (removed from) X's depends_on gets X added to (removed from) its
 * blocks, and the reverse (BMO's regressed_by and regressions alike, with `graph`). One entry per bug and edge.
 */
export function mirroredDependencyChanges(bugId: number, down: ListChange, up: ListChange, graph: BugGraph = DEPENDENCIES): OtherBugChange[] {
  const self = String(bugId);
  return [
    ...down.added.map((other) => ({ bugId: other, field: graph.up, removed: '', added: self })),
    ...down.removed.map((other) => ({ bugId: other, field: graph.up, removed: self, added: '' })),
    ...up.added.map((other) => ({ bugId: other, field: graph.down, removed: '', added: self })),
    ...up.removed.map((other) => ({ bugId: other, field: graph.down, removed: self, added: '' })),
  ];
}

// ---- ChangeSet --------------------------------------------------------------------------------------------

export interface ChangeEntry {
  /** The name as recorded (internal or API); history rows keep it, `toChanges()` maps it. */
  field: string;
  removed: string;
  added: string;
}

const timeNumber = (v: unknown) => (v === null || v === undefined || String(v).trim() === '' ? 0 : Number(v));

const LIST_FIELDS_SORTED: ReadonlySet<string> = new Set(['keywords']);

/**
 * Collects the changes of one object in one request. Values are formatted by field (time fields, keywords,
 * booleans, lists), and a change whose two sides read the same is not recorded. Recording a field again
 * replaces the earlier entry but keeps its position.
 */
export class ChangeSet {
  private readonly entries_ = new Map<string, ChangeEntry>();

  record(field: string, removed: unknown, added: unknown): this {
    const key = apiFieldName(field);
    let r: string;
    let a: string;
    if (TIME_CHANGE_FIELDS.has(key)) {
      // Rule 1 of the field permissions: time fields compare numerically ("10.50" is 10.5; empty is 0).
      if (timeNumber(removed) === timeNumber(added)) {
        this.entries_.delete(key);
        return this;
      }
      r = formatTimeRemoved(removed);
      a = formatTimeAdded(added);
    } else if (LIST_FIELDS_SORTED.has(key)) {
      r = Array.isArray(removed) ? formatKeywords(removed.map(String)) : formatChangeValue(removed);
      a = Array.isArray(added) ? formatKeywords(added.map(String)) : formatChangeValue(added);
    } else {
      r = formatChangeValue(removed);
      a = formatChangeValue(added);
    }
    if (r === a) {
      this.entries_.delete(key);
      return this;
    }
    this.entries_.set(key, { field, removed: r, added: a });
    return this;
  }

  has(field: string): boolean {
    return this.entries_.has(apiFieldName(field));
  }

  get isEmpty(): boolean {
    return this.entries_.size === 0;
  }

  /** The entries in recording order, with the field names as recorded (for history rows). */
  entries(): ChangeEntry[] {
    return [...this.entries_.values()];
  }

  /** The `changes` object of an Update response: API field names → {removed, added}. */
  toChanges(): Record<string, { removed: string; added: string }> {
    const out: Record<string, { removed: string; added: string }> = {};
    for (const [key, e] of this.entries_) out[key] = { removed: e.removed, added: e.added };
    return out;
  }

  toJSON(): Record<string, { removed: string; added: string }> {
    return this.toChanges();
  }
}
