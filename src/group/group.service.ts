import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { Caller, CallerGroups } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';

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

/** A member of a group as Get Group `membership` lists it (the users row, read in the membership join). */
export interface GroupMemberRecord {
  id: number;
  login: string;
  email: string;
  realName: string;
  loginDeniedText: string;
  emailEnabled: boolean;
}

const GROUP_COLUMNS = 'id, name, description, is_bug_group, user_regexp, is_active, icon_url';

function toGroup(row: Record<string, any>): GroupRecord {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description ?? '',
    isBugGroup: Number(row.is_bug_group) === 1,
    userRegexp: row.user_regexp ?? '',
    isActive: Number(row.is_active) === 1,
    iconUrl: row.icon_url ?? null,
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

type GrantRow = { member_id: number; grantor_id: number; grant_type: number };

/**
 * Groups and memberships: the groups, group_group_map and user_group_map tables belong to this module. Membership
 * is what Bugzilla computes: direct and user_regexp rows, then inheritance through group_group_map.
 */
@Injectable()
export class GroupService {
  constructor(private readonly db: Db) {}

  async existsByName(name: string, sql: Sql = this.db.read): Promise<boolean> {
    return !!(await sql.one('SELECT id FROM groups WHERE name = ?', [name]));
  }

  /** Every group, ordered by name (Bugzilla's list order). */
  async findAll(sql: Sql = this.db.read): Promise<GroupRecord[]> {
    return (await sql.all(`SELECT ${GROUP_COLUMNS} FROM groups ORDER BY name`)).map(toGroup);
  }

  /** Groups by id, ordered by name; unknown ids are skipped. */
  async findByIds(ids: readonly number[], sql: Sql = this.db.read): Promise<GroupRecord[]> {
    const unique = [...new Set(ids)];
    if (!unique.length) return [];
    return (await sql.all(`SELECT ${GROUP_COLUMNS} FROM groups WHERE id IN ${sql.in(unique)} ORDER BY name`, unique)).map(toGroup);
  }

  /** Groups by name (case-insensitive), keyed by lower-cased name. */
  async findByNames(names: readonly string[], sql: Sql = this.db.read): Promise<Map<string, GroupRecord>> {
    const unique = [...new Set(names.map((n) => n.trim()))];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT ${GROUP_COLUMNS} FROM groups WHERE name IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [String(row.name).toLowerCase(), toGroup(row)]));
  }

  /** Groups by name, in the order given, each required to exist (51 otherwise). */
  async requireByNames(names: readonly string[], sql: Sql = this.db.read): Promise<GroupRecord[]> {
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
  async resolveRefs(refs: readonly unknown[], sql: Sql = this.db.read): Promise<GroupRecord[]> {
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
  async membershipsOf(userId: number, sql: Sql = this.db.read): Promise<CallerGroups> {
    return (await this.membershipsOfMany([userId], sql)).get(userId)!;
  }

  /** membershipsOf for a page of users, in one query whatever the number of users. */
  async membershipsOfMany(userIds: readonly number[], sql: Sql = this.db.read): Promise<Map<number, CallerGroups>> {
    const unique = [...new Set(userIds)];
    // One round trip for the three sets (this runs on every authenticated request): the user's rows, the
    // group-to-group grants and the group names, told apart by `kind`.
    const mixed = await sql.all<{ kind: string; a: number; b: number; c: number | null; name: string | null }>(
      `SELECT 'u' AS kind, user_id AS a, group_id AS b, is_bless AS c, NULL AS name FROM user_group_map WHERE user_id IN ${sql.in(unique)}
       UNION ALL SELECT 'g', member_id, grantor_id, grant_type, NULL FROM group_group_map
       UNION ALL SELECT 'n', id, 0, NULL, name FROM ${sql.quote('groups')}`,
      unique,
    );
    const rows = mixed.filter((r) => r.kind === 'u').map((r) => ({ user_id: Number(r.a), group_id: Number(r.b), is_bless: Number(r.c) }));
    const grants: GrantRow[] = mixed.filter((r) => r.kind === 'g').map((r) => ({ member_id: Number(r.a), grantor_id: Number(r.b), grant_type: Number(r.c) }));
    const groups = mixed.filter((r) => r.kind === 'n').map((r) => ({ id: Number(r.a), name: String(r.name) }));
    const names = new Map(groups.map((g) => [Number(g.id), g.name]));
    const inheritance = new GroupInheritance(grants);
    const result = new Map<number, CallerGroups>();
    for (const userId of unique) {
      const own = rows.filter((r) => Number(r.user_id) === userId);
      const member = inheritance.closure(own.filter((r) => Number(r.is_bless) === 0).map((r) => Number(r.group_id)));
      const canBless = new Set<number>(own.filter((r) => Number(r.is_bless) === 1).map((r) => Number(r.group_id)));
      const canSee = new Set<number>();
      for (const grant of grants) {
        if (!member.has(Number(grant.member_id))) continue;
        if (Number(grant.grant_type) === GroupGrant.BLESS) canBless.add(Number(grant.grantor_id));
        if (Number(grant.grant_type) === GroupGrant.VISIBILITY) canSee.add(Number(grant.grantor_id));
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
   * Members of each group (Get Group `membership`): users with a membership row (direct or regexp) in the group
   * or in any group whose members inherit it, ordered by login. Reads the users row in the same join.
   */
  async membersOf(groupIds: readonly number[], sql: Sql = this.db.read): Promise<Map<number, GroupMemberRecord[]>> {
    const grants = await sql.all<GrantRow>('SELECT member_id, grantor_id, grant_type FROM group_group_map');
    const inheritance = new GroupInheritance(grants);
    const sources = new Map(groupIds.map((id) => [id, inheritance.memberGroupsOf(id)]));
    const allSources = [...new Set([...sources.values()].flatMap((s) => [...s]))];
    const rows = allSources.length
      ? await sql.all(
          `SELECT DISTINCT m.group_id, u.id, u.login_name, u.email, u.realname, u.login_denied_text, u.email_enabled
             FROM user_group_map m JOIN users u ON u.id = m.user_id
            WHERE m.is_bless = 0 AND m.group_id IN ${sql.in(allSources)}
            ORDER BY u.login_name`,
          allSources,
        )
      : [];
    const result = new Map<number, GroupMemberRecord[]>();
    for (const [groupId, groupSources] of sources) {
      const seen = new Set<number>();
      const members: GroupMemberRecord[] = [];
      for (const row of rows) {
        if (!groupSources.has(Number(row.group_id)) || seen.has(Number(row.id))) continue;
        seen.add(Number(row.id));
        members.push({
          id: Number(row.id),
          login: row.login_name,
          email: row.email,
          realName: row.realname ?? '',
          loginDeniedText: row.login_denied_text ?? '',
          emailEnabled: Number(row.email_enabled) === 1,
        });
      }
      result.set(groupId, members);
    }
    return result;
  }

  /**
   * Which of these users the caller may see (Bugzilla's can_see_user): everybody while `usevisibilitygroups` is off
   * (the default); otherwise themselves and members of the groups the caller has visibility over.
   */
  async visibleUserIds(caller: Caller, userIds: readonly number[], sql: Sql = this.db.read): Promise<Set<number>> {
    if (!caller.parameters.bool('usevisibilitygroups')) return new Set(userIds);
    const memberships = await this.membershipsOfMany(userIds.filter((id) => id !== caller.id), sql);
    const visible = new Set(userIds.filter((id) => id === caller.id));
    for (const [userId, groups] of memberships) {
      if ([...groups.memberOf.keys()].some((groupId) => caller.groups.canSee.has(groupId))) visible.add(userId);
    }
    return visible;
  }

  /** The groups a user is directly in (or may directly bless), as user_group_map says: no regexp, no inheritance. */
  async directGroupIds(userId: number, isBless: boolean, sql: Sql = this.db.read): Promise<number[]> {
    const rows = await sql.all<{ group_id: number }>(
      'SELECT group_id FROM user_group_map WHERE user_id = ? AND is_bless = ? AND grant_type = ?',
      [userId, isBless ? 1 : 0, UserGrant.DIRECT],
    );
    return rows.map((r) => Number(r.group_id));
  }

  /** Adds and removes direct membership (or bless) rows of one user, inside the caller's transaction. */
  async changeDirectGroups(tx: Sql, userId: number, isBless: boolean, change: { add: readonly number[]; remove: readonly number[] }): Promise<void> {
    const bless = isBless ? 1 : 0;
    if (change.remove.length) {
      await tx.run(
        `DELETE FROM user_group_map WHERE user_id = ? AND is_bless = ? AND grant_type = ? AND group_id IN ${tx.in(change.remove)}`,
        [userId, bless, UserGrant.DIRECT, ...change.remove],
      );
    }
    await tx.insertMany('user_group_map', change.add.map((groupId) => ({ user_id: userId, group_id: groupId, is_bless: bless, grant_type: UserGrant.DIRECT })));
  }

  /**
   * Keeps one user's regexp memberships true to their login (account created or renamed): the user is in exactly
   * the groups whose user_regexp matches.
   */
  async deriveRegexpGroupsOfUser(tx: Sql, userId: number, login: string): Promise<void> {
    const groups = await tx.all<{ id: number; user_regexp: string }>("SELECT id, user_regexp FROM groups WHERE user_regexp <> ''");
    await tx.run('DELETE FROM user_group_map WHERE user_id = ? AND is_bless = 0 AND grant_type = ?', [userId, UserGrant.REGEXP]);
    const matching = groups.filter((g) => compileUserRegexp(g.user_regexp)?.test(login));
    await tx.insertMany('user_group_map', matching.map((g) => ({ user_id: userId, group_id: Number(g.id), is_bless: 0, grant_type: UserGrant.REGEXP })));
  }

  /**
   * Keeps one group's regexp members true to its user_regexp (group created, or its regexp changed): every account
   * whose login matches, and no other, has a regexp membership row. Reads the logins of all accounts once.
   */
  async deriveRegexpMembersOfGroup(tx: Sql, groupId: number, userRegexp: string): Promise<void> {
    await tx.run('DELETE FROM user_group_map WHERE group_id = ? AND is_bless = 0 AND grant_type = ?', [groupId, UserGrant.REGEXP]);
    const pattern = compileUserRegexp(userRegexp);
    if (!pattern) return;
    const users = await tx.all<{ id: number; login_name: string }>('SELECT id, login_name FROM users');
    const matching = users.filter((u) => pattern.test(u.login_name));
    await tx.insertMany('user_group_map', matching.map((u) => ({ user_id: Number(u.id), group_id: groupId, is_bless: 0, grant_type: UserGrant.REGEXP })));
  }
}

/** The membership grants between groups, walked in both directions. */
class GroupInheritance {
  /** member group → groups its members also belong to */
  private readonly up = new Map<number, number[]>();
  /** group → groups whose members belong to it */
  private readonly down = new Map<number, number[]>();

  constructor(grants: readonly GrantRow[]) {
    for (const grant of grants) {
      if (Number(grant.grant_type) !== GroupGrant.MEMBERSHIP) continue;
      const member = Number(grant.member_id);
      const grantor = Number(grant.grantor_id);
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
