import { deepFreeze } from '../common/kept-reads.js';
import type { BugDetail, BugRelation, BugRelations, CustomFieldDef } from './loaded-bug.js';

/** Kept JSON variants per bug (field selections × caller classes); more are rare, and then the bug's variants start over. */
const MAX_JSON_VARIANTS = 8;

/** How much one instance keeps: at most `entries` bugs, and about `bytes` of them (their data and kept JSON). */
export interface CacheBounds {
  entries: number;
  bytes: number;
}

/** An estimate of what a kept value holds in memory: its JSON length in UTF-16 code units, two bytes each. */
const estimatedBytes = (value: unknown) => 2 * (JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? [...v] : v))?.length ?? 0);

/** What a read of the database says about one bug right now: its version, and whether the caller may see it. */
export interface BugStamp {
  lastChangeTime: string;
  /** The audit mark (auditMarkSql): every change of what a bug shows by name (users, products, keywords …) moves it. */
  auditMark: number;
  visible: boolean;
}

export interface KeptRelations {
  readonly wanted: ReadonlySet<BugRelation>;
  readonly value: Readonly<BugRelations>;
  readonly customFields: readonly CustomFieldDef[];
}

/**
 * One kept bug. Entries are frozen and never changed in place: a request holds the entries it took for its whole
 * life, while concurrent requests replace them in the map (issue 12, defect 2).
 */
export interface KeptBug {
  readonly lastChangeTime: string;
  readonly auditMark: number;
  readonly detail: Readonly<Omit<BugDetail, 'visible'>>;
  readonly relations?: KeptRelations;
}

/**
 * Loaded bugs kept by one instance, served only while the database says they are current: a bug's
 * `last_change_time` moves with every change to it or its relations (updates.md), and the audit mark moves with
 * every change of what a bug shows by name (a user's login or real name, a product, component,
 * keyword, group, flag type or field). Both are read on every request, so N instances never serve stale data;
 * the cache only saves the two heavy statements. Personal tags are never kept (they belong to the caller).
 * Bounded by entries and by (estimated) bytes: the least recently stored bugs go first.
 */
export class LoadedBugCache {
  private readonly entries = new Map<number, KeptBug>();
  /** Estimated bytes per kept bug: its entry (detail, relations) and its kept JSON variants. */
  private readonly sizes = new Map<number, { entry: number; json: number }>();
  private totalBytes = 0;
  /**
   * The bug's JSON as answers show it, by variant (BugService.renderBugs), beside the entry whose detail it was made
   * from: a WeakMap on that detail's row, so that it goes with the entry and never outlives it.
   */
  private readonly json = new WeakMap<object, Map<string, string>>();
  /**
   * Whether a caller may see the bug, as the visibility rule answered with a stamp equal to the entry's, by the
   * entry's detail row (it goes with that version of the bug) and the caller (a Caller stands for one user's
   * memberships and parameters under one settings mark; the caller resolver keeps handing out the same one while
   * they hold). Nothing that decides visibility (the bug's groups, cc list and people, the caller's memberships) can
   * change without moving one of the two marks, so the answer holds as long as both do.
   */
  private readonly visibility = new WeakMap<object, WeakMap<object, boolean>>();

  constructor(private readonly bounds: CacheBounds = { entries: 10_000, bytes: 64 * 1024 * 1024 }) {}

