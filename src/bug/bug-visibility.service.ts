import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { isIdInRange } from '../common/ids.js';
import type { Sql, ReadSql } from '../database/sql.js';
import { Caller } from '../common/caller.js';
import { GroupService } from '../group/group.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { BugVisibility } from './bug.types.js';
import { BugVisibilityRepository, type SqlCondition } from './store/bug-visibility.repository.js';
import { BugRepository } from './store/bug.repository.js';

/** One id or alias as a client named it, and what became of it. */
export interface BugLookup {
  /** The value as given (`123`, `#123`, `my-alias`), echoed in `faults`. */
  input: string;
  /** The bug's id when it exists and the caller may see it. */
  id?: number;
  /** Why it cannot be shown (100, 101 or 102), when it cannot. */
  error?: TrackerError;
}

/**
 * Existence and visibility of the bugs `ids` for `caller`, read along with the caller's credential: every id of `ids`
 * that names a bug is a key of `visible`.
 */
export interface KnownVisibility {
  caller: Caller;
  ids: ReadonlySet<number>;
  visible: ReadonlyMap<number, boolean>;
}

/**
 * A client's bug reference, parsed: digits (a leading `#` allowed) are an id, anything else an alias. Digits beyond
 * the id column's range name no bug and are looked up as an alias, which never matches (aliases are never all
 * digits): the caller gets 100 with the value as sent, never an id rounded by a float.
 */
export type BugReference = { input: string; id: number } | { input: string; alias: string } | { input: string; empty: true };

/** The bug ids `references` name, when each is a plain id (none an alias, none empty). */
export function plainBugIds(references: readonly unknown[]): number[] | undefined {
  const parsed = references.map(parseBugReference);
  const ids = parsed.flatMap((reference) => ('id' in reference ? [reference.id] : []));
  return ids.length === parsed.length ? ids : undefined;
}

export function parseBugReference(value: unknown): BugReference {
  const input = value === null || value === undefined ? '' : String(value);
  const text = input.trim();
  if (text === '') return { input, empty: true };
  const digits = /^#?(\d+)$/.exec(text);
  if (digits && isIdInRange(digits[1])) return { input, id: Number(digits[1]) };
  return { input, alias: text };
}

/**
 * The ONE bug visibility rule, as a SQL predicate so that get, search, history,
 * comments, attachments, flags and counts agree and pages are never filtered after the query:
 * a bug is visible when it is in no group, or the caller is in all of its groups (any of them with `or_groups`),
 * or the caller is its assignee, its QA contact (while `useqacontact` is on, as Bugzilla), its reporter (with
 * is_creator_accessible) or on its cc (with is_cc_accessible).
 */
@Injectable()
export class BugVisibilityService implements BugVisibility {
  constructor(
    private readonly db: Db,
    private readonly groups: GroupService,
    private readonly repository: BugVisibilityRepository,
    private readonly bugs: BugRepository,
  ) {}

  /**
   * Which of these users may see the bug now — the same rule, asked for each of them in one statement (bug mail
   * goes only to people who can see the bug, as Bugzilla's BugMail checks can_see_bug). A bug its writer knows to be
   * in no group (`inNoGroup`: read under the bug's row lock, or just written) is visible to everyone by the rule's
   * first clause, and costs no statement (issue 13: one round trip of an update less, under the lock).
   */
  async usersWhoCanSee(bugId: number, userIds: readonly number[], changer: Pick<Caller, 'parameters' | 'settingsMark'>, sql: ReadSql = this.db.read, inNoGroup = false): Promise<Set<number>> {
    const unique = [...new Set(userIds)];
    if (!unique.length || inNoGroup) return new Set(unique);
    const memberships = await this.groups.membershipsOfManyAt(changer.settingsMark, unique, sql);
    const callers = unique.map((userId) => new Caller({ id: userId, login: '', realName: '', email: '' }, memberships.get(userId)!, changer.parameters));
    return new Set(await this.repository.usersWhoCanSee(sql, bugId, callers));
  }

  predicate(caller: Caller, alias = 'b'): SqlCondition {
    return this.repository.predicate(this.db.read, caller, alias);
  }

  /** `1` when the caller may see the bug, else `0`: a column for queries that must tell hidden from missing. */
  visibleColumn(caller: Caller, alias = 'b'): SqlCondition {
    return this.repository.visibleColumn(this.db.read, caller, alias);
  }

  async visibleIds(caller: Caller, ids: readonly number[], sql: ReadSql = this.db.read): Promise<Set<number>> {
    return new Set(await this.repository.visibleIds(sql, caller, [...new Set(ids)]));
  }

