import { Errors, TrackerError } from './errors/index.js';

/**
 * Bugzilla's params_to_objects over rows already loaded: the objects named by `ids`, then by `names`
 * (case-insensitive), duplicates removed, in that order; an unknown id or name is 51 naming `kind`. A name
 * may match several objects (flag type names are not unique).
 */
export function pickByIdsAndNames<T extends { id: number; name: string }>(
  all: readonly T[],
  target: { ids: readonly number[]; names: readonly string[] },
  kind: string,
): T[] {
  const result = new Map<number, T>();
  for (const id of target.ids) {
    const found = all.find((item) => item.id === id);
    if (!found) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind, id });
    result.set(found.id, found);
  }
  for (const name of target.names) {
    const wanted = name.trim().toLowerCase();
    const found = all.filter((item) => item.name.toLowerCase() === wanted);
    if (!found.length) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind, name });
    for (const item of found) result.set(item.id, item);
  }
  return [...result.values()];
}
