import { quicksearch } from './quicksearch.js';

const catalogue = {
  statuses: [{ name: 'UNCONFIRMED', isOpen: true }, { name: 'CONFIRMED', isOpen: true }, { name: 'RESOLVED', isOpen: false }, { name: 'VERIFIED', isOpen: false }],
  resolutions: ['', 'FIXED', 'INVALID'],
  priorities: ['Highest', 'High', 'Normal'],
  keywords: new Set(['crash']),
  customFields: new Set<string>(),
};
const open = { kind: 'term', field: 'bug_status', op: 'anyexact', value: ['__open__'] };
const coded = (code: number) => expect.objectContaining({ code });

describe('quicksearch (search.md "Quicksearch subset")', () => {
  it('digits, commas and spaces are bug ids, with no status restriction', () => {
    expect(quicksearch(' 12, 15 17 ', catalogue)).toEqual({ kind: 'term', field: 'bug_id', op: 'anyexact', value: ['12', '15', '17'] });
  });
  it('a first word in capitals selects statuses or resolutions; otherwise open bugs only', () => {
    expect(quicksearch('RESO', catalogue)).toEqual({ kind: 'term', field: 'bug_status', op: 'anyexact', value: ['RESOLVED'] });
    expect(quicksearch('FIX', catalogue)).toEqual({
      kind: 'and', items: [{ kind: 'term', field: 'bug_status', op: 'anyexact', value: ['RESOLVED', 'VERIFIED'] }, { kind: 'term', field: 'resolution', op: 'anyexact', value: ['FIXED'] }],
    });
    expect(quicksearch('summary:x', catalogue)).toEqual({ kind: 'and', items: [open, { kind: 'term', field: 'short_desc', op: 'substring', value: 'x' }] });
    expect(quicksearch('ALL summary:x', catalogue)).toEqual({ kind: 'term', field: 'short_desc', op: 'substring', value: 'x' });
  });
  it('P-syntax by position, prefixes, field prefixes', () => {
    expect(quicksearch('ALL P1-2', catalogue)).toEqual({ kind: 'term', field: 'priority', op: 'anyexact', value: ['Highest', 'High'] });
    expect(quicksearch('ALL !crash', catalogue)).toEqual({ kind: 'term', field: 'keywords', op: 'anyexact', value: ['crash'] });
    expect(quicksearch('ALL compo=Foo', catalogue)).toEqual({ kind: 'term', field: 'component', op: 'anyexact', value: ['Foo'] });
  });
  it('errors: leading AND/OR, trailing AND/OR/NOT, unknown or ambiguous fields (32000); empty (1000)', () => {
    expect(() => quicksearch('OR x', catalogue)).toThrow(coded(32000));
    expect(() => quicksearch('x NOT', catalogue)).toThrow(coded(32000));
    expect(() => quicksearch('zzz:x', catalogue)).toThrow(coded(32000));
    expect(() => quicksearch('a:x', catalogue)).toThrow(expect.objectContaining({ message: expect.stringContaining('ambiguous') }));
    expect(() => quicksearch(' ,, ', catalogue)).toThrow(coded(1000));
  });
  it("BMO's fields only when the catalogue names them (bmo_bug_fields on)", () => {
    expect(() => quicksearch('ALL type:task', catalogue)).toThrow(coded(32000));
    expect(() => quicksearch('ALL filed_via:api', catalogue)).toThrow(coded(32000));
    const withBmo = { ...catalogue, customFields: new Set(['bug_type', 'filed_via', 'regressed_by', 'regresses']) };
    expect(quicksearch('ALL type:task', withBmo)).toEqual({ kind: 'term', field: 'bug_type', op: 'substring', value: 'task' });
    expect(quicksearch('ALL filed_v:api', withBmo)).toEqual({ kind: 'term', field: 'filed_via', op: 'substring', value: 'api' });
  });
});
