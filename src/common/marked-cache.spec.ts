import { MarkedCache } from './marked-cache.js';

describe('MarkedCache', () => {
  it('serves a value only under the mark it was kept with', () => {
    const cache = new MarkedCache<number, string>();
    cache.set(1, 10, 'a');
    expect(cache.get(1, 10)).toBe('a');
    expect(cache.get(1, 11)).toBeUndefined();
    expect(cache.get(1, 10)).toBeUndefined(); // a stale entry is dropped, never revived
  });
  it('loads through on a miss and keeps the result', async () => {
    const cache = new MarkedCache<string, number>();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.through('k', 1, load)).toBe(1);
    expect(await cache.through('k', 1, load)).toBe(1);
    expect(await cache.through('k', 2, load)).toBe(2);
  });
  it('keeps at most its capacity, dropping the oldest', () => {
    const cache = new MarkedCache<number, number>(2);
    cache.set(1, 0, 1);
    cache.set(2, 0, 2);
    cache.set(3, 0, 3);
    expect(cache.get(1, 0)).toBeUndefined();
    expect(cache.get(3, 0)).toBe(3);
  });
});
