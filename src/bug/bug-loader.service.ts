import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { observeAtScrape } from '../common/metrics/metrics.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { Caller } from '../common/caller.js';
import type { FieldSelection } from '../common/fields/field-selection.js';
import { BugVisibilityService } from './bug-visibility.service.js';
import { BUG_FIELDS } from './bug.fields.js';
import type { BugDetail, BugPage, BugRelation, BugRelations, CustomFieldDef } from './loaded-bug.js';
import { LoadedBugCache, keptRelations, type BugStamp, type KeptBug } from './loaded-bug-cache.js';
import { BugLoaderRepository, stampsOfRows } from './bug-loader.repository.js';
import type { CompanionPlan } from '../common/http/companion-read.js';
import type { RawJson } from '../common/http/raw-json.js';
import { BugRepository } from './bug.repository.js';
import type { SqlCondition } from './bug-visibility.repository.js';

/** Stamps read for some bug ids along with the caller (a companion read): those of the ones that exist. */
export interface KnownStamps {
  /** The caller whose visibility they carry. */
  caller: Caller;
  ids: ReadonlySet<number>;
  stamps: ReadonlyMap<number, BugStamp>;
}

/** Bugs per query: keeps the bound parameters of the relations query (one id list per relation) under SQLite's limit. */
const CHUNK = 500;

/** The distinct ids in slices of CHUNK (none for an empty list). */
function chunks(ids: readonly number[]): number[][] {
  const unique = [...new Set(ids)];
  const slices: number[][] = [];
  for (let i = 0; i < unique.length; i += CHUNK) slices.push(unique.slice(i, i + CHUNK));
  return slices;
}

/**
 * Loads bugs for presentation with a constant number of queries whatever the page size (design.md: one query per
 * relation per page, never one per bug): one for the rows with their product/component/classification names and
 * people, and one UNION ALL that brings every wanted relation (cc, keywords, flags, groups, dependencies, aliases,
 * see also, custom values, tags, actual time) in a single round trip. Relations the field selection leaves out are
 * not queried at all.
 */
@Injectable()
export class BugLoaderService {
  private readonly cache: LoadedBugCache;

  constructor(
    config: AppConfig,
    private readonly db: Db,
    private readonly visibility: BugVisibilityService,
    private readonly repository: BugLoaderRepository,
    private readonly bugs: BugRepository,
  ) {
    this.cache = new LoadedBugCache(config.bugCache);
    observeAtScrape('tracker_kept_bugs', 'Loaded bugs kept by this instance: how many, and their estimated bytes.', ['measure'], async () => [
      [{ measure: 'entries' }, this.cache.size],
      [{ measure: 'bytes' }, this.cache.keptBytes],
    ]);
  }

  /**
   * Locks the bugs' rows for the rest of the transaction `tx` (MySQL; SQLite's transactions are serialised anyway),
   * in id order, so that two updates of the same bugs take their locks in the same order and cannot deadlock. The lock
   * goes with the transaction's next statement (BugRepository.lock).
   */
  lock(tx: Sql, ids: readonly number[]): Promise<void> {
    return this.bugs.lock(tx, [...ids].sort((a, b) => a - b));
  }

  /**
   * Rows with names and people (one query per 500 bugs); with `visibleTo`, each says whether that caller may see
   * it. Outside a transaction, bugs the cache holds current cost only their stamp (see LoadedBugCache).
   */
  async details(ids: readonly number[], options: { visibleTo?: Caller; sql?: Sql; known?: KnownStamps } = {}): Promise<Map<number, BugDetail>> {
    const cached = !options.sql || options.sql === this.db.read;
    const parts = chunks(ids);
    const detailsOfChunk = (chunk: readonly number[]) => (cached ? this.detailsThroughCache(chunk, options.visibleTo, options.known) : this.detailsOf(chunk, options));
    // One chunk (a Get Bug, a page): its map is the answer.
    if (parts.length === 1) return detailsOfChunk(parts[0]);
    const result = new Map<number, BugDetail>();
    for (const chunk of parts) {
      for (const [id, detail] of await detailsOfChunk(chunk)) result.set(id, detail);
    }
    return result;
  }

