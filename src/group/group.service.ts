import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import type { Caller, CallerGroups } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { KeptReads } from '../common/kept-reads.js';
import { GroupRepository, type Grant, type MembershipRow } from './group.repository.js';
import type { Group } from './entities/group.entity.js';

/** group_group_map.grant_type */
export const GroupGrant = { MEMBERSHIP: 0, BLESS: 1, VISIBILITY: 2 } as const;

/** user_group_map.grant_type: how a user came to be in a group (Bugzilla's GRANT_DIRECT / GRANT_REGEXP). */
export const UserGrant = { DIRECT: 0, REGEXP: 2 } as const;

/** A group row as the rest of the service needs it. */
export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  isBugGroup: boolean;
  userRegexp: string;
  isActive: boolean;
  iconUrl: string | null;
}

/** A system group of a fresh install; a `userRegexp` makes every matching account a member. */
export interface SystemGroup {
  name: string;
  description: string;
  userRegexp?: string;
}

/** A membership of a fresh install: in a group or blessing it, directly or by the group's user_regexp. */
export type InstalledMembership = Omit<MembershipRow, 'userId'>;

/** A member of a group as Get Group `membership` lists it (an account as the user module gives it). */
export interface GroupMemberRecord {
  id: number;
  login: string;
  email: string;
  realName: string;
  loginDeniedText: string;
  emailEnabled: boolean;
}

/**
 * The accounts as this module needs them (regexp memberships, Get Group `membership`). The user module provides them
 * at start (it sits above groups: Get and Update User read memberships), so that this module never reads users.
 */
export interface AccountDirectory {
  /** Every account's id and login. */
  allLogins(sql: Sql): Promise<Array<{ id: number; login: string }>>;
  /** Accounts by id, ordered by login; unknown ids skipped. */
  listByIds(ids: readonly number[], sql: ReadSql): Promise<GroupMemberRecord[]>;
}

function toGroup(group: Group): GroupRecord {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    isBugGroup: group.isBugGroup,
    userRegexp: group.userRegexp,
    isActive: group.isActive,
    iconUrl: group.iconUrl,
  };
}

/** A user_regexp as Bugzilla applies it (MySQL REGEXP on a case-insensitive column): unanchored, any case. */
export function compileUserRegexp(regexp: string): RegExp | undefined {
  if (regexp === '') return undefined;
  try {
    return new RegExp(regexp, 'i');
  } catch {
    return undefined;
  }
}

/**
 * Groups and memberships: the groups, group_group_map and user_group_map tables belong to this module. Membership
 * is what Bugzilla computes: direct and user_regexp rows, then inheritance through group_group_map.
 */
@Injectable()
export class GroupService {
  private accounts?: AccountDirectory;

  private readonly kept = new KeptReads();

  constructor(private readonly db: Db, private readonly store: GroupRepository) {}

  /** The user module hands over its accounts at start (see AccountDirectory). */
  useAccounts(accounts: AccountDirectory): void {
    this.accounts = accounts;
  }

  private get directory(): AccountDirectory {
    if (!this.accounts) throw new Error('GroupService: no account directory registered (the user module provides it)');
    return this.accounts;
  }

  async existsById(id: number, sql: ReadSql = this.db.read): Promise<boolean> {
    return this.store.existsById(sql, id);
  }

  async existsByName(name: string, sql: ReadSql = this.db.read): Promise<boolean> {
    return this.store.existsByName(sql, name);
  }

  /** Every group, ordered by name (Bugzilla's list order). */
  async findAll(sql: ReadSql = this.db.read): Promise<GroupRecord[]> {
    return (await this.store.findAll(sql)).map(toGroup);
  }

  /** Groups by id, ordered by name; unknown ids are skipped. */
  async findByIds(ids: readonly number[], sql: ReadSql = this.db.read): Promise<GroupRecord[]> {
    const unique = [...new Set(ids)];
    if (!unique.length) return [];
    return (await this.store.findByIds(sql, unique)).map(toGroup);
  }

