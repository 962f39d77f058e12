import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { observeAtScrape } from '../../common/metrics/metrics.js';
import { Db } from '../../database/db.service.js';
import type { Sql, ReadSql } from '../../database/sql.js';
import type { Caller } from '../../common/caller.js';
import type { FieldSelection } from '../../common/fields/field-selection.js';
import { BugVisibilityService } from '../bug-visibility.service.js';
import { BUG_FIELDS } from '../bug.fields.js';
import { BMO_RELATIONS, BUG_RELATIONS, type BugDetail, type BugPage, type BugRelation, type BugRelations, type CustomFieldDef, type LoadedBug } from '../loaded-bug.js';
import { LoadedBugCache, keptRelations, type BugStamp, type KeptBug } from './loaded-bug-cache.js';
import { BugLoaderRepository, stampsOfRows } from './bug-loader.repository.js';
import type { CompanionPlan } from '../../common/http/companion-read.js';
import type { RawJson } from '../../common/http/raw-json.js';
import { BugRepository } from './bug.repository.js';
import type { SqlCondition } from './bug-visibility.repository.js';

export type { BugStamp };

/** Stamps read for some bug ids along with the caller (a companion read): those of the ones that exist. */
export interface KnownStamps {
  /** The caller whose visibility they carry. */
  caller: Caller;
  ids: ReadonlySet<number>;
  stamps: ReadonlyMap<number, BugStamp>;
}

/**
 * A bug read under its row lock for a write: its state, and what that state is the version of — the basis on which
 * the write keeps the bug as it leaves it (keepWhenCommitted).
 */
export interface LockedBug {
  bug: LoadedBug;
  stamp: BugStamp;
  /** The relations `bug` holds (at least those asked for), and the custom field definitions read with them. */
  relations: ReadonlySet<BugRelation>;
  customFields: readonly CustomFieldDef[];
  /** This instance kept the bug, at another version: someone else wrote it since (KeptBug.movedElsewhere). */
  movedElsewhere: boolean;
}

/** A bug as a write left it, to be kept if the write commits. */
export interface WrittenBug {
  id: number;
  detail: Omit<BugDetail, 'visible'>;
  relations: BugRelations;
  wanted: ReadonlySet<BugRelation>;
  customFields: readonly CustomFieldDef[];
  /** The settings mark the state's names were read under: kept only if the stamp read after the writes has it too. */
  settingsMark: number;
  movedElsewhere: boolean;
}

/**
 * How long a write waits for a committing write of the same bug to keep it: only a stalled answer to that COMMIT
 * could take longer, and then the bug is read (under the lock the commit released).
 */
const COMMITTING_WAIT_MS = 100;

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
 * Loads bugs for presentation with a constant number of queries whatever the page size (one query per
 * relation per page, never one per bug): one for the rows with their product/component/classification names and
 * people, and one UNION ALL that brings every wanted relation (cc, keywords, flags, groups, dependencies, aliases,
 * see also, custom values, tags, actual time) in a single round trip. Relations the field selection leaves out are
 * not queried at all.
 */
@Injectable()
export class BugLoaderService {
  private readonly cache: LoadedBugCache;
  /**
   * Bugs whose write by this instance is committing, with the promise that settles once it is (kept or not): the next
   * write of one of them, which can only read it after the commit released its lock, waits for that rather than read it.
   */
  private readonly committing = new Map<number, Promise<void>>();
  private readonly checkWrites: boolean;
  /** AppConfig.fastPaths: off, no bug is kept (nor its JSON): every read loads it, every write leaves nothing kept. */
  private readonly keepsBugs: boolean;

