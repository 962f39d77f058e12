import { Errors, TrackerError } from '../common/errors/index.js';
import { and, not, or, term, type Criterion, type Operator } from './search-criteria.js';
import { API_NAMES, BMO_SEARCH_FIELDS, SEARCH_FIELDS } from './search-fields.js';

/** What quicksearch needs to know of the installation: statuses (open or not), resolutions, priorities, keywords. */
export interface QuicksearchCatalogue {
  statuses: ReadonlyArray<{ name: string; isOpen: boolean }>;
  resolutions: readonly string[];
  priorities: readonly string[];
  keywords: ReadonlySet<string>;
  /** The custom fields' names, and BMO's fields when they are on (internalName's namedFields). */
  customFields: ReadonlySet<string>;
}

/** search.md's short field names of quicksearch (Bugzilla/Search/Quicksearch.pm MAPPINGS). */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  status: 'bug_status', platform: 'rep_platform', os: 'op_sys', severity: 'bug_severity', assignee: 'assigned_to', owner: 'assigned_to',
  milestone: 'target_milestone', summary: 'short_desc', description: 'longdesc', comment: 'longdesc', url: 'bug_file_loc',
  whiteboard: 'status_whiteboard', sw: 'status_whiteboard', kw: 'keywords', group: 'bug_group', flag: 'flagtypes.name',
  requestee: 'requestees.login_name', setter: 'setters.login_name', attachment: 'attachments.description',
  attachmentdesc: 'attachments.description', attachdesc: 'attachments.description', attachmentdata: 'attach_data.thedata',
  attachdata: 'attach_data.thedata', attachmentmimetype: 'attachments.mimetype', attachmimetype: 'attachments.mimetype',
};

const FIELD_OPERATORS: ReadonlyArray<[string, Operator]> = [['!=', 'notequals'], ['>=', 'greaterthaneq'], ['<=', 'lessthaneq'], [':', 'substring'], ['=', 'equals'], ['>', 'greaterthan'], ['<', 'lessthan']];

const invalid = (reason: string) => TrackerError.of(Errors.QUICKSEARCH_INVALID_QUERY, { reason });

/** A field name of quicksearch: a short name, an API or internal name, or an unambiguous prefix of one. */
function quickField(name: string, catalogue: QuicksearchCatalogue): string {
  const lower = name.toLowerCase();
  // BMO's fields are known only when the catalogue names them (bmo_bug_fields on).
  const known = (internal: string | undefined) => (internal === undefined || !BMO_SEARCH_FIELDS.has(internal) || catalogue.customFields.has(internal) ? internal : undefined);
  const exact = known(SHORT_NAMES[lower] ?? API_NAMES[lower] ?? (SEARCH_FIELDS[lower] || catalogue.customFields.has(lower) ? lower : undefined));
  if (exact) return exact;
  const names = [...new Set([...Object.keys(SHORT_NAMES), ...Object.keys(API_NAMES), ...Object.keys(SEARCH_FIELDS), ...catalogue.customFields])];
  const targets = [...new Set(names.filter((n) => n.startsWith(lower)).map((n) => SHORT_NAMES[n] ?? API_NAMES[n] ?? n).filter((n) => known(n)))];
  if (targets.length === 1) return targets[0];
  throw TrackerError.of(Errors.QUICKSEARCH_UNKNOWN_FIELD, { field: name, ambiguous: targets.length > 1, candidates: targets });
}

/** Words on spaces; double quotes group words into one. */
function tokens(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(-?)"([^"]*)"|(\S+)/g)) found.push(m[3] ?? `${m[1]}${m[2]}`);
  return found;
}

/** The status/resolution selected by a first word written in capitals (`OPEN`, `ALL`, `FIXED`, `CONF,IN_PROG`), or undefined. */
function statusWord(word: string, catalogue: QuicksearchCatalogue): Criterion | null | undefined {
  if (word === 'ALL') return null;
  if (word === 'OPEN') return term('bug_status', 'anyexact', ['__open__']);
  if (!/^[A-Z_]+(,[A-Z_]+)*$/.test(word)) return undefined;
  const prefixes = word.split(',');
  const statuses = catalogue.statuses.filter((s) => prefixes.some((p) => s.name.startsWith(p))).map((s) => s.name);
  const resolutions = catalogue.resolutions.filter((r) => r !== '' && prefixes.some((p) => r.startsWith(p)));
  if (!statuses.length && !resolutions.length) return undefined;
  if (!resolutions.length) return term('bug_status', 'anyexact', statuses);
  // A selected resolution also selects every closed status.
  const closed = catalogue.statuses.filter((s) => !s.isOpen).map((s) => s.name);
  return or([...(statuses.length ? [term('bug_status', 'anyexact', statuses)] : []), and([term('bug_status', 'anyexact', closed), term('resolution', 'anyexact', resolutions)])]);
}

