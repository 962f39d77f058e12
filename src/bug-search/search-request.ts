import { Errors, TrackerError } from '../common/errors/index.js';
import { PROTOCOL_KEYS, toBoolean } from '../common/http/request-params.js';
import { and, isOperator, not, or, term, type Criterion, type Operator } from './search-criteria.js';
import { fieldOf, internalName } from './search-fields.js';
import type { SortKey } from '../bug/bug.types.js';

const FUNCTION = 'Bug.search';

/**
 * Parameters of Search Bugs that are not criteria: paging, order, output shaping, the quicksearch string, the
 * beyond-5.0 counts, and what clients send along (`permissive` with fetch-by-search, `query_format` with charts).
 * Credentials, `callback`, `include_fields`/`exclude_fields` are PROTOCOL_KEYS; keys starting with `_` (the
 * cache-buster `_`) are dropped as Bugzilla drops them.
 */
const STEERING = new Set(['limit', 'offset', 'cursor', 'order', 'quicksearch', 'count_only', 'total_matches', 'permissive', 'query_format', 'login', 'password']);

/** Plain parameters matched as a substring (the seed's `summary`/`whiteboard`; 5.0's code for the others). */
const SUBSTRING_PARAMS = new Set(['summary', 'whiteboard', 'url', 'flag', 'flagtypes.name', 'attachments.description', 'attachments.filename', 'attachments.mimetype', 'attach_data.thedata']);
/** Plain parameters by internal name whose 5.0 default is "all words as substrings" (clients.md: `short_desc`). */
const ALL_WORDS_PARAMS = new Set(['short_desc', 'status_whiteboard', 'bug_file_loc']);
/** Plain parameters holding comma lists of ids or aliases (`id=1,2,3`). */
const COMMA_PARAMS = new Set(['bug_id', 'alias', 'blocked', 'dependson', 'dup_id']);

/** A raw parameter as a list of texts; objects are refused (53) and blanks dropped. */
function texts(key: string, raw: unknown, keepBlank = false): string[] {
  const items = Array.isArray(raw) ? raw : [raw];
  return items.flatMap((item) => {
    if (item === undefined || item === null) return [];
    if (typeof item === 'object') throw TrackerError.of(Errors.PARAM_INVALID, { param: key, function: FUNCTION });
    const text = String(item);
    return keepBlank || text.trim() !== '' ? [text] : [];
  });
}

const first = (key: string, values: Record<string, unknown>) => texts(key, values[key])[0];

function operator(key: string, value: string | undefined, field: string): Operator {
  const op = (value ?? '').trim();
  if (!isOperator(op)) throw TrackerError.of(Errors.SEARCH_OPERATOR_INVALID, { operator: op || `(none in ${key})`, field });
  return op;
}

function field(name: string, customFields: ReadonlySet<string>): string {
  const internal = internalName(name.trim(), customFields);
  if (!internal) throw TrackerError.of(Errors.INVALID_FIELD_NAME, { field: name });
  return internal;
}

/** The criterion of one plain parameter (search.md "Parameters"), with its default operator or `<field>_type`. */
function plainCriterion(key: string, internal: string, raw: unknown, override: Operator | undefined): Criterion | undefined {
  let values = texts(key, raw, internal === 'resolution');
  if (internal === 'resolution') values = values.map((v) => (v.trim() === '---' ? '' : v));
  if (COMMA_PARAMS.has(internal)) values = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (!values.length) return undefined;
  if (override) return term(internal, override, values);
  if (internal === 'creation_ts' || internal === 'delta_ts') return term(internal, 'greaterthaneq', values[0]);
  if (SUBSTRING_PARAMS.has(key) || key.startsWith('attachments.')) return term(internal, 'substring', values);
  if (ALL_WORDS_PARAMS.has(key)) return term(internal, 'allwordssubstr', values);
  if (internal === 'keywords') return term(internal, 'allwords', values);
  if (internal === 'longdesc' || internal === 'content') return term(internal, 'anywordssubstr', values);
  return term(internal, 'anyexact', values);
}

/** The numbered keys of a family (`f1`, `f2` …) in numeric order. */
function numbered(values: Record<string, unknown>, pattern: RegExp): number[] {
  return [...new Set(Object.keys(values).flatMap((k) => { const m = pattern.exec(k); return m ? [Number(m[1])] : []; }))].sort((a, b) => a - b);
}

