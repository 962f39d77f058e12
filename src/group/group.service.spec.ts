import type { Db } from '../database/db.service.js';
import type { EntityManager } from 'typeorm';
import { Sql } from '../database/sql.js';
import { GroupService } from './group.service.js';
import { GroupRepository } from './group.repository.js';

/** A stand-in Sql answering the membership query (three row sets told apart by `kind`), counting its queries. */
function fakeSql(tables: { userGroupMap: Array<[number, number, number]>; groupGroupMap: Array<[number, number, number]>; groups: Array<[number, string]> }) {
  const queries: string[] = [];
  const sql = {
    in: (values: readonly unknown[]) => `(${values.map(() => '?').join(', ')})`,
    quote: (name: string) => `"${name}"`,
    async all(text: string, params: unknown[] = []) {
      queries.push(text);
      if (!text.includes('FROM "user_group_map"') || !text.includes('FROM "group_group_map"') || !text.includes('FROM "groups"')) {
        throw new Error(`unexpected query ${text}`);
      }
      return [
        ...tables.userGroupMap.filter(([user]) => params.includes(user)).map(([a, b, c]) => ({ kind: 'u', a, b, c, name: null })),
        ...tables.groupGroupMap.map(([a, b, c]) => ({ kind: 'g', a, b, c, name: null })),
        ...tables.groups.map(([a, name]) => ({ kind: 'n', a, b: 0, c: null, name })),
      ];
    },
  };
  return { sql: sql as unknown as Sql, queries };
}

describe('GroupService memberships', () => {
  // 1 admin, 2 editbugs, 3 whines, 4 qa, 5 qa-leads (members of qa), 6 secret
  const groups: Array<[number, string]> = [[1, 'admin'], [2, 'editbugs'], [3, 'whines'], [4, 'qa'], [5, 'qa-leads'], [6, 'secret']];
  const groupGroupMap: Array<[number, number, number]> = [
    [2, 3, 0], // editbugs members are whines members
    [5, 4, 0], // qa-leads members are qa members
    [5, 6, 1], // qa-leads members may bless secret
    [4, 6, 2], // qa members may see secret's members
    [1, 4, 0], [1, 5, 0], [1, 6, 1],
  ];

  it('expands direct and regexp rows through inheritance, with bless and visibility rights, in one query for any number of users', async () => {
    const userGroupMap: Array<[number, number, number]> = [
      [10, 2, 0], // direct/regexp membership of editbugs
      [10, 4, 1], // may bless qa directly
      [11, 5, 0], // qa-lead
      [12, 1, 0], // admin
    ];
    const { sql, queries } = fakeSql({ userGroupMap, groupGroupMap, groups });
    const service = new GroupService({} as Db, new GroupRepository());
    const result = await service.membershipsOfMany([10, 11, 12, 13], sql);
    expect(queries).toHaveLength(1);

    const plain = result.get(10)!;
    expect([...plain.memberOf.values()].sort()).toEqual(['editbugs', 'whines']);
    expect([...plain.canBless]).toEqual([4]);

    const lead = result.get(11)!;
    expect([...lead.memberOf.keys()].sort()).toEqual([4, 5]);
    expect([...lead.canBless]).toEqual([6]);
    expect([...lead.canSee]).toEqual([6]);

    const admin = result.get(12)!;
    expect([...admin.memberOf.keys()].sort()).toEqual([1, 4, 5]);
    expect([...admin.canBless].sort()).toEqual([6]);

    expect(result.get(13)!.memberOf.size).toBe(0);
  });

  it('membershipsOf is the same computation for one user', async () => {
    const { sql, queries } = fakeSql({ userGroupMap: [[11, 5, 0]], groupGroupMap, groups });
    const lead = await new GroupService({} as Db, new GroupRepository()).membershipsOf(11, sql);
    expect([...lead.memberOf.values()].sort()).toEqual(['qa', 'qa-leads']);
    expect(queries).toHaveLength(1);
  });
});

describe('GroupRepository membership statement', () => {
  it('quotes every table and column on MySQL, where `groups` is reserved (8.0.2 and later)', async () => {
    const sent: string[] = [];
    const mysql = new Sql({} as EntityManager, 'mysql', async (text) => {
      sent.push(text);
      return [];
    });
    await new GroupRepository().membershipFacts(mysql, [1]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('FROM `groups`');
    const unquoted = sent[0].replace(/`[^`]+`|'[^']*'/g, '');
    expect(unquoted).not.toMatch(/\b(groups|user_group_map|group_group_map|user_id|group_id|is_bless|member_id|grantor_id|grant_type|name|id)\b/);
  });
});
