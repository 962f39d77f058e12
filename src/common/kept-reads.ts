import { MarkedCache } from './marked-cache.js';
import { countKeptRead } from './metrics/metrics.js';

/**
 * Reads of settings (products, components, field values, workflow …) kept by one instance under the settings
 * mark that the caller's credential statement read (Caller.settingsMark). Filing and changing bugs does not move
 * that mark, so the catalogue reads Create Bug repeats cost nothing while bugs pour in; any write to a settings
 * table moves it, and a value kept under an older mark is never used. Kept values are frozen: a caller that
 * changed one would change it for every later request.
 */
export class KeptReads {
  private readonly byKind = new Map<string, MarkedCache<string, unknown>>();

  constructor(private readonly capacityPerKind = 1_000) {}

  /** `load()`'s value for (kind, key), kept under `mark`; without a mark, read afresh and not kept. */
  through<V>(mark: number | undefined, kind: string, key: readonly unknown[], load: () => Promise<V>): Promise<V> {
    if (mark === undefined) return load();
    const cache = this.cacheOf<V>(kind);
    const cacheKey = JSON.stringify(key);
    const kept = cache.get(cacheKey, mark);
    countKeptRead(kind, kept === undefined ? 'miss' : 'hit');
    if (kept !== undefined) return Promise.resolve(kept);
    return load().then((value) => cache.set(cacheKey, mark, deepFreeze(value)));
  }

  /**
   * The values of `keys` (ids, logins …) under `kind`, each kept on its own under `mark`: `load` is asked only for
   * those not kept, in one call, and answers the values it found (a key it does not answer is absent, and asked
   * again next time). So a set of ids costs one read the first time any of them is new, whatever sets came before.
   */
  async throughEach<K extends number | string, V>(mark: number | undefined, kind: string, keys: readonly K[], load: (missing: K[]) => Promise<ReadonlyMap<K, V>>): Promise<Map<K, V>> {
    const unique = [...new Set(keys)];
    if (mark === undefined) return new Map(await load(unique));
    const cache = this.cacheOf<V>(kind);
    const found = new Map<K, V>();
    const missing: K[] = [];
    for (const key of unique) {
      const kept = cache.get(String(key), mark);
      if (kept === undefined) missing.push(key);
      else found.set(key, kept);
    }
    countKeptRead(kind, missing.length ? 'miss' : 'hit');
    if (missing.length) {
      for (const [key, value] of await load(missing)) found.set(key, cache.set(String(key), mark, deepFreeze(value)));
    }
    return found;
  }

  private cacheOf<V>(kind: string): MarkedCache<string, V> {
    let cache = this.byKind.get(kind) as MarkedCache<string, V> | undefined;
    if (!cache) {
      cache = new MarkedCache<string, V>(this.capacityPerKind);
      this.byKind.set(kind, cache);
    }
    return cache;
  }
}

/** Freezes a value and everything in it (Map and Set contents too): kept values are shared by every request. */
export function deepFreeze<V>(value: V): V {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (value instanceof Map) {
    for (const item of value.values()) deepFreeze(item);
  } else if (value instanceof Set) {
    for (const item of value) deepFreeze(item);
  } else {
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return Object.freeze(value);
}