/** `f<N>`/`o<N>`/`v<N>` with `n<N>` negation, `j<N>`/`j_top` joins and `OP`/`CP` groups (search.md). */
function charts(values: Record<string, unknown>, customFields: ReadonlySet<string>): Criterion[] {
  type Group = { join: string; negate: boolean; items: Criterion[] };
  const joinOf = (key: string) => (first(key, values) ?? 'AND').toUpperCase();
  const close = (group: Group): Criterion => { const joined = group.join === 'OR' ? or(group.items) : and(group.items); return group.negate ? not(joined) : joined; };
  const stack: Group[] = [{ join: joinOf('j_top'), negate: false, items: [] }];
  const negated = (n: number) => toBoolean(values[`n${n}`]);
  for (const n of numbered(values, /^f(\d+)$/)) {
    const f = (first(`f${n}`, values) ?? '').trim();
    if (f === 'OP') { stack.push({ join: joinOf(`j${n}`), negate: negated(n), items: [] }); continue; }
    if (f === 'CP') { if (stack.length > 1) { const group = stack.pop()!; if (group.items.length) stack.at(-1)!.items.push(close(group)); } continue; }
    if (f === '' || f === 'noop') continue;
    const internal = field(f, customFields);
    const t = term(internal, operator(`o${n}`, first(`o${n}`, values), f), first(`v${n}`, values) ?? '');
    stack.at(-1)!.items.push(negated(n) ? not(t) : t);
  }
  while (stack.length > 1) { const group = stack.pop()!; if (group.items.length) stack.at(-1)!.items.push(close(group)); }
  return stack[0].items.length ? [close(stack[0])] : [];
}

/** The old boolean charts `field<A>-<B>-<C>` / `type…` / `value…`: charts ANDed, rows ANDed, columns ORed; `negate<A>`. */
function booleanCharts(values: Record<string, unknown>, customFields: ReadonlySet<string>): Criterion[] {
  const cells = new Map<number, Map<number, Criterion[]>>();
  for (const key of Object.keys(values).sort()) {
    const m = /^field(\d+)-(\d+)-(\d+)$/.exec(key);
    if (!m) continue;
    const f = (first(key, values) ?? '').trim();
    if (f === '' || f === 'noop') continue;
    const suffix = `${m[1]}-${m[2]}-${m[3]}`;
    const t = term(field(f, customFields), operator(`type${suffix}`, first(`type${suffix}`, values), f), first(`value${suffix}`, values) ?? '');
    const rows = cells.get(Number(m[1])) ?? new Map<number, Criterion[]>();
    rows.set(Number(m[2]), [...(rows.get(Number(m[2])) ?? []), t]);
    cells.set(Number(m[1]), rows);
  }
  return [...cells].map(([chart, rows]) => {
    const joined = and([...rows.values()].map(or));
    return toBoolean(values[`negate${chart}`]) ? not(joined) : joined;
  });
}

/** `email<N>` with `emailtype<N>` over the roles checked by `email<role><N>` (none checked: every role). */
function emailCriteria(values: Record<string, unknown>): Criterion[] {
  const roles: Array<[string, string]> = [['assigned_to', 'assigned_to'], ['reporter', 'reporter'], ['qa_contact', 'qa_contact'], ['cc', 'cc'], ['longdesc', 'commenter']];
  return numbered(values, /^email(\d+)$/).flatMap((n) => {
    const login = first(`email${n}`, values);
    if (login === undefined) return [];
    const op = operator(`emailtype${n}`, first(`emailtype${n}`, values) ?? 'substring', `email${n}`);
    const checked = roles.filter(([role]) => toBoolean(values[`email${role}${n}`]));
    return [or((checked.length ? checked : roles.slice(0, 4)).map(([, f]) => term(f, op, login)))];
  });
}

