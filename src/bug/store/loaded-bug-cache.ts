import { deepFreeze } from '../../common/kept-reads.js';
import type { RawJson } from '../../common/http/raw-json.js';
import type { BugDetail, BugRelation, BugRelations, CustomFieldDef } from '../loaded-bug.js';

/** Kept JSON variants per bug (field selections × caller classes); more are rare, and then the bug's variants start over. */
const MAX_JSON_VARIANTS = 8;

/** How much one instance keeps: at most `entries` bugs, and about `bytes` of them (their data and kept JSON). */
export interface CacheBounds {
  entries: number;
  bytes: number;
}

/** An estimate of what a kept value holds in memory: its JSON length in UTF-16 code units, two bytes each. */
const estimatedBytes = (value: unknown) => 2 * (JSON.stringify(value)?.length ?? 0);

/**
 * The estimate of kept relations: their custom values are a Map, which JSON shows as `{}`, so they count apart (a
 * replacer function that turned Maps into arrays made every estimate a third slower).
 */
const relationsBytes = (relations: Readonly<BugRelations>) => estimatedBytes(relations) + estimatedBytes([...relations.custom]);

/** What a read of the database says about one bug right now: its version, and whether the caller may see it. */
export interface BugStamp {
  /** The row's revision (Bug.revision): every change to the bug or what it shows of its own moves it. */
  revision: number;
  /** The settings mark (settingsMarkSql): every change of what a bug shows by name (users, products, keywords …) moves it. */
  settingsMark: number;
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
  readonly revision: number;
  readonly settingsMark: number;
  readonly detail: Readonly<Omit<BugDetail, 'visible'>>;
  readonly relations?: KeptRelations;
  /**
   * Kept by a write that found the bug moved by another writer since this instance last kept it (another instance,
   * another route): the next write of the bug reads its state with its lock rather than hope this is current.
   */
  readonly movedElsewhere?: boolean;
}

/**
 * What the cache holds of one bug: the kept entry, its estimated bytes, and what goes with the entry's detail row —
 * the bug's JSON by variant (BugService.renderBugs) and whether callers may see it. The last two are flat arrays of
 * pairs, not a Map and a WeakMap each: at 10,000 kept bugs those two tables alone were ~10 MB of the heap (issue 13).
 */
interface Slot {
  readonly entry: KeptBug;
  readonly entryBytes: number;
  jsonBytes: number;
  /**
   * `[variant, json, variant, json, …]`, at most MAX_JSON_VARIANTS pairs: the bug's JSON, or a whole answer naming
   * only this bug (with its ETag).
   */
  readonly json: Array<string | RawJson>;
  /**
   * `[callerSerial, visible, …]`, at most MAX_REMEMBERED_CALLERS pairs. A caller stands for one user's memberships
   * and parameters under one settings mark (the caller resolver keeps handing out the same one while they hold), and
   * nothing that decides visibility (the bug's groups, cc list and people, the caller's memberships) can change
   * without moving one of the two marks: so the answer holds as long as the entry does.
   */
  readonly visibleTo: Array<number | boolean>;
}

/** Remembered visibility answers per bug: the callers reading one bug at a time are few; more start it over. */
const MAX_REMEMBERED_CALLERS = 8;

/**
 * Loaded bugs kept by one instance, served only while the database says they are current: a bug's revision moves
 * with every change to it or its relations (each touches the bug, as its last_change_time must move: updates.md;
 * ChangeMarkSubscriber moves the settings mark for a transaction that forgets to), and the settings mark moves with
 * every change of what a bug shows by name (a user's login or real name, a product, component, keyword, group,
 * flag type or field: all settings tables). Both are read on every request, so N instances never serve stale data;
 * the cache only saves the two heavy statements. Personal tags are never kept (they belong to the caller).
 * Bounded by entries and by (estimated) bytes: the least recently stored bugs go first.
 */