/** One word of a quicksearch (search.md rules 4–7). */
function wordCriterion(word: string, catalogue: QuicksearchCatalogue): Criterion {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) {
    const m = /^([A-Za-z_][\w.,]*?)(!=|>=|<=|:|=|>|<)(.+)$/.exec(word);
    if (m) {
      const op = FIELD_OPERATORS.find(([symbol]) => symbol === m[2])![1];
      const values = m[3].split(',').filter(Boolean);
      const fields = m[1].split(',').filter(Boolean).map((f) => quickField(f, catalogue));
      const valueOp: Operator = op === 'equals' ? 'anyexact' : op;
      return or(fields.map((f) => (op === 'notequals' ? not(term(f, 'anyexact', values)) : or(values.map((v) => term(f, valueOp, valueOp === 'anyexact' ? [v] : v))))));
    }
  }
  const rest = word.slice(1);
  switch (word[0]) {
    case '#': return or([term('short_desc', 'substring', rest), term('longdesc', 'substring', rest)]);
    case ':': return or([term('product', 'substring', rest), term('component', 'substring', rest)]);
    case '@': return term('assigned_to', 'substring', rest);
    case '[': return or([term('short_desc', 'substring', rest), term('status_whiteboard', 'substring', rest)]);
    case '!': return term('keywords', 'anyexact', [rest]);
  }
  const p = /^P(\d+)(?:-(\d+))?$/.exec(word);
  if (p && !catalogue.priorities.includes(word)) {
    const low = Number(p[1]);
    const high = Number(p[2] ?? p[1]);
    const chosen = catalogue.priorities.filter((_, i) => i + 1 >= Math.min(low, high) && i + 1 <= Math.max(low, high));
    return term('priority', 'anyexact', chosen);
  }
  if (p) return term('priority', 'anyexact', [word]);
  return or(word.split(',').filter(Boolean).map((alternative) => plainWord(alternative, catalogue)));
}

/** A plain word: product or component (longer than 2), keyword, alias, summary, whiteboard, comment text, URL-like words the URL. */
function plainWord(word: string, catalogue: QuicksearchCatalogue): Criterion {
  const fields: Criterion[] = [];
  if (word.length > 2) fields.push(term('product', 'substring', word), term('component', 'substring', word));
  if ([...catalogue.keywords].some((k) => k.toLowerCase() === word.toLowerCase())) fields.push(term('keywords', 'anyexact', [word]));
  fields.push(term('alias', 'substring', word), term('short_desc', 'substring', word), term('status_whiteboard', 'substring', word), term('longdesc', 'substring', word));
  if (/^[a-z][a-z0-9+.-]*:\/\/|^[\w-]+(\.[\w-]+)+(\/|$)|^\d{1,3}(\.\d{1,3}){3}$/i.test(word)) fields.push(term('bug_file_loc', 'substring', word));
  return or(fields);
}

/**
 * Translates a quicksearch string (search.md "Quicksearch subset", Bugzilla/Search/Quicksearch.pm) into criteria:
 * bug ids; words joined by AND (or a space), OR / `|`, NOT / `-`; a first word in capitals selecting statuses or
 * resolutions (else only open bugs); `field:value` and its operators; the `#` `:` `@` `[` `!` prefixes; P-syntax;
 * plain words over product, component, keywords, alias, summary, whiteboard and comment text.
 */
export function quicksearch(input: string, catalogue: QuicksearchCatalogue): Criterion {
  const text = input.replace(/^[\s,]+|[\s,]+$/g, '');
  if (text === '') throw TrackerError.of(Errors.BUGLIST_PARAMETERS_REQUIRED);
  if (/^[\d,\s]+$/.test(text)) return term('bug_id', 'anyexact', text.split(/[\s,]+/).filter(Boolean));
  if ((text.match(/"/g)?.length ?? 0) % 2) throw invalid('a double quote is not closed');
  const words = tokens(text);
  if (['AND', 'OR'].includes(words[0])) throw invalid(`it may not start with ${words[0]}`);
  if (['AND', 'OR', 'NOT'].includes(words.at(-1)!)) throw invalid(`it may not end with ${words.at(-1)}`);

  const status = statusWord(words[0], catalogue);
  if (status !== undefined) words.shift();
  const groups: Criterion[][] = [];
  let joinNext = false;
  let negateNext = false;
  for (const word of words) {
    if (word === 'AND') continue;
    if (word === 'OR' || word === '|') { joinNext = true; continue; }
    if (word === 'NOT') { negateNext = !negateNext; continue; }
    const negative = negateNext !== (word.startsWith('-') && word.length > 1);
    const bare = word.startsWith('-') && word.length > 1 ? word.slice(1) : word;
    const alternatives = bare.split('|').filter(Boolean).map((w) => wordCriterion(w, catalogue));
    const criterion = negative ? not(or(alternatives)) : or(alternatives);
    if (joinNext && groups.length) groups.at(-1)!.push(criterion);
    else groups.push([criterion]);
    joinNext = false;
    negateNext = false;
  }
  return and([...(status === undefined ? [term('bug_status', 'anyexact', ['__open__'])] : status ? [status] : []), ...groups.map(or)]);
}