  /** What the kept bugs hold, as estimated: for the bounds and the metrics. */
  get keptBytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The kept bug if it is current for this stamp: a frozen snapshot the caller may hold across awaits. */
  current(id: number, stamp: BugStamp): KeptBug | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.lastChangeTime !== stamp.lastChangeTime || entry.auditMark !== stamp.auditMark) {
      this.remove(id);
      return undefined;
    }
    return entry;
  }

  /** Keeps a freshly loaded detail (freezing it) and answers the kept entry. */
  storeDetail(id: number, stamp: BugStamp, detail: Omit<BugDetail, 'visible'>): KeptBug {
    const entry: KeptBug = deepFreeze({ lastChangeTime: stamp.lastChangeTime, auditMark: stamp.auditMark, detail });
    this.put(id, entry, { entry: estimatedBytes(detail), json: 0 });
    return entry;
  }

  /** The kept entry whose detail is `detail` (the very row object a request was given), if it is still kept. */
  entryOf(id: number, detail: Pick<BugDetail, 'row'>): KeptBug | undefined {
    const entry = this.entries.get(id);
    return entry?.detail.row === detail.row ? entry : undefined;
  }

  /**
   * Adds relations to `entry`, only if it is still the kept one: relations must never join a detail of another
   * version that a concurrent request stored meanwhile.
   */
  storeRelations(id: number, entry: KeptBug, wanted: ReadonlySet<BugRelation>, value: BugRelations, customFields: CustomFieldDef[]): void {
    if (this.entries.get(id) !== entry) return;
    const relations: KeptRelations = { wanted: new Set(wanted), value: { ...value, tags: [] }, customFields: [...customFields] };
    // The new entry keeps the detail (and so its JSON variants): only the relations are added to its size.
    const size = this.sizes.get(id) ?? { entry: 0, json: 0 };
    this.put(id, deepFreeze({ ...entry, relations }), { entry: size.entry + estimatedBytes(relations.value), json: size.json });
  }

  /** The JSON kept for `variant` of the bug, if `detail` is the kept one. */
  jsonOf(id: number, detail: Pick<BugDetail, 'row'>, variant: string): string | undefined {
    return this.entryOf(id, detail) ? this.json.get(detail.row)?.get(variant) : undefined;
  }

  /** Keeps the JSON of `variant`, made from `detail`, if that is still the kept detail (at most a few variants each). */
  storeJson(id: number, detail: Pick<BugDetail, 'row'>, variant: string, text: string): void {
    if (!this.entryOf(id, detail)) return;
    let variants = this.json.get(detail.row);
    if (!variants) this.json.set(detail.row, (variants = new Map<string, string>()));
    const size = this.sizes.get(id)!;
    if (variants.size >= MAX_JSON_VARIANTS) {
      variants.clear();
      this.totalBytes -= size.json;
      size.json = 0;
    }
    const added = 2 * text.length - 2 * (variants.get(variant)?.length ?? 0);
    variants.set(variant, text);
    size.json += added;
    this.totalBytes += added;
    this.evict();
  }

  /** Remembers whether `caller` may see the bug, read with a stamp equal to that of `detail`, if that is still the kept detail. */
  rememberVisibility(id: number, detail: Pick<BugDetail, 'row'>, caller: object, visible: boolean): void {
    if (!this.entryOf(id, detail)) return;
    let callers = this.visibility.get(detail.row);
    if (!callers) this.visibility.set(detail.row, (callers = new WeakMap()));
    callers.set(caller, visible);
  }

  /** Whether `caller` may see the kept bug as `entry` has it, if remembered (rememberVisibility). */
  rememberedVisibility(entry: KeptBug | undefined, caller: object): boolean | undefined {
    return entry && this.visibility.get(entry.detail.row)?.get(caller);
  }

  /** The kept entry of the bug, whatever its stamp (current() checks it against the database's). */
  peek(id: number): KeptBug | undefined {
    return this.entries.get(id);
  }

  private put(id: number, entry: KeptBug, size: { entry: number; json: number }): void {
    this.remove(id);
    this.entries.set(id, entry);
    this.sizes.set(id, size);
    this.totalBytes += size.entry + size.json;
    this.evict();
  }

  private remove(id: number): void {
    const size = this.sizes.get(id);
    if (size) this.totalBytes -= size.entry + size.json;
    this.sizes.delete(id);
    this.entries.delete(id);
  }

  /** Drops the least recently stored bugs while a bound is exceeded (the newest one stays, whatever its size). */
  private evict(): void {
    while (this.entries.size > this.bounds.entries || (this.totalBytes > this.bounds.bytes && this.entries.size > 1)) {
      this.remove(this.entries.keys().next().value!);
    }
  }
}

/** Relations kept with `entry` that cover `wanted`. */
export function keptRelations(entry: KeptBug | undefined, wanted: ReadonlySet<BugRelation>): KeptRelations | undefined {
  const kept = entry?.relations;
  if (!kept || [...wanted].some((relation) => !kept.wanted.has(relation))) return undefined;
  return kept;
}
