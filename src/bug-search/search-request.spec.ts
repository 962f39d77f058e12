import { searchCriteria, sortKeys } from './search-request.js';
import { hasTerms, testOf } from './search-criteria.js';
import { BMO_SEARCH_FIELDS } from './search-fields.js';

const custom = new Set(['cf_team']);
const coded = (code: number, text: string) => expect.objectContaining({ code, message: expect.stringContaining(text) });

describe('searchCriteria (the parameters of Search Bugs as a criteria tree)', () => {
  it('plain parameters: API and internal names, default operators, repeated values as any', () => {
    expect(searchCriteria({ product: ['A,B', 'C'] }, custom)).toEqual({ kind: 'term', field: 'product', op: 'anyexact', value: ['A,B', 'C'] });
    expect(searchCriteria({ summary: 'a b' }, custom)).toEqual({ kind: 'term', field: 'short_desc', op: 'substring', value: ['a b'] });
    expect(searchCriteria({ short_desc: 'a b' }, custom)).toMatchObject({ field: 'short_desc', op: 'allwordssubstr' });
    expect(searchCriteria({ id: '1,2' }, custom)).toMatchObject({ field: 'bug_id', op: 'anyexact', value: ['1', '2'] });
    expect(searchCriteria({ creation_time: '2020-01-01' }, custom)).toMatchObject({ field: 'creation_ts', op: 'greaterthaneq', value: '2020-01-01' });
    expect(searchCriteria({ resolution: '---' }, custom)).toMatchObject({ field: 'resolution', value: [''] });
    expect(searchCriteria({ cf_team: 'x', short_desc: 'y', short_desc_type: 'casesubstring' }, custom)).toEqual({
      kind: 'and', items: [{ kind: 'term', field: 'cf_team', op: 'anyexact', value: ['x'] }, { kind: 'term', field: 'short_desc', op: 'casesubstring', value: ['y'] }],
    });
  });

  it("BMO's fields are criteria only when named (bmo_bug_fields on); else unknown (53, 108)", () => {
    const bmo = new Set([...custom, ...BMO_SEARCH_FIELDS]);
    expect(() => searchCriteria({ type: 'task' }, custom)).toThrow(coded(53, 'type'));
    expect(() => searchCriteria({ f1: 'regresses', o1: 'isnotempty' }, custom)).toThrow(coded(108, 'regresses'));
    expect(searchCriteria({ type: 'task' }, bmo)).toEqual({ kind: 'term', field: 'bug_type', op: 'anyexact', value: ['task'] });
    expect(searchCriteria({ regressions: '5', filed_via: 'api' }, bmo)).toEqual({
      kind: 'and', items: [{ kind: 'term', field: 'regresses', op: 'anyexact', value: ['5'] }, { kind: 'term', field: 'filed_via', op: 'anyexact', value: ['api'] }],
    });
  });

  it('no criteria: steering and protocol parameters only', () => {
    const tree = searchCriteria({ limit: '5', offset: '1', include_fields: 'id', Bugzilla_api_key: 'k', callback: 'cb', _: '1', permissive: '1', query_format: 'advanced', product: '' }, custom);
    expect(hasTerms(tree)).toBe(false);
  });

  it('an unknown parameter is 53 naming it; an unknown chart field 108; an unknown operator 32000', () => {
    expect(() => searchCriteria({ prodcut: 'x' }, custom)).toThrow(coded(53, 'prodcut'));
    expect(() => searchCriteria({ cf_nope: 'x' }, custom)).toThrow(coded(53, 'cf_nope'));
    expect(() => searchCriteria({ f1: 'nope', o1: 'equals' }, custom)).toThrow(coded(108, 'nope'));
    expect(() => searchCriteria({ f1: 'product', o1: 'like' }, custom)).toThrow(coded(32000, 'like'));
  });

  it('charts: negation, joins and parentheses', () => {
    expect(searchCriteria({ j_top: 'OR', f1: 'product', o1: 'equals', v1: 'A', f2: 'OP', n2: '1', f3: 'bug_id', o3: 'lessthan', v3: '5', f4: 'CP' }, custom)).toEqual({
      kind: 'or',
      items: [{ kind: 'term', field: 'product', op: 'equals', value: 'A' }, { kind: 'not', item: { kind: 'term', field: 'bug_id', op: 'lessthan', value: '5' } }],
    });
  });

  it('order: names with ASC/DESC, legacy names; anything but a bug column is 108', () => {
    expect(sortKeys('priority DESC, Bug Number', custom)).toEqual([
      { column: 'priority', descending: true, name: 'priority', time: false },
      { column: 'id', descending: false, name: 'Bug Number', time: false },
    ]);
    expect(sortKeys('deadline', custom)[0].time).toBe(true);
    expect(() => sortKeys('product', custom)).toThrow(coded(108, 'product'));
    // a line break in a name (the fuzzer's find: it was a 500) is just an unknown field
    expect(() => sortKeys('prio\nrity DESC', custom)).toThrow(coded(108, 'prio\nrity'));
  });
});

describe('testOf (operators taken apart)', () => {
  it('splits words and lists as the operator says', () => {
    expect(testOf('anyexact', 'a, b')).toEqual({ base: 'in', values: ['a', 'b'], all: false, negate: false });
    expect(testOf('allwordssubstr', 'a b,c')).toEqual({ base: 'substring', values: ['a', 'b', 'c'], all: true, negate: false });
    expect(testOf('nowords', 'a b')).toEqual({ base: 'word', values: ['a', 'b'], all: false, negate: true });
    expect(testOf('isnotempty', '')).toEqual({ base: 'isempty', values: [], all: false, negate: true });
  });
});
