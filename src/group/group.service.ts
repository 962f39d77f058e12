import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { CallerGroups } from '../common/caller.js';

/** group_group_map.grant_type */
export const GroupGrant = { MEMBERSHIP: 0, BLESS: 1, VISIBILITY: 2 } as const;

@Injectable()
export class GroupService {
  constructor(private readonly db: Db) {}

  async existsByName(name: string, sql: Sql = this.db.read): Promise<boolean> {
    return !!(await sql.one('SELECT id FROM groups WHERE name = ?', [name]));
  }

  /**
   * A user's memberships as Bugzilla computes them: direct and user_regexp rows of user_group_map, then
   * inheritance through group_group_map (a member of group A is a member of every group A is a member of).
   * Bless and visibility rights come from direct bless rows and from groups the user is a member of.
   */
  async membershipsOf(userId: number, sql: Sql = this.db.read): Promise<CallerGroups> {
    const [rows, grants, groups] = await Promise.all([
      sql.all<{ group_id: number; is_bless: number }>('SELECT group_id, is_bless FROM user_group_map WHERE user_id = ?', [userId]),
      sql.all<{ member_id: number; grantor_id: number; grant_type: number }>('SELECT member_id, grantor_id, grant_type FROM group_group_map'),
      sql.all<{ id: number; name: string }>('SELECT id, name FROM groups'),
    ]);
    const names = new Map(groups.map((g) => [Number(g.id), g.name]));
    const member = new Set<number>(rows.filter((r) => Number(r.is_bless) === 0).map((r) => Number(r.group_id)));
    const membership = grants.filter((g) => Number(g.grant_type) === GroupGrant.MEMBERSHIP);
    for (let grew = true; grew; ) {
      grew = false;
      for (const grant of membership) {
        if (member.has(Number(grant.member_id)) && !member.has(Number(grant.grantor_id))) {
          member.add(Number(grant.grantor_id));
          grew = true;
        }
      }
    }
    const canBless = new Set<number>(rows.filter((r) => Number(r.is_bless) === 1).map((r) => Number(r.group_id)));
    const canSee = new Set<number>();
    for (const grant of grants) {
      if (!member.has(Number(grant.member_id))) continue;
      if (Number(grant.grant_type) === GroupGrant.BLESS) canBless.add(Number(grant.grantor_id));
      if (Number(grant.grant_type) === GroupGrant.VISIBILITY) canSee.add(Number(grant.grantor_id));
    }
    return {
      memberOf: new Map([...member].filter((id) => names.has(id)).map((id) => [id, names.get(id)!])),
      canBless,
      canSee,
    };
  }
}