  /**
   * resolveVisible for bugs read under their row locks in `tx`, `groupsOf` giving each one's groups as read there: the
   * check of an update whose caller was presumed (presumesCaller, src/fast-paths.ts), which no companion read made
   * before its transaction. A bug in no group is visible to everyone (the rule above this class): only the others'
   * visibility is read.
   */
  async resolveVisibleLocked(caller: Caller, idsOrAliases: readonly string[], groupsOf: ReadonlyMap<number, readonly unknown[]>, tx: Sql): Promise<number[]> {
    const grouped = [...groupsOf].filter(([, groups]) => groups.length > 0).map(([id]) => id);
    const read = grouped.length ? await this.visibilityOf(caller, grouped, tx) : new Map<number, boolean>();
    const visible = new Map([...groupsOf].map(([id, groups]) => [id, groups.length === 0 || read.get(id) === true]));
    return this.resolveVisible(caller, idsOrAliases, tx, { caller, ids: new Set(groupsOf.keys()), visible });
  }

  /** The visible bugs' ids, or the first reference's error; `known`: what the route's companion read already found. */
  async resolveVisible(caller: Caller, idsOrAliases: readonly string[], sql: ReadSql = this.db.read, known?: KnownVisibility): Promise<number[]> {
    const lookups = await this.lookup(caller, idsOrAliases, sql, known);
    const failed = lookups.find((l) => l.error)?.error;
    if (failed) throw failed;
    return [...new Set(lookups.map((l) => l.id!))];
  }

  /**
   * Resolves each reference to a visible bug id or to its error, in order, with one query for aliases (only when
   * some are named) and one for existence and visibility together.
   */
  async lookup(caller: Caller, idsOrAliases: readonly unknown[], sql: ReadSql = this.db.read, known?: KnownVisibility): Promise<BugLookup[]> {
    const references = idsOrAliases.map(parseBugReference);
    const aliasIds = await this.idsOfAliases(references.flatMap((r) => ('alias' in r ? [r.alias] : [])), sql);
    const ids = references.flatMap((r) => ('id' in r ? [r.id] : 'alias' in r && aliasIds.has(r.alias.toLowerCase()) ? [aliasIds.get(r.alias.toLowerCase())!] : []));
    const knows = known?.caller === caller && ids.every((id) => known.ids.has(id));
    const visibility = knows ? known.visible : await this.visibilityOf(caller, ids, sql);
    return references.map((r) => this.outcome(caller, r, aliasIds, visibility));
  }

  /** Bug ids of aliases (case-insensitive, as the column's collation); keys are lower-cased aliases. */
  idsOfAliases(aliases: readonly string[], sql: ReadSql = this.db.read): Promise<Map<string, number>> {
    return this.ownersOfAliases(aliases, sql, false);
  }

  /**
   * idsOfAliases, read in the write `tx` that gives them to a bug: the read locks (BugRepository.aliasOwners), so a
   * concurrent write giving one of them to another bug is seen, never met at the unique index (a 500 on MariaDB).
   */
  idsOfAliasesToGive(aliases: readonly string[], tx: Sql): Promise<Map<string, number>> {
    return this.ownersOfAliases(aliases, tx, true);
  }

  private async ownersOfAliases(aliases: readonly string[], sql: ReadSql, lock: boolean): Promise<Map<string, number>> {
    if (!aliases.length) return new Map();
    const rows = await this.bugs.aliasOwners(sql, [...new Set(aliases)], { lock });
    return new Map(rows.map((r) => [r.alias.toLowerCase(), r.bugId]));
  }

  /** For each existing bug of `ids`, whether the caller may see it (absent from the map: no such bug). */
  async visibilityOf(caller: Caller, ids: readonly number[], sql: ReadSql = this.db.read): Promise<Map<number, boolean>> {
    const rows = await this.repository.visibilityOf(sql, caller, [...new Set(ids)]);
    return new Map(rows.map((r) => [r.id, r.visible]));
  }

  /** The error of a bug that exists but is hidden: anonymous callers are told to log in (bug_access_query). */
  accessDenied(caller: Caller, id: number | string): TrackerError {
    return TrackerError.of(caller.isLoggedIn ? Errors.BUG_ACCESS_DENIED : Errors.BUG_ACCESS_QUERY, { id });
  }

  /** What one reference comes to, given the alias map and the existence/visibility map. */
  outcome(caller: Caller, reference: BugReference, aliasIds: ReadonlyMap<string, number>, visibility: Pick<ReadonlyMap<number, boolean>, 'get'>): BugLookup {
    const { input } = reference;
    if ('empty' in reference) return { input, error: TrackerError.of(Errors.IMPROPER_BUG_ID, { value: '' }) };
    let id: number;
    if ('alias' in reference) {
      const found = aliasIds.get(reference.alias.toLowerCase());
      if (found === undefined) return { input, error: TrackerError.of(Errors.IMPROPER_BUG_ID, { value: reference.alias }) };
      id = found;
    } else {
      id = reference.id;
    }
    const visible = visibility.get(id);
    if (visible === undefined) return { input, error: TrackerError.of(Errors.BUG_NOT_FOUND, { id }) };
    if (!visible) return { input, error: this.accessDenied(caller, id) };
    return { input, id };
  }
}