  /**
   * One cheap statement for the stamps (none when they came with the caller's credential, `known`); the heavy one
   * only for bugs the cache does not hold current. The kept entries are taken once, before any await: concurrent
   * requests may replace them meanwhile (issue 12, defect 2).
   */
  private async detailsThroughCache(unique: readonly number[], visibleTo: Caller | undefined, known: KnownStamps | undefined): Promise<Map<number, BugDetail>> {
    const usable = known && known.caller === visibleTo && unique.every((id) => known.ids.has(id));
    const stamps = usable ? known.stamps : await this.stampsOf(unique, visibleTo);
    const kept = new Map<number, KeptBug>();
    for (const [id, stamp] of stamps) {
      const entry = this.cache.current(id, stamp);
      if (entry) kept.set(id, entry);
    }
    const stale = unique.filter((id) => stamps.has(id) && !kept.has(id));
    const loaded = stale.length ? await this.detailsOf(stale, {}) : undefined;
    const result = new Map<number, BugDetail>();
    for (const id of unique) {
      const stamp = stamps.get(id);
      if (!stamp) continue;
      const fresh = loaded?.get(id);
      const detail = fresh ? this.cache.storeDetail(id, stamp, fresh).detail : kept.get(id)?.detail;
      if (!detail) continue;
      if (visibleTo) this.cache.rememberVisibility(id, detail, visibleTo, stamp.visible);
      result.set(id, { ...detail, visible: stamp.visible });
    }
    return result;
  }

  private stampsOf(unique: readonly number[], visibleTo: Caller | undefined): Promise<Map<number, BugStamp>> {
    return this.repository.stamps(this.db.read, unique, this.visibleColumn(visibleTo));
  }

  /**
   * The stamps of these bugs as `caller` may see them, as a companion read of the credential (BugStampsCompanion).
   * When every one is kept with the caller's visibility remembered, the statement leaves the visibility rule out (the
   * greater part of its cost to the database) and the remembered answers stand in for it — for a bug whose stamp the
   * statement finds unchanged; should one have moved, the read is of no use and the loader reads the stamps itself.
   * A route that writes to the bug moves its stamp every time: `trustRemembered: false` keeps the rule in.
   */
  stampsPlan(ids: readonly number[], caller: Caller, options: { trustRemembered: boolean }): CompanionPlan<KnownStamps> | undefined {
    const unique = [...new Set(ids)];
    const mark = caller.settingsMark;
    if (!unique.length || unique.length > CHUNK || mark === undefined) return undefined;
    const remembered = options.trustRemembered && unique.every((id) => this.cache.rememberedVisibility(this.cache.peek(id), caller) !== undefined);
    if (!remembered) {
      return {
        statement: this.repository.stampsStatement(this.db.read, unique, this.visibleColumn(caller)),
        read: (rows) => ({ caller, ids: new Set(unique), stamps: stampsOfRows(rows, mark) }),
      };
    }
    return {
      statement: this.repository.stampsStatement(this.db.read, unique),
      read: (rows) => {
        const stamps = stampsOfRows(rows, mark);
        for (const [id, stamp] of stamps) {
          const visible = this.cache.rememberedVisibility(this.cache.current(id, stamp), caller);
          if (visible === undefined) return { caller, ids: new Set(), stamps: new Map() };
          stamp.visible = visible;
        }
        return { caller, ids: new Set(unique), stamps };
      },
    };
  }

  private detailsOf(unique: readonly number[], options: { visibleTo?: Caller; sql?: Sql }): Promise<Map<number, BugDetail>> {
    return this.repository.details(options.sql ?? this.db.read, unique, this.visibleColumn(options.visibleTo));
  }

  /** Whether the caller may see each bug, as a column; every bug counts as visible when no caller is given. */
  private visibleColumn(caller: Caller | undefined): SqlCondition {
    return caller ? this.visibility.visibleColumn(caller) : { sql: '1', params: [] };
  }

  /**
   * The JSON kept for `variant` (see BugService): the bug's JSON, or a whole answer naming only this bug; while
   * `detail` is its current kept detail.
   */
  keptJson(id: number, detail: BugDetail, variant: string): RawJson | undefined {
    return this.cache.jsonOf(id, detail, variant);
  }

  /** Keeps JSON of the bug for `variant`, made from `detail` (ignored unless `detail` is the kept one). */
  keepJson(id: number, detail: BugDetail, variant: string, json: RawJson): void {
    this.cache.storeJson(id, detail, variant, json);
  }

