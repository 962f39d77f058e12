import { KeptReads } from './kept-reads.js';

describe('KeptReads', () => {
  const counting = () => {
    let loads = 0;
    return { load: async () => ({ n: ++loads, list: [{ name: 'a' }] }), loads: () => loads };
  };

  it('keeps a value per kind and key while the mark stays, and reads again when it moves', async () => {
    const kept = new KeptReads();
    const source = counting();
    expect((await kept.through(1, 'product', ['Alpha'], source.load)).n).toBe(1);
    expect((await kept.through(1, 'product', ['Alpha'], source.load)).n).toBe(1);
    expect((await kept.through(1, 'product', ['Beta'], source.load)).n).toBe(2);
    expect((await kept.through(1, 'component', ['Alpha'], source.load)).n).toBe(3);
    expect((await kept.through(2, 'product', ['Alpha'], source.load)).n).toBe(4);
  });

  it('without a mark, reads every time and keeps nothing', async () => {
    const kept = new KeptReads();
    const source = counting();
    await kept.through(undefined, 'product', ['Alpha'], source.load);
    await kept.through(undefined, 'product', ['Alpha'], source.load);
    expect(source.loads()).toBe(2);
  });

  it('hands out frozen values, so no request can change what the next one reads', async () => {
    const kept = new KeptReads();
    const value = await kept.through(1, 'product', ['Alpha'], counting().load);
    expect(() => value.list.push({ name: 'b' })).toThrow(TypeError);
    expect(() => { value.list[0].name = 'changed'; }).toThrow(TypeError);
  });

  it('keeps values per id: only ids not kept under the mark are loaded, in one call', async () => {
    const kept = new KeptReads();
    const asked: number[][] = [];
    const load = async (missing: number[]) => {
      asked.push(missing);
      return new Map(missing.filter((id) => id !== 9).map((id) => [id, { id, at: asked.length }]));
    };
    expect([...(await kept.throughEach(1, 'user', [1, 2, 2], load)).keys()]).toEqual([1, 2]);
    const second = await kept.throughEach(1, 'user', [2, 3, 9], load);
    expect([...second.entries()]).toEqual([[2, { id: 2, at: 1 }], [3, { id: 3, at: 2 }]]);
    expect(asked).toEqual([[1, 2], [3, 9]]);
    await kept.throughEach(1, 'user', [1, 2, 3], load);
    expect(asked).toHaveLength(2);
    // An unknown id is asked again; a moved mark reads everything afresh; no mark keeps nothing.
    await kept.throughEach(1, 'user', [9], load);
    await kept.throughEach(2, 'user', [1], load);
    await kept.throughEach(undefined, 'user', [1], load);
    await kept.throughEach(undefined, 'user', [1], load);
    expect(asked.slice(2)).toEqual([[9], [1], [1], [1]]);
    expect(Object.isFrozen(second.get(2))).toBe(true);
  });
});
