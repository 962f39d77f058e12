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
});
