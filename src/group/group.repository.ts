import { Injectable } from '@nestjs/common';
import { In, Not } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { Group } from './entities/group.entity.js';
import { GroupGrant } from './entities/group-grant.entity.js';
import { Membership } from './entities/membership.entity.js';

/** A new group's columns. */
export type NewGroup = Omit<Group, 'id'>;

/** The columns Update Group may change. */
export type GroupChanges = Partial<Pick<Group, 'name' | 'description' | 'userRegexp' | 'isActive' | 'iconUrl'>>;

/** A grant between groups (group_group_map), without its relations. */
export type Grant = Pick<GroupGrant, 'memberId' | 'grantorId' | 'grantType'>;

/** A membership row (user_group_map), without its relations. */
export type MembershipRow = Pick<Membership, 'userId' | 'groupId' | 'isBless' | 'grantType'>;

/** What membership expansion reads, in one round trip: the users' rows, every grant, every group's name. */
export interface MembershipFacts {
  memberships: Array<Pick<Membership, 'userId' | 'groupId' | 'isBless'>>;
  grants: Grant[];
  names: Map<number, string>;
}

/** The groups, group_group_map and user_group_map tables. Group names compare case-insensitively. */
@Injectable()
export class GroupRepository {
  existsById(sql: ReadSql, id: number): Promise<boolean> {
    return sql.repository(Group).existsBy({ id });
  }

  existsByName(sql: ReadSql, name: string): Promise<boolean> {
    return sql.repository(Group).existsBy({ name });
  }

  findOneByName(sql: Sql, name: string): Promise<Group | null> {
    return sql.repository(Group).findOneBy({ name });
  }

  /** Ordered by name (Bugzilla's list order). */
  findAll(sql: ReadSql): Promise<Group[]> {
    return sql.repository(Group).find({ order: { name: 'ASC' } });
  }

  /** Ordered by name. */
  findByIds(sql: ReadSql, ids: readonly number[]): Promise<Group[]> {
    return sql.repository(Group).find({ where: { id: In(ids) }, order: { name: 'ASC' } });
  }

  findByNames(sql: ReadSql, names: readonly string[]): Promise<Group[]> {
    return sql.repository(Group).findBy({ name: In(names) });
  }

  /** The groups that give membership by login (a non-empty user_regexp). */
  withUserRegexp(sql: Sql): Promise<Array<Pick<Group, 'id' | 'userRegexp'>>> {
    return sql.repository(Group).find({ select: { id: true, userRegexp: true }, where: { userRegexp: Not('') } });
  }

  insert(tx: Sql, group: NewGroup): Promise<number> {
    return insertRows(tx.repository(Group), [group]);
  }

  async update(tx: Sql, id: number, changes: GroupChanges): Promise<void> {
    await tx.repository(Group).update({ id }, changes);
  }

  allGrants(sql: ReadSql): Promise<Grant[]> {
    return sql.repository(GroupGrant).find({ select: { memberId: true, grantorId: true, grantType: true } });
  }

  async insertGrants(tx: Sql, grants: readonly Grant[]): Promise<void> {
    await insertRows(tx.repository(GroupGrant), grants);
  }

  /**
   * The membership facts of these users in one statement (this runs on every cold authenticated request): the
   * three row sets are told apart by `kind`. Hand-written for the round trip; every name quoted (`groups` is
   * reserved on MySQL 8).
   */
  async membershipFacts(sql: ReadSql, userIds: readonly number[]): Promise<MembershipFacts> {
    const q = sql.quote;
    const rows = await sql.all<{ kind: string; a: number; b: number; c: number | null; name: string | null }>(
      `SELECT 'u' AS ${q('kind')}, ${q('user_id')} AS ${q('a')}, ${q('group_id')} AS ${q('b')}, ${q('is_bless')} AS ${q('c')}, NULL AS ${q('name')}
         FROM ${q('user_group_map')} WHERE ${q('user_id')} IN ${sql.in(userIds)}
       UNION ALL SELECT 'g', ${q('member_id')}, ${q('grantor_id')}, ${q('grant_type')}, NULL FROM ${q('group_group_map')}
       UNION ALL SELECT 'n', ${q('id')}, 0, NULL, ${q('name')} FROM ${q('groups')}`,
      [...userIds],
    );
    const facts: MembershipFacts = { memberships: [], grants: [], names: new Map() };
    for (const row of rows) {
      if (row.kind === 'u') facts.memberships.push({ userId: Number(row.a), groupId: Number(row.b), isBless: Number(row.c) });
      else if (row.kind === 'g') facts.grants.push({ memberId: Number(row.a), grantorId: Number(row.b), grantType: Number(row.c) });
      else facts.names.set(Number(row.a), String(row.name));
    }
    return facts;
  }

  /** The users with a (non-bless) membership row in any of these groups, each pair once. */
  async membersOfGroups(sql: ReadSql, groupIds: readonly number[]): Promise<Array<Pick<Membership, 'userId' | 'groupId'>>> {
    const rows = await sql.repository(Membership).createQueryBuilder('m')
      .select('m.groupId', 'groupId').addSelect('m.userId', 'userId').distinct()
      .where('m.isBless = 0 AND m.groupId IN (:...groupIds)', { groupIds })
      .getRawMany<{ groupId: number; userId: number }>();
    return rows.map((row) => ({ groupId: Number(row.groupId), userId: Number(row.userId) }));
  }

  async groupIdsOf(sql: ReadSql, where: Omit<MembershipRow, 'groupId'>): Promise<number[]> {
    return (await sql.repository(Membership).find({ select: { groupId: true }, where })).map((row) => row.groupId);
  }

  /** Deletes the rows matching `where`, limited to `groupIds` when given. */
  async deleteMemberships(tx: Sql, where: Partial<MembershipRow>, groupIds?: readonly number[]): Promise<void> {
    await tx.repository(Membership).delete(groupIds ? { ...where, groupId: In([...groupIds]) } : where);
  }

  async insertMemberships(tx: Sql, rows: readonly MembershipRow[]): Promise<void> {
    await insertRows(tx.repository(Membership), rows);
  }
}