  /** Groups by name (case-insensitive), keyed by lower-cased name. */
  async findByNames(names: readonly string[], sql: ReadSql = this.db.read): Promise<Map<string, GroupRecord>> {
    const unique = [...new Set(names.map((n) => n.trim()))];
    if (!unique.length) return new Map();
    return new Map((await this.store.findByNames(sql, unique)).map((group) => [group.name.toLowerCase(), toGroup(group)]));
  }

  /** Groups by name, in the order given, each required to exist (51 otherwise). */
  async requireByNames(names: readonly string[], sql: ReadSql = this.db.read): Promise<GroupRecord[]> {
    const byName = await this.findByNames(names, sql);
    return names.map((name) => {
      const group = byName.get(name.trim().toLowerCase());
      if (!group) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'group', name });
      return group;
    });
  }

  /**
   * Groups named by id (all digits) or name, in the order given, each required to exist (51 otherwise). Used by
   * every parameter that accepts "IDs or names" of groups.
   */
  async resolveRefs(refs: readonly unknown[], sql: ReadSql = this.db.read): Promise<GroupRecord[]> {
    const texts = refs.map((ref) => String(ref).trim());
    const isId = (t: string) => /^\d+$/.test(t);
    const [byId, byName] = await Promise.all([
      this.findByIds(texts.filter(isId).map(Number), sql),
      this.requireByNames(texts.filter((t) => !isId(t)), sql),
    ]);
    const found = new Map<string, GroupRecord>([...byId.map((g) => [String(g.id), g] as const), ...byName.map((g) => [g.name.toLowerCase(), g] as const)]);
    return texts.map((t) => {
      const group = found.get(isId(t) ? t : t.toLowerCase());
      if (!group) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'group', id: t });
      return group;
    });
  }

  /**
   * A user's memberships as Bugzilla computes them: direct and user_regexp rows of user_group_map, then
   * inheritance through group_group_map (a member of group A is a member of every group A is a member of).
   * Bless and visibility rights come from direct bless rows and from groups the user is a member of.
   * Three small queries, run in parallel: this runs on every authenticated request.
   */
  async membershipsOf(userId: number, sql: ReadSql = this.db.read): Promise<CallerGroups> {
    return (await this.membershipsOfMany([userId], sql)).get(userId)!;
  }

  /** membershipsOf for a page of users, in one query whatever the number of users. */
  async membershipsOfMany(userIds: readonly number[], sql: ReadSql = this.db.read): Promise<Map<number, CallerGroups>> {
    const unique = [...new Set(userIds)];
    const { memberships, grants, names } = await this.store.membershipFacts(sql, unique);
    const inheritance = new GroupInheritance(grants);
    const result = new Map<number, CallerGroups>();
    for (const userId of unique) {
      const own = memberships.filter((m) => m.userId === userId);
      const member = inheritance.closure(own.filter((m) => m.isBless === 0).map((m) => m.groupId));
      const canBless = new Set<number>(own.filter((m) => m.isBless === 1).map((m) => m.groupId));
      const canSee = new Set<number>();
      for (const grant of grants) {
        if (!member.has(grant.memberId)) continue;
        if (grant.grantType === GroupGrant.BLESS) canBless.add(grant.grantorId);
        if (grant.grantType === GroupGrant.VISIBILITY) canSee.add(grant.grantorId);
      }
      result.set(userId, {
        memberOf: new Map([...member].filter((id) => names.has(id)).map((id) => [id, names.get(id)!])),
        canBless,
        canSee,
      });
    }
    return result;
  }

  /**
   * membershipsOfMany kept under a settings mark (KeptReads): memberships, grants and groups are settings tables,
   * so none of them changes without moving the mark. For caller resolution and bug mail, which ask about the same
   * few people again and again.
   */
  membershipsOfManyAt(settingsMark: number | undefined, userIds: readonly number[], sql: ReadSql = this.db.read): Promise<ReadonlyMap<number, CallerGroups>> {
    return this.kept.throughEach(settingsMark, 'membershipsByUser', userIds, (missing) => this.membershipsOfMany(missing, sql));
  }

  /**
   * Members of each group (Get Group `membership`): users with a membership row (direct or regexp) in the group
   * or in any group whose members inherit it, ordered by login. Their accounts come from the user module
   * (AccountDirectory), in one query for all the groups.
   */
  async membersOf(groupIds: readonly number[], sql: ReadSql = this.db.read): Promise<Map<number, GroupMemberRecord[]>> {
    const inheritance = new GroupInheritance(await this.store.allGrants(sql));
    const sources = new Map(groupIds.map((id) => [id, inheritance.memberGroupsOf(id)]));
    const allSources = [...new Set([...sources.values()].flatMap((s) => [...s]))];
    const rows = allSources.length ? await this.store.membersOfGroups(sql, allSources) : [];
    const users = await this.directory.listByIds(rows.map((row) => row.userId), sql);
    const result = new Map<number, GroupMemberRecord[]>();
    for (const [groupId, groupSources] of sources) {
      const inGroup = new Set(rows.filter((row) => groupSources.has(row.groupId)).map((row) => row.userId));
      result.set(groupId, users.filter((user) => inGroup.has(user.id)));
    }
    return result;
  }

  /**
   * Which of these users the caller may see (Bugzilla's can_see_user): everybody while `usevisibilitygroups` is off
   * (the default); otherwise themselves and members of the groups the caller has visibility over.
   */
  async visibleUserIds(caller: Caller, userIds: readonly number[], sql: ReadSql = this.db.read): Promise<Set<number>> {
    if (!caller.parameters.bool('usevisibilitygroups')) return new Set(userIds);
    const memberships = await this.membershipsOfMany(userIds.filter((id) => id !== caller.id), sql);
    const visible = new Set(userIds.filter((id) => id === caller.id));
    for (const [userId, groups] of memberships) {
      if ([...groups.memberOf.keys()].some((groupId) => caller.groups.canSee.has(groupId))) visible.add(userId);
    }
    return visible;
  }

  /** The groups a user is directly in (or may directly bless), as user_group_map says: no regexp, no inheritance. */
  async directGroupIds(userId: number, isBless: boolean, sql: ReadSql = this.db.read): Promise<number[]> {
    return this.store.groupIdsOf(sql, { userId, isBless: isBless ? 1 : 0, grantType: UserGrant.DIRECT });
  }

  /**
   * The system groups of a fresh install, created in the order given (their ids follow it), each other group making
   * `admin` a member, a blesser and a viewer of itself (defaults.md), then `inheritance` ([member group, group it
   * becomes a member of], by name). Returns the ids by name.
   */
  async installSystemGroups(tx: Sql, groups: readonly SystemGroup[], inheritance: ReadonlyArray<readonly [string, string]>): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const group of groups) {
      ids.set(group.name, await this.store.insert(tx, {
        name: group.name, description: group.description, isBugGroup: false, userRegexp: group.userRegexp ?? '', isActive: true, iconUrl: null,
      }));
    }
    const admin = ids.get('admin')!;
    const grants: Grant[] = [];
    for (const id of ids.values()) {
      if (id === admin) continue;
      for (const grantType of [GroupGrant.MEMBERSHIP, GroupGrant.BLESS, GroupGrant.VISIBILITY]) grants.push({ memberId: admin, grantorId: id, grantType });
    }
    for (const [member, grantor] of inheritance) grants.push({ memberId: ids.get(member)!, grantorId: ids.get(grantor)!, grantType: GroupGrant.MEMBERSHIP });
    await this.store.insertGrants(tx, grants);
    return ids;
  }

  /**
   * The memberships of an account of a fresh install, written as given and in that order (their ids are part of
   * the install), regexp ones included: nothing is derived here.
   */
  async installMemberships(tx: Sql, userId: number, memberships: readonly InstalledMembership[]): Promise<void> {
    await this.store.insertMemberships(tx, memberships.map((membership) => ({ userId, ...membership })));
  }

  /** Adds and removes direct membership (or bless) rows of one user, inside the caller's transaction. */
  async changeDirectGroups(tx: Sql, userId: number, isBless: boolean, change: { add: readonly number[]; remove: readonly number[] }): Promise<void> {
    const bless = isBless ? 1 : 0;
    if (change.remove.length) {
      await this.store.deleteMemberships(tx, { userId, isBless: bless, grantType: UserGrant.DIRECT }, change.remove);
    }
    await this.store.insertMemberships(tx, change.add.map((groupId) => ({ userId, groupId, isBless: bless, grantType: UserGrant.DIRECT })));
  }

  /**
   * Keeps one user's regexp memberships true to their login (account renamed): the user is in exactly the groups
   * whose user_regexp matches.
   */
  async deriveRegexpGroupsOfUser(tx: Sql, userId: number, login: string): Promise<void> {
    await this.store.deleteMemberships(tx, { userId, isBless: 0, grantType: UserGrant.REGEXP });
    await this.joinRegexpGroups(tx, userId, login);
  }

  /**
   * A new account's regexp memberships: the groups whose user_regexp matches its login. It has none to remove, and
   * must not try: on MariaDB that DELETE locks the gap after the highest user id of user_group_map, the very gap every
   * concurrent Create User inserts into, and two of them then deadlock (issue 40).
   */
  async joinRegexpGroups(tx: Sql, userId: number, login: string): Promise<void> {
    const groups = await this.store.withUserRegexp(tx);
    const matching = groups.filter((g) => compileUserRegexp(g.userRegexp)?.test(login));
    await this.store.insertMemberships(tx, matching.map((g) => ({ userId, groupId: g.id, isBless: 0, grantType: UserGrant.REGEXP })));
  }

  /**
   * Keeps one group's regexp members true to its user_regexp (group created, or its regexp changed): every account
   * whose login matches, and no other, has a regexp membership row. Reads the logins of all accounts once.
   */
  async deriveRegexpMembersOfGroup(tx: Sql, groupId: number, userRegexp: string): Promise<void> {
    await this.store.deleteMemberships(tx, { groupId, isBless: 0, grantType: UserGrant.REGEXP });
    const pattern = compileUserRegexp(userRegexp);
    if (!pattern) return;
    const matching = (await this.directory.allLogins(tx)).filter((u) => pattern.test(u.login));
    await this.store.insertMemberships(tx, matching.map((u) => ({ userId: u.id, groupId, isBless: 0, grantType: UserGrant.REGEXP })));
  }
}

/** The membership grants between groups, walked in both directions. */
class GroupInheritance {
  /** member group → groups its members also belong to */
  private readonly up = new Map<number, number[]>();
  /** group → groups whose members belong to it */
  private readonly down = new Map<number, number[]>();

  constructor(grants: readonly Grant[]) {
    for (const grant of grants) {
      if (grant.grantType !== GroupGrant.MEMBERSHIP) continue;
      const member = grant.memberId;
      const grantor = grant.grantorId;
      this.up.set(member, [...(this.up.get(member) ?? []), grantor]);
      this.down.set(grantor, [...(this.down.get(grantor) ?? []), member]);
    }
  }

  /** The groups a member of `direct` belongs to, inherited ones included. */
  closure(direct: readonly number[]): Set<number> {
    return walk(direct, this.up);
  }

  /** The groups whose members are members of `groupId` (the group itself included). */
  memberGroupsOf(groupId: number): Set<number> {
    return walk([groupId], this.down);
  }
}

function walk(start: readonly number[], edges: ReadonlyMap<number, number[]>): Set<number> {
  const seen = new Set<number>(start);
  const queue = [...start];
  while (queue.length) {
    for (const next of edges.get(queue.pop()!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}