export class LoadedBugCache {
  private readonly slots = new Map<number, Slot>();
  private totalBytes = 0;
  /** A number per caller object, so that remembered visibility names callers without keeping them alive. */
  private readonly callerSerials = new WeakMap<object, number>();
  private nextCallerSerial = 1;

  /** `bounds` come from the configuration (TRACKER_CACHE_BUGS, TRACKER_CACHE_BUGS_MB: app-config.ts holds the defaults). */
  constructor(private readonly bounds: CacheBounds) {}

  /** What the kept bugs hold, as estimated: for the bounds and the metrics. */
  get keptBytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.slots.size;
  }

  /** The kept bug if it is current for this stamp: a frozen snapshot the caller may hold across awaits. */
  current(id: number, stamp: BugStamp): KeptBug | undefined {
    const entry = this.slots.get(id)?.entry;
    if (!entry) return undefined;
    if (entry.revision !== stamp.revision || entry.settingsMark !== stamp.settingsMark) {
      this.forget(id);
      return undefined;
    }
    return entry;
  }

  /** Keeps a freshly loaded detail (freezing it) and answers the kept entry. */
  storeDetail(id: number, stamp: BugStamp, detail: Omit<BugDetail, 'visible'>, movedElsewhere = false): KeptBug {
    const entry: KeptBug = deepFreeze({ revision: stamp.revision, settingsMark: stamp.settingsMark, detail, ...(movedElsewhere ? { movedElsewhere } : {}) });
    this.put(id, { entry, entryBytes: estimatedBytes(detail), jsonBytes: 0, json: [], visibleTo: [] });
    return entry;
  }

  /** The kept entry whose detail is `detail` (the very row object a request was given), if it is still kept. */
  entryOf(id: number, detail: Pick<BugDetail, 'row'>): KeptBug | undefined {
    return this.slotOf(id, detail)?.entry;
  }

  /**
   * Adds relations to `entry`, only if it is still the kept one: relations must never join a detail of another
   * version that a concurrent request stored meanwhile.
   */
  storeRelations(id: number, entry: KeptBug, wanted: ReadonlySet<BugRelation>, value: BugRelations, customFields: CustomFieldDef[]): void {
    const slot = this.slots.get(id);
    if (slot?.entry !== entry) return;
    const relations: KeptRelations = { wanted: canonicalRelations(wanted), value: { ...value, tags: [] }, customFields: [...customFields] };
    // The new entry keeps the detail, and so its JSON variants and visibility: only the relations add to its size.
    this.put(id, { ...slot, entry: deepFreeze({ ...entry, relations }), entryBytes: slot.entryBytes + relationsBytes(relations.value) });
  }

  /** The JSON kept for `variant` of the bug (its JSON, or a whole answer naming it), if `detail` is the kept one. */
  jsonOf(id: number, detail: Pick<BugDetail, 'row'>, variant: string): RawJson | undefined {
    const json = this.slotOf(id, detail)?.json;
    const at = json ? pairIndex(json, variant) : -1;
    return at < 0 ? undefined : (json![at + 1] as RawJson);
  }

  /**
   * Keeps the JSON (or the whole answer) of `variant`, made from `detail`, if that is still the kept detail (at most
   * a few variants each).
   */
  storeJson(id: number, detail: Pick<BugDetail, 'row'>, variant: string, value: RawJson): void {
    const slot = this.slotOf(id, detail);
    if (!slot) return;
    const { json } = slot;
    const at = pairIndex(json, variant);
    if (at < 0 && json.length >= 2 * MAX_JSON_VARIANTS) {
      json.length = 0;
      this.totalBytes -= slot.jsonBytes;
      slot.jsonBytes = 0;
    }
    const added = 2 * value.text.length - (at >= 0 ? 2 * (json[at + 1] as RawJson).text.length : 0);
    if (at >= 0) json[at + 1] = value;
    else json.push(variant, value);
    slot.jsonBytes += added;
    this.totalBytes += added;
    this.evict();
  }

  /** Remembers whether `caller` may see the bug, read with a stamp equal to that of `detail`, if that is still the kept detail. */
  rememberVisibility(id: number, detail: Pick<BugDetail, 'row'>, caller: object, visible: boolean): void {
    const visibleTo = this.slotOf(id, detail)?.visibleTo;
    if (!visibleTo) return;
    const serial = this.serialOf(caller);
    const at = pairIndex(visibleTo, serial);
    if (at >= 0) {
      visibleTo[at + 1] = visible;
      return;
    }
    if (visibleTo.length >= 2 * MAX_REMEMBERED_CALLERS) visibleTo.length = 0;
    visibleTo.push(serial, visible);
  }

  /** Whether `caller` may see the kept bug as `entry` has it, if remembered (rememberVisibility). */
  rememberedVisibility(entry: KeptBug | undefined, caller: object): boolean | undefined {
    const visibleTo = entry && this.slotOf(entry.detail.row.id, entry.detail)?.visibleTo;
    const serial = visibleTo?.length ? this.callerSerials.get(caller) : undefined;
    const at = serial === undefined ? -1 : pairIndex(visibleTo!, serial);
    return at < 0 ? undefined : (visibleTo![at + 1] as boolean);
  }

  /** The kept entry of the bug, whatever its stamp (current() checks it against the database's). */
  peek(id: number): KeptBug | undefined {
    return this.slots.get(id)?.entry;
  }

  private slotOf(id: number, detail: Pick<BugDetail, 'row'>): Slot | undefined {
    const slot = this.slots.get(id);
    return slot?.entry.detail.row === detail.row ? slot : undefined;
  }

  private serialOf(caller: object): number {
    let serial = this.callerSerials.get(caller);
    if (serial === undefined) this.callerSerials.set(caller, (serial = this.nextCallerSerial++));
    return serial;
  }

  private put(id: number, slot: Slot): void {
    this.forget(id);
    this.slots.set(id, slot);
    this.totalBytes += slot.entryBytes + slot.jsonBytes;
    this.evict();
  }

  /** Keeps the bug no longer (a write moved it past what is kept, or a bound is exceeded). */
  forget(id: number): void {
    const slot = this.slots.get(id);
    if (!slot) return;
    this.totalBytes -= slot.entryBytes + slot.jsonBytes;
    this.slots.delete(id);
  }

  /** Drops the least recently stored bugs while a bound is exceeded (the newest one stays, whatever its size). */
  private evict(): void {
    while (this.slots.size > this.bounds.entries || (this.totalBytes > this.bounds.bytes && this.slots.size > 1)) {
      this.forget(this.slots.keys().next().value!);
    }
  }
}

/** Where `key` sits among the keys of `[key, value, key, value, …]`, or -1. */
function pairIndex<T>(pairs: readonly T[], key: T): number {
  for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === key) return i;
  return -1;
}

/**
 * One shared frozen set per combination of wanted relations: kept bugs mostly want the same ones, and a Set of its
 * own cost each ~350 bytes. The combinations are bounded by the relations' few names.
 */
const CANONICAL_RELATIONS = new Map<string, ReadonlySet<BugRelation>>();

function canonicalRelations(wanted: ReadonlySet<BugRelation>): ReadonlySet<BugRelation> {
  const key = [...wanted].sort().join(',');
  let canonical = CANONICAL_RELATIONS.get(key);
  if (!canonical) CANONICAL_RELATIONS.set(key, (canonical = Object.freeze(new Set(wanted))));
  return canonical;
}

/** Relations kept with `entry` that cover `wanted`. */
export function keptRelations(entry: KeptBug | undefined, wanted: ReadonlySet<BugRelation>): KeptRelations | undefined {
  const kept = entry?.relations;
  if (!kept || [...wanted].some((relation) => !kept.wanted.has(relation))) return undefined;
  return kept;
}
