import type { BugDetail, BugRelation, BugRelations, CustomFieldDef } from './loaded-bug.js';

/** What a read of the database says about one bug right now: its version, and whether the caller may see it. */
export interface BugStamp {
  lastChangeTime: string;
  /** The audit mark (auditMarkSql): every change of what a bug shows by name (users, products, keywords …) moves it. */
  auditMark: number;
  visible: boolean;
}

interface Entry {
  lastChangeTime: string;
  auditMark: number;
  detail: Omit<BugDetail, 'visible'>;
  relations?: { wanted: ReadonlySet<BugRelation>; value: BugRelations; customFields: CustomFieldDef[] };
}

/**
 * Loaded bugs kept by one instance, served only while the database says they are current: a bug's
 * `last_change_time` moves with every change to it or its relations (updates.md), and the audit mark moves with
 * every change of what a bug shows by name (a user's login or real name, a product, component,
 * keyword, group, flag type or field). Both are read on every request, so N instances never serve stale data;
 * the cache only saves the two heavy statements. Personal tags are never kept (they belong to the caller).
 */
export class LoadedBugCache {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly capacity = 10_000) {}

  /** The detail of a bug if it is current for this stamp. */
  detail(id: number, stamp: BugStamp): Omit<BugDetail, 'visible'> | undefined {
    const entry = this.current(id, stamp);
    return entry?.detail;
  }

  storeDetail(id: number, stamp: BugStamp, detail: Omit<BugDetail, 'visible'>): void {
    this.entries.delete(id);
    this.entries.set(id, { lastChangeTime: stamp.lastChangeTime, auditMark: stamp.auditMark, detail });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Relations kept for a bug whose detail was just validated, if they cover `wanted`. */
  relations(id: number, wanted: ReadonlySet<BugRelation>): { value: BugRelations; customFields: CustomFieldDef[] } | undefined {
    const kept = this.entries.get(id)?.relations;
    if (!kept || [...wanted].some((relation) => !kept.wanted.has(relation))) return undefined;
    return kept;
  }

  storeRelations(id: number, wanted: ReadonlySet<BugRelation>, value: BugRelations, customFields: CustomFieldDef[]): void {
    const entry = this.entries.get(id);
    if (entry) entry.relations = { wanted, value: { ...value, tags: [] }, customFields };
  }

  private current(id: number, stamp: BugStamp): Entry | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.lastChangeTime !== stamp.lastChangeTime || entry.auditMark !== stamp.auditMark) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }
}
