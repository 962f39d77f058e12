import { Errors, TrackerError } from '../common/errors/index.js';

/** The operators of search.md's advanced search (Bugzilla/Search.pm OPERATORS). */
export const OPERATORS = [
  'equals', 'notequals', 'anyexact', 'substring', 'casesubstring', 'notsubstring', 'anywordssubstr', 'allwordssubstr',
  'nowordssubstr', 'regexp', 'notregexp', 'lessthan', 'lessthaneq', 'greaterthan', 'greaterthaneq', 'anywords', 'allwords',
  'nowords', 'changedbefore', 'changedafter', 'changedfrom', 'changedto', 'changedby', 'matches', 'notmatches', 'isempty',
  'isnotempty',
] as const;
export type Operator = (typeof OPERATORS)[number];

export function isOperator(value: string): value is Operator {
  return (OPERATORS as readonly string[]).includes(value);
}

/**
 * A search as a tree: criteria joined by AND / OR, negated, or one term. A term names a field by its internal name;
 * `value` is the text of an advanced-search value (split as its operator says) or a list meaning "any of" (the
 * repeated keys of a plain parameter).
 */
export type Criterion =
  | { kind: 'and' | 'or'; items: Criterion[] }
  | { kind: 'not'; item: Criterion }
  | { kind: 'term'; field: string; op: Operator; value: string | string[] };

export const and = (items: Criterion[]): Criterion => (items.length === 1 ? items[0] : { kind: 'and', items });
export const or = (items: Criterion[]): Criterion => (items.length === 1 ? items[0] : { kind: 'or', items });
export const not = (item: Criterion): Criterion => ({ kind: 'not', item });
export const term = (field: string, op: Operator, value: string | string[]): Criterion => ({ kind: 'term', field, op, value });

/** Whether the tree holds any term (an empty AND is "no criteria"). */
export function hasTerms(criterion: Criterion): boolean {
  if (criterion.kind === 'term') return true;
  if (criterion.kind === 'not') return hasTerms(criterion.item);
  return criterion.items.some(hasTerms);
}

/** The value tests every operator comes down to; each holds when the value equals / contains … ANY of `values`. */
export type BaseTest = 'in' | 'substring' | 'casesubstring' | 'regexp' | 'word' | 'lessthan' | 'lessthaneq' | 'greaterthan' | 'greaterthaneq' | 'isempty';

/** An operator taken apart: a base test over values, whether every value must hold (each alone), and negation. */
export interface Test {
  base: BaseTest;
  values: string[];
  /** Every value must hold: the term is an AND of one test per value. */
  all: boolean;
  negate: boolean;
}

const words = (value: string | string[]) => (Array.isArray(value) ? value.join(' ') : value).split(/[\s,]+/).filter(Boolean);
const commaList = (value: string | string[]) =>
  Array.isArray(value) ? value : value.split(',').map((v) => v.trim()).filter((v) => v !== '');
const whole = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

/** The base test of an operator other than the `changed*` ones (Search.pm's operator table, case-insensitive). */
export function testOf(op: Exclude<Operator, `changed${string}`>, value: string | string[]): Test {
  const test = (base: BaseTest, values: string[], extra: Partial<Test> = {}): Test => ({ base, values, all: false, negate: false, ...extra });
  switch (op) {
    case 'equals': return test('in', whole(value));
    case 'notequals': return test('in', whole(value), { negate: true });
    case 'anyexact': return test('in', commaList(value));
    case 'substring': return test('substring', whole(value));
    case 'casesubstring': return test('casesubstring', whole(value));
    case 'notsubstring': return test('substring', whole(value), { negate: true });
    case 'anywordssubstr': return test('substring', words(value));
    case 'allwordssubstr': return test('substring', words(value), { all: true });
    case 'nowordssubstr': return test('substring', words(value), { negate: true });
    case 'regexp': return test('regexp', whole(value));
    case 'notregexp': return test('regexp', whole(value), { negate: true });
    case 'lessthan': case 'lessthaneq': case 'greaterthan': case 'greaterthaneq': return test(op, whole(value).slice(0, 1));
    case 'anywords': return test('word', words(value));
    case 'allwords': return test('word', words(value), { all: true });
    case 'nowords': return test('word', words(value), { negate: true });
    // Full-text `matches` is read as "all the words, as substrings" (no full-text index on either database).
    case 'matches': return test('substring', words(value), { all: true });
    case 'notmatches': return test('substring', words(value), { all: true, negate: true });
    case 'isempty': return test('isempty', []);
    case 'isnotempty': return test('isempty', [], { negate: true });
  }
}

/**
 * The same tests in JavaScript, case-insensitive, for fields whose candidates are few and read through their module's
 * service (products, components, classifications, keywords, groups, users): the matching ids then go into the SQL.
 */
export function matchesText(base: BaseTest, values: readonly string[], candidate: string): boolean {
  const text = candidate.toLowerCase();
  const lower = values.map((v) => v.toLowerCase());
  switch (base) {
    case 'in': return lower.includes(text);
    case 'substring': return lower.some((v) => text.includes(v));
    case 'casesubstring': return values.some((v) => candidate.includes(v));
    case 'regexp': return values.some((v) => regexpOf(v).test(candidate));
    case 'word': return lower.some((v) => text.split(/[^\p{L}\p{N}_.@-]+/u).includes(v));
    case 'lessthan': return lower.some((v) => text < v);
    case 'lessthaneq': return lower.some((v) => text <= v);
    case 'greaterthan': return lower.some((v) => text > v);
    case 'greaterthaneq': return lower.some((v) => text >= v);
    case 'isempty': return text === '';
  }
}

function regexpOf(value: string): RegExp {
  try {
    return new RegExp(value, 'iu');
  } catch (err) {
    throw TrackerError.of(Errors.ILLEGAL_REGEXP, { value, reason: (err as Error).message });
  }
}