  constructor(
    config: AppConfig,
    private readonly db: Db,
    private readonly visibility: BugVisibilityService,
    private readonly repository: BugLoaderRepository,
    private readonly bugs: BugRepository,
  ) {
    this.cache = new LoadedBugCache(config.bugCache);
    this.checkWrites = config.bugCache.checkWrites;
    this.keepsBugs = config.fastPaths;
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
   * The bugs of a write with the relations it wants, read under their row locks (the lock goes with this read,
   * BugLoaderService.lock) with their stamps: a bug this instance keeps current costs only its stamp, and one that a
   * committing write of this instance moved waits for that write to keep it. The others are read in full — in the
   * stamps' round trip when some bug is not kept, or kept by a write that found it moved elsewhere (writes of
   * several instances in turn would each hope in vain), else in one more.
   */
  async lockedStates(tx: Sql, ids: readonly number[], wanted: ReadonlySet<BugRelation>): Promise<Map<number, LockedBug>> {
    const unique = [...new Set(ids)];
    const kept = new Map(unique.map((id) => [id, this.cache.peek(id)] as const));
    const hoping = unique.every((id) => this.committing.has(id) || (keptRelations(kept.get(id), wanted) !== undefined && !kept.get(id)!.movedElsewhere));
    const [stamps, read] = await tx.gathering((sql) => Promise.all([
      this.repository.stamps(sql, unique, this.visibleColumn(undefined)),
      hoping ? undefined : this.readStates(sql, unique, wanted),
    ]));
    const result = new Map<number, LockedBug>();
    const unkept: number[] = [];
    for (const id of unique) {
      const stamp = stamps.get(id);
      if (!stamp) continue;
      const current = read ? undefined : await this.keptUnderLock(id, stamp, wanted);
      if (current) result.set(id, current);
      else unkept.push(id);
    }
    const states = read ?? (unkept.length ? await this.currentStates(tx, unkept, wanted) : undefined);
    for (const id of unkept) {
      const detail = states?.details.get(id);
      if (!detail) continue;
      const stamp = stamps.get(id)!;
      const before = kept.get(id);
      result.set(id, {
        bug: { ...detail, ...states!.byBug.get(id)! }, stamp, relations: wanted, customFields: states!.customFields,
        movedElsewhere: !!before?.relations && before.revision !== stamp.revision,
      });
    }
    return result;
  }