/** `chfield` (fields, `[Bug creation]`) changed between `chfieldfrom` and `chfieldto` (to `chfieldvalue`); `deadlinefrom`/`deadlineto`. */
function changeCriteria(values: Record<string, unknown>, customFields: ReadonlySet<string>): Criterion[] {
  const from = first('chfieldfrom', values);
  const toRaw = first('chfieldto', values);
  const to = toRaw && toRaw.trim().toLowerCase() !== 'now' ? toRaw : undefined;
  const value = first('chfieldvalue', values);
  const fields = texts('chfield', values.chfield);
  const criteria: Criterion[] = [];
  if (fields.length) {
    criteria.push(or(fields.map((name) => {
      if (name === '[Bug creation]') {
        return and([...(from ? [term('creation_ts', 'greaterthaneq', from)] : []), ...(to ? [term('creation_ts', 'lessthaneq', to)] : [])]);
      }
      const internal = field(name, customFields);
      return and([
        ...(from ? [term(internal, 'changedafter', from)] : []),
        ...(to ? [term(internal, 'changedbefore', to)] : []),
        ...(value !== undefined ? [term(internal, 'changedto', value)] : []),
        ...(!from && !to && value === undefined ? [term(internal, 'changedafter', '1970-01-01')] : []),
      ]);
    })));
  } else if (from || to) {
    criteria.push(and([...(from ? [term('delta_ts', 'greaterthaneq', from)] : []), ...(to ? [term('delta_ts', 'lessthaneq', to)] : [])]));
  }
  const deadlineFrom = first('deadlinefrom', values);
  const deadlineTo = first('deadlineto', values);
  if (deadlineFrom) criteria.push(term('deadline', 'greaterthaneq', deadlineFrom));
  if (deadlineTo) criteria.push(term('deadline', 'lessthaneq', deadlineTo));
  return criteria.filter((c) => c.kind !== 'and' || c.items.length);
}

const CHART_KEY = /^([fovnj]\d+|j_top|(field|type|value)\d+-\d+-\d+|negate\d+|email\d+|emailtype\d+|email(assigned_to|reporter|qa_contact|cc|longdesc)\d+|chfield|chfieldfrom|chfieldto|chfieldvalue|deadlinefrom|deadlineto)$/;

/**
 * The criteria of a Search Bugs request (every parameter but the steering ones), ANDed. A parameter that is no
 * criterion, chart key or steering/protocol parameter is error 53 naming it (stricter than 5.0, which ignores it:
 * a misspelt criterion must not return every bug). An unknown chart field is 108, an unknown operator 32000.
 */
export function searchCriteria(values: Readonly<Record<string, unknown>>, customFields: ReadonlySet<string>): Criterion {
  const criteria: Criterion[] = [];
  const overrides = new Map<string, Operator>();
  for (const key of Object.keys(values)) {
    const m = /^(.+)_type$/.exec(key);
    const internal = m && internalName(m[1], customFields);
    if (internal) overrides.set(m[1], operator(key, first(key, values), m[1]));
  }
  for (const [key, raw] of Object.entries(values)) {
    if (STEERING.has(key) || PROTOCOL_KEYS.has(key) || key.startsWith('_') || CHART_KEY.test(key)) continue;
    if (key.endsWith('_type') && overrides.has(key.slice(0, -5))) continue;
    const internal = internalName(key, customFields);
    if (!internal) throw TrackerError.of(Errors.PARAM_INVALID, { param: key, function: FUNCTION });
    const criterion = plainCriterion(key, internal, raw, overrides.get(key));
    if (criterion) criteria.push(criterion);
  }
  criteria.push(...charts(values, customFields), ...booleanCharts(values, customFields), ...emailCriteria(values), ...changeCriteria(values, customFields));
  return and(criteria);
}

/** Bugzilla's legacy sort names (buglist.cgi's "Bug Number", "Importance", "Last Changed"). */
const LEGACY_ORDER: Readonly<Record<string, string[]>> = {
  'bug number': ['bug_id'], importance: ['priority', 'bug_severity'], 'last changed': ['delta_ts'], changeddate: ['delta_ts'], opendate: ['creation_ts'],
};

/** A sort key of `order` with the name it was given and whether it is time-tracking data. */
export interface OrderKey extends SortKey {
  name: string;
  time: boolean;
}

/**
 * `order`: comma-separated field names, each optionally followed by ASC or DESC (search.md step 10). Fields that
 * are columns of the bug sort; any other name is 108. The search always ends the order with the bug id.
 */
export function sortKeys(order: string | undefined, customFields: ReadonlySet<string>): OrderKey[] {
  if (order === undefined || order.trim() === '') return [];
  return order.split(',').map((part) => part.trim()).filter(Boolean).flatMap((part) => {
    // `s`: a field name may hold a line break (then it names no field, 108), and the pattern must still match.
    const m = /^(.*?)(?:\s+(ASC|DESC))?$/is.exec(part)!;
    const descending = m[2]?.toUpperCase() === 'DESC';
    const names = LEGACY_ORDER[m[1].toLowerCase()] ?? [m[1]];
    return names.map((name) => {
      const internal = internalName(name, customFields);
      const field = internal ? fieldOf(internal) : undefined;
      if (!field || field.kind !== 'column') throw TrackerError.of(Errors.INVALID_FIELD_NAME, { field: m[1] });
      return { column: field.column, descending, name: m[1], time: field.time === true };
    });
  });
}