  /** The caller's personal tags on the bugs, when the selection shows tags to this caller (else none, no query). */
  async tagsOf(ids: readonly number[], caller: Caller, selection: FieldSelection): Promise<Map<number, string[]>> {
    if (!wantsTags(caller, selection)) return new Map();
    const { byBug } = await this.relations(ids, new Set(['tags'] as const), { tagOwnerId: caller.id });
    return new Map([...byBug].map(([id, relations]) => [id, relations.tags]));
  }

  /** The relations a response will show: the field selection decides, and the caller (tags, time tracking). */
  wantedRelations(caller: Caller, selection: FieldSelection): Set<BugRelation> {
    const wants = (field: string) => selection.wants(field, BUG_FIELDS);
    const wanted = new Set<BugRelation>();
    for (const relation of ['alias', 'cc', 'keywords', 'groups', 'blocks', 'depends_on', 'see_also', 'flags'] as const) {
      if (wants(relation)) wanted.add(relation);
    }
    // Custom fields are named only once their definitions are loaded: probe the class, or a cf_ name asked for.
    if (wants('cf_') || selection.includesPrefix('cf_')) wanted.add('custom');
    if (wantsTags(caller, selection)) wanted.add('tags');
    if (caller.isTimeTracker && wants('actual_time')) wanted.add('actual_time');
    return wanted;
  }

  /** The wanted relations of the bugs, in one query per 500 bugs. Lists come sorted as Bugzilla lists them. */
  async relations(
    ids: readonly number[],
    wanted: ReadonlySet<BugRelation>,
    options: { tagOwnerId?: number; sql?: Sql } = {},
  ): Promise<{ byBug: Map<number, BugRelations>; customFields: CustomFieldDef[] }> {
    const byBug = new Map<number, BugRelations>();
    let customFields: CustomFieldDef[] = [];
    for (const chunk of chunks(ids)) {
      const part = await this.repository.relations(options.sql ?? this.db.read, chunk, wanted, options.tagOwnerId);
      for (const [id, relations] of part.byBug) byBug.set(id, relations);
      customFields = part.customFields;
    }
    return { byBug, customFields };
  }

  /** Adds the wanted relations to details already loaded (the Get route loads details with visibility first). */
  async complete(
    ids: readonly number[],
    details: ReadonlyMap<number, BugDetail>,
    caller: Caller,
    selection: FieldSelection,
    sql: Sql = this.db.read,
  ): Promise<BugPage> {
    const present = [...new Set(ids)].filter((id) => details.has(id));
    const wanted = this.wantedRelations(caller, selection);
    if (sql !== this.db.read) {
      const { byBug, customFields } = await this.relations(present, wanted, { tagOwnerId: caller.id, sql });
      return { bugs: present.map((id) => ({ ...details.get(id)!, ...byBug.get(id)! })), customFields };
    }
    // Outside a transaction the details were just validated against the database: the relations kept with those
    // very details are current. The entries are taken once, here: concurrent requests replace kept bugs while this
    // one awaits the database, so it never reads the shared cache again (issue 12, defect 2). Personal tags are
    // the caller's and always read.
    const shared = new Set([...wanted].filter((relation) => relation !== 'tags'));
    const entries = new Map(present.map((id) => [id, this.cache.entryOf(id, details.get(id)!)] as const));
    const kept = new Map(present.map((id) => [id, keptRelations(entries.get(id), shared)] as const));
    const missing = present.filter((id) => !kept.get(id));
    const loaded = await this.relations(missing, shared, { sql });
    for (const [id, value] of loaded.byBug) {
      const entry = entries.get(id);
      if (entry) this.cache.storeRelations(id, entry, shared, value, loaded.customFields);
    }
    const tags = wanted.has('tags') ? (await this.relations(present, new Set(['tags'] as const), { tagOwnerId: caller.id, sql })).byBug : undefined;
    const bugs = present.map((id) => ({ ...details.get(id)!, ...(loaded.byBug.get(id) ?? kept.get(id)!.value), tags: tags?.get(id)?.tags ?? [] }));
    const customFields = missing.length || !present.length ? loaded.customFields : [...kept.get(present[0])!.customFields];
    return { bugs, customFields };
  }
}

/** Tags are the caller's own: shown to a logged-in caller who asks for them (an extra field). */
function wantsTags(caller: Caller, selection: FieldSelection): boolean {
  return caller.isLoggedIn && selection.wants('tags', BUG_FIELDS);
}
