import { applyAtPath, FieldSelection, type ResourceFields } from './field-selection.js';

const BUG: ResourceFields = {
  extra: ['tags'],
  isCustom: (name) => name.startsWith('cf_'),
  linked: { assigned_to_detail: 'assigned_to' },
  nested: { assigned_to_detail: {} },
};
const bug = { id: 1, summary: 's', assigned_to: 'a@x', assigned_to_detail: { id: 2, name: 'a@x', real_name: 'A' }, cf_color: 'red', tags: ['t'] };
const PRODUCT: ResourceFields = { nested: { components: { nested: { flag_types: {} } } } };
const product = { id: 1, name: 'P', components: [{ id: 5, name: 'C', flag_types: { bug: [], attachment: [] } }] };

const select = (include?: string[], exclude?: string[]) => new FieldSelection(include, exclude);

describe('FieldSelection (misc.md rules 1–7)', () => {
  it('returns default fields but not extra ones when nothing is selected', () => {
    expect(select().apply(bug, BUG)).toEqual({ id: 1, summary: 's', assigned_to: 'a@x', assigned_to_detail: bug.assigned_to_detail, cf_color: 'red' });
  });
  it('include_fields keeps only the named fields; invalid names are ignored', () => {
    expect(select(['id', 'nonsense']).apply(bug, BUG)).toEqual({ id: 1 });
  });
  it('exclude wins over include for the same name (rule 1)', () => {
    expect(select(['id', 'summary'], ['summary']).apply(bug, BUG)).toEqual({ id: 1 });
  });
  it('_all returns extra fields too; exclude _all drops everything not named', () => {
    expect(select(['_all']).apply(bug, BUG)).toHaveProperty('tags');
    expect(select(['id'], ['_all']).apply(bug, BUG)).toEqual({ id: 1 });
  });
  it('_extra alone returns only extra fields (rule 6 is switched off by any include)', () => {
    expect(select(['_extra']).apply(bug, BUG)).toEqual({ tags: ['t'] });
  });
  it('_default plus a name returns the defaults and that name', () => {
    const result = select(['_default', 'tags']).apply(bug, BUG);
    expect(result).toHaveProperty('tags');
    expect(result).toHaveProperty('summary');
  });
  it('_custom selects custom fields only; excluding _custom drops them', () => {
    expect(select(['_custom']).apply(bug, BUG)).toEqual({ cf_color: 'red' });
    expect(select(undefined, ['_custom']).apply(bug, BUG)).not.toHaveProperty('cf_color');
  });
  it('a linked field follows its base (assigned_to brings assigned_to_detail)', () => {
    expect(select(['assigned_to']).apply(bug, BUG)).toEqual({ assigned_to: 'a@x', assigned_to_detail: bug.assigned_to_detail });
  });
  it('a linked field named in exclude_fields is dropped even when its base is included (strict, seed wins)', () => {
    expect(select(['assigned_to'], ['assigned_to_detail']).apply(bug, BUG)).toEqual({ assigned_to: 'a@x' });
  });
  it('subfields of a linked detail object use the base prefix (assigned_to.id)', () => {
    expect(select(['assigned_to.id']).apply(bug, BUG)).toEqual({ assigned_to: 'a@x', assigned_to_detail: { id: 2 } });
  });
  it('components.name returns products with just components: [{name}]', () => {
    expect(select(['components.name']).apply(product, PRODUCT)).toEqual({ components: [{ name: 'C' }] });
  });
  it('a main field can be included while a subfield is excluded', () => {
    expect(select(['components'], ['components.flag_types']).apply(product, PRODUCT)).toEqual({ components: [{ id: 5, name: 'C' }] });
  });
  it('wants() answers in advance for expensive fields', () => {
    expect(select(['id']).wants('comments')).toBe(false);
    expect(select().wants('tags', BUG)).toBe(false);
    expect(select(['_extra']).wants('tags', BUG)).toBe(true);
    expect(select(['assigned_to.id']).wants('assigned_to')).toBe(true);
  });
});

describe('applyAtPath', () => {
  const selection = select(['id']);
  it('filters each item of an array', () => {
    expect(applyAtPath({ bugs: [bug], faults: [] }, 'bugs[]', selection, BUG)).toEqual({ bugs: [{ id: 1 }], faults: [] });
  });
  it('filters each value of a map and arrays inside maps', () => {
    const response = { bugs: { '1': { comments: [{ id: 1, text: 'x' }] } }, comments: { '7': { id: 7, text: 'y' } } };
    expect(applyAtPath(applyAtPath(response, 'bugs.*.comments[]', selection, {}), 'comments.*', selection, {})).toEqual({
      bugs: { '1': { comments: [{ id: 1 }] } },
      comments: { '7': { id: 7 } },
    });
  });
  it('filters a single object (parameters)', () => {
    expect(applyAtPath({ parameters: { id: 'x', other: 'y' } }, 'parameters', selection, {})).toEqual({ parameters: { id: 'x' } });
  });
});
