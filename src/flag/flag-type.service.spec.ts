import { typeApplies, type Clusion } from './flag-type.service.js';
import { parseClusionNames } from './flag-type-admin.service.js';

const row = (typeId: number, productId: number | null, componentId: number | null): Clusion => ({ typeId, productId, componentId });

describe('where a flag type applies (Bugzilla FlagType::match)', () => {
  const inclusions = [row(1, null, null), row(2, 10, null), row(3, 10, 100)];
  const exclusions = [row(1, 20, null), row(2, 10, 101)];

  it('with a component: an inclusion must cover product and component, and no exclusion may', () => {
    expect([1, 2, 3].filter((t) => typeApplies(t, inclusions, exclusions, 10, 100))).toEqual([1, 2, 3]);
    expect([1, 2, 3].filter((t) => typeApplies(t, inclusions, exclusions, 10, 101))).toEqual([1]);
    expect([1, 2, 3].filter((t) => typeApplies(t, inclusions, exclusions, 20, 200))).toEqual([]);
  });

  it('without a component: any inclusion in the product counts, only product-wide exclusions exclude', () => {
    expect([1, 2, 3].filter((t) => typeApplies(t, inclusions, exclusions, 10))).toEqual([1, 2, 3]);
    expect([1, 2, 3].filter((t) => typeApplies(t, inclusions, exclusions, 20))).toEqual([]);
    expect([1, 2, 3].filter((t) => typeApplies(t, inclusions, exclusions, 30))).toEqual([1]);
  });

  it('inclusions/exclusions are given as product names or as product → components', () => {
    const parse = (raw: unknown) => parseClusionNames(raw, 'inclusions', 'FlagType.create');
    expect(parse(['A', 'B'])).toEqual([{ product: 'A', component: null }, { product: 'B', component: null }]);
    expect(parse({ A: ['x', 'y'], B: [] })).toEqual([
      { product: 'A', component: 'x' }, { product: 'A', component: 'y' }, { product: 'B', component: null },
    ]);
    // 5.0's own form: an array mixing product names and product → components objects
    expect(parse(['A', { B: ['y'] }, { C: [] }])).toEqual([
      { product: 'A', component: null }, { product: 'B', component: 'y' }, { product: 'C', component: null },
    ]);
    expect(() => parse([['A']])).toThrow("'inclusions' is not a valid parameter for the FlagType.create function.");
    expect(() => parse([{ A: [{ x: 1 }] }])).toThrow(/FlagType\.create function/);
  });
});
