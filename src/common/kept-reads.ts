import { MarkedCache } from './marked-cache.js';
import { keptReads } from './metrics/metrics.js';

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
    let cache = this.byKind.get(kind) as MarkedCache<string, V> | undefined;
    if (!cache) {
      cache = new MarkedCache<string, V>(this.capacityPerKind);
      this.byKind.set(kind, cache);
    }
    const cacheKey = JSON.stringify(key);
    const kept = cache.get(cacheKey, mark);
    keptReads.inc({ kind, outcome: kept === undefined ? 'miss' : 'hit' });
    if (kept !== undefined) return Promise.resolve(kept);
    return load().then((value) => cache.set(cacheKey, mark, deepFreeze(value)));
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