  /** The kept bug as a write's state, if it is current for `stamp` (after the committing write that moved it, if any). */
  private async keptUnderLock(id: number, stamp: BugStamp, wanted: ReadonlySet<BugRelation>): Promise<LockedBug | undefined> {
    const committing = this.committing.get(id);
    if (committing && this.cache.peek(id)?.revision !== stamp.revision) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([committing, new Promise((resolve) => (timer = setTimeout(resolve, COMMITTING_WAIT_MS)))]);
      clearTimeout(timer);
    }
    const entry = this.cache.current(id, stamp);
    const relations = keptRelations(entry, wanted);
    if (!entry || !relations) return undefined;
    return { bug: { ...entry.detail, visible: true, ...relations.value }, stamp, relations: relations.wanted, customFields: relations.customFields, movedElsewhere: false };
  }

  /**
   * The bugs' details and `wanted` relations as the transaction `tx` has left them so far, read in one round trip (its
   * held writes go with it).
   */
  currentStates(tx: Sql, ids: readonly number[], wanted: ReadonlySet<BugRelation>) {
    return tx.gathering((sql) => this.readStates(sql, ids, wanted));
  }

  /** The bugs' details and `wanted` relations as `sql` reads them (with its writes, inside a transaction). */
  private async readStates(sql: Sql, ids: readonly number[], wanted: ReadonlySet<BugRelation>) {
    const [details, { byBug, customFields }] = await Promise.all([this.details(ids, { sql }), this.relations(ids, wanted, { sql })]);
    return { details, byBug, customFields };
  }

  /**
   * Forgets the bugs `tx` moved: kept as they were, they would only make their next write hope in vain
   * (lockedStates). At once, so that a write of them starting meanwhile does not hope, and again once `tx` commits,
   * in case a read kept the version before it in between.
   */
  forgetWhenCommitted(tx: Sql, ids: readonly number[]): void {
    this.forgetNowAndOnCommit(ids, tx.committed());
  }

  private forgetNowAndOnCommit(ids: readonly number[], committed: Promise<boolean>): void {
    if (!ids.length) return;
    for (const id of ids) this.cache.forget(id);
    void committed.then((ok) => {
      if (ok) for (const id of ids) this.cache.forget(id);
    });
  }

  /** The bugs' stamps as the transaction leaves them, read with its next statement, its COMMIT (Sql.readingWithNext). */
  stampsWithNext(tx: Sql, ids: readonly number[]): Promise<Map<number, BugStamp>> {
    return tx.readingWithNext((sql) => this.repository.stamps(sql, ids, this.visibleColumn(undefined)));
  }

  /**
   * Keeps the bugs as an update's transaction `tx` left them (`written`: their states after it), once it commits,
   * each with its stamp read with the transaction's next statement (the COMMIT): a kept bug carries the version its
   * state is. The other bugs it `changed` are forgotten. See keepWhenCommitted.
   */
  keepAsWritten(tx: Sql, changed: readonly number[], written: readonly WrittenBug[]): Promise<void> {
    const stamps = written.length ? this.stampsWithNext(tx, written.map((bug) => bug.id)) : Promise.resolve(new Map<number, BugStamp>());
    return this.keepWhenCommitted(changed, written, stamps, tx.committed());
  }

  /**
   * Keeps the bugs as a write left them, once `committed` says its transaction did: each with the stamp `stamps`
   * read in the transaction after its writes (Sql.readingWithNext), if that stamp's settings mark is the one the
   * state's names were read under. The other bugs it `changed` are forgotten (forgetWhenCommitted); a write of the
   * bugs to keep waits until they are. The answer settles once they are kept; with TRACKER_CACHE_BUGS_CHECK, it
   * fails if one differs from what the database holds.
   */
  keepWhenCommitted(changed: readonly number[], written: readonly WrittenBug[], stamps: Promise<Map<number, BugStamp>>, committed: Promise<boolean>): Promise<void> {
    // Awaited only once the transaction committed: a failed one rejects it, and nobody asks.
    stamps.catch(() => undefined);
    if (!this.keepsBugs) return Promise.resolve();
    const keeping = new Set(written.map((bug) => bug.id));
    this.forgetNowAndOnCommit(changed.filter((id) => !keeping.has(id)), committed);
    const kept = this.keepCommitted(written, stamps, committed);
    const settled = kept.then(() => undefined, () => undefined);
    for (const id of keeping) this.committing.set(id, settled);
    void settled.then(() => {
      for (const id of keeping) if (this.committing.get(id) === settled) this.committing.delete(id);
    });
    return this.checkWrites ? kept.then((bugs) => this.checkKept(bugs)) : settled;
  }

  /** The bugs of `written` kept, once committed (none if the transaction failed); one not kept is kept no longer. */
  private async keepCommitted(written: readonly WrittenBug[], stamps: Promise<Map<number, BugStamp>>, committed: Promise<boolean>): Promise<WrittenBug[]> {
    if (!(await committed)) return [];
    const after = await stamps;
    return written.filter((bug) => {
      const stamp = after.get(bug.id);
      // Read in the transaction's snapshot, the mark differs only if the transaction itself moved it (it wrote settings).
      if (stamp?.settingsMark !== bug.settingsMark) {
        this.cache.forget(bug.id);
        return false;
      }
      const entry = this.cache.storeDetail(bug.id, stamp, bug.detail, bug.movedElsewhere);
      this.cache.storeRelations(bug.id, entry, bug.wanted, bug.relations, [...bug.customFields]);
      return true;
    });
  }

  /**
   * TRACKER_CACHE_BUGS_CHECK: each bug kept as a write left it must be what a fresh read of the same version gives —
   * the kept one as it is now (a later write may have replaced it), if the database still has that version.
   */
  private async checkKept(bugs: readonly WrittenBug[]): Promise<void> {
    if (!bugs.length) return;
    const ids = bugs.map((bug) => bug.id);
    const everything = new Set(BUG_RELATIONS.filter((relation) => relation !== 'tags'));
    const [stamps, states] = await this.db.transaction((tx) => tx.gathering((sql) => Promise.all([this.repository.stamps(sql, ids, this.visibleColumn(undefined)), this.readStates(sql, ids, everything)])));
    for (const id of ids) {
      const entry = this.cache.peek(id);
      if (!entry?.relations || entry.revision !== stamps.get(id)?.revision) continue;
      const shown = (detail: object, relations: BugRelations) =>
        JSON.stringify([{ ...detail, visible: undefined }, [...entry.relations!.wanted].sort().map((relation) => [relation, relationValue(relations, relation)])], keysInOrder);
      const kept = shown(entry.detail, entry.relations.value);
      const fresh = shown(states.details.get(id)!, states.byBug.get(id)!);
      if (kept !== fresh) throw new Error(`bug ${id} kept after a write differs from the database:\nkept  ${kept}\nfresh ${fresh}`);
    }
  }

  /**
   * Rows with names and people (one query per 500 bugs); with `visibleTo`, each says whether that caller may see
   * it. Outside a transaction, bugs the cache holds current cost only their stamp (see LoadedBugCache).
   */
  async details(ids: readonly number[], options: { visibleTo?: Caller; sql?: ReadSql; known?: KnownStamps } = {}): Promise<Map<number, BugDetail>> {
    const cached = this.keepsBugs && (!options.sql || options.sql === this.db.read);
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

  private detailsOf(unique: readonly number[], options: { visibleTo?: Caller; sql?: ReadSql }): Promise<Map<number, BugDetail>> {
    return this.repository.details(options.sql ?? this.db.read, unique, this.visibleColumn(options.visibleTo));
  }

  /** Whether the caller may see each bug, as a column; every bug counts as visible when no caller is given. */
  private visibleColumn(caller: Caller | undefined): SqlCondition {
    return caller ? this.visibility.visibleColumn(caller) : { sql: '1', params: [] };
  }

  /**
   * JSON that depends only on the bug as `detail` shows it and on `variant` (the bug's JSON for a field selection and
   * a class of caller, or a whole answer naming only this bug): the JSON made for them before, while `detail` is the
   * bug's current kept detail; else `render`'s, kept beside the kept bug for the next read (ignored unless `detail` is
   * the kept one). Without a detail (a bug not found), `render`'s, kept nowhere.
   */
  async jsonOfBug(id: number, detail: BugDetail | undefined, variant: string, render: () => Promise<RawJson>): Promise<RawJson> {
    const kept = detail && this.cache.jsonOf(id, detail, variant);
    if (kept) return kept;
    const made = await render();
    if (detail) this.cache.storeJson(id, detail, variant, made);
    return made;
  }

  /**
   * As jsonOfBug, for many bugs, each with its detail in `details`: what was made before for `variant`, and for the
   * others what `render` makes in one go (it may leave some out), kept.
   */
  async jsonOfBugs(ids: readonly number[], details: ReadonlyMap<number, BugDetail>, variant: string, render: (missing: number[]) => Promise<ReadonlyMap<number, RawJson>>): Promise<Map<number, RawJson>> {
    const json = new Map<number, RawJson>();
    for (const id of ids) {
      const kept = this.cache.jsonOf(id, details.get(id)!, variant);
      if (kept !== undefined) json.set(id, kept);
    }
    const missing = ids.filter((id) => !json.has(id));
    if (!missing.length) return json;
    for (const [id, made] of await render(missing)) {
      this.cache.storeJson(id, details.get(id)!, variant, made);
      json.set(id, made);
    }
    return json;
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
    if (caller.parameters.bool('bmo_bug_fields')) {
      for (const relation of BMO_RELATIONS) if (wants(relation)) wanted.add(relation);
    }
    return wanted;
  }

  /** The wanted relations of the bugs, in one query per 500 bugs. Lists come sorted as Bugzilla lists them. */
  async relations(
    ids: readonly number[],
    wanted: ReadonlySet<BugRelation>,
    options: { tagOwnerId?: number; sql?: ReadSql } = {},
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
    sql: ReadSql = this.db.read,
  ): Promise<BugPage> {
    const present = [...new Set(ids)].filter((id) => details.has(id));
    const wanted = this.wantedRelations(caller, selection);
    if (sql !== this.db.read || !this.keepsBugs) {
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

/** A relation's value in `relations`, as JSON can show it (custom values are a Map). */
function relationValue(relations: BugRelations, relation: BugRelation): unknown {
  const key = RELATION_KEYS[relation];
  const value = relations[key];
  return value instanceof Map ? [...value].sort(([a], [b]) => a - b) : value;
}

const RELATION_KEYS: Record<BugRelation, keyof BugRelations> = {
  alias: 'aliases', cc: 'cc', keywords: 'keywords', groups: 'groups', blocks: 'blocks', depends_on: 'dependsOn', see_also: 'seeAlso',
  flags: 'flags', custom: 'custom', tags: 'tags', actual_time: 'actualTime', regressed_by: 'regressedBy', regressions: 'regressions',
  duplicates: 'duplicates', comment_count: 'commentCount', triage_owner: 'triageOwner',
};

/** A JSON.stringify replacer that writes every object's keys sorted, so that two objects compare by content. */
function keysInOrder(_key: string, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
