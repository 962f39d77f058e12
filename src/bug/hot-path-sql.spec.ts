import type { EntityManager } from 'typeorm';
import { Sql, type SqlValue } from '../database/sql.js';
import { Caller, type ParameterSnapshot } from '../common/caller.js';
import { BugLoaderRepository } from './bug-loader.repository.js';
import { BugVisibilityRepository } from './bug-visibility.repository.js';
import { BugSearchRepository } from './search/bug-search.repository.js';
import { BUG_RELATIONS } from './loaded-bug.js';

/** A MySQL handle that records the statements it is given and answers no rows. */
function recordingMysqlHandle(): { sql: Sql; statements: string[] } {
  const statements: string[] = [];
  const sql = new Sql({} as EntityManager, 'mysql', async (text: string, _params: SqlValue[]) => {
    statements.push(text);
    return [];
  });
  return { sql, statements };
}

const parameters = (values: Record<string, string>): ParameterSnapshot => ({
  get: (name) => values[name] ?? '',
  bool: (name) => values[name] === '1',
  int: (name) => Number(values[name] ?? 0),
  all: () => values,
});

const member = new Caller(
  { id: 7, login: 'dev@example.com', realName: '', email: 'dev@example.com' },
  { memberOf: new Map([[3, 'red']]), canBless: new Set(), canSee: new Set() },
  parameters({ or_groups: '1', useqacontact: '1' }),
);

/** Identifiers written bare where a table or an `alias.column` is named: every one must be quoted. */
function unquotedIdentifiers(statement: string): string[] {
  const withoutStrings = statement.replace(/'[^']*'/g, "''");
  const tables = [...withoutStrings.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)\b/g)].map((m) => m[1]);
  const columns = [...withoutStrings.matchAll(/(?<![`\w])([a-z_]+)\.([a-z_]+)\b/g)].map((m) => m[0]);
  return [...tables, ...columns];
}

describe('the hot paths quote every identifier for MySQL 8 (`groups` is reserved there)', () => {
  it('the loader: stamps, details and the relations query', async () => {
    const { sql, statements } = recordingMysqlHandle();
    const loader = new BugLoaderRepository();
    const visible = new BugVisibilityRepository().visibleColumn(sql, member);
    await loader.stamps(sql, [1, 2], visible);
    await loader.details(sql, [1, 2], visible);
    await loader.relations(sql, [1, 2], new Set(BUG_RELATIONS), 7);
    expect(statements).toHaveLength(3);
    expect(statements[2]).toContain('JOIN `groups` g ON `g`.`id` = `x`.`group_id`');
    for (const statement of statements) expect(unquotedIdentifiers(statement)).toEqual([]);
  });

  it('the visibility predicate and its statements', async () => {
    const { sql, statements } = recordingMysqlHandle();
    const visibility = new BugVisibilityRepository();
    expect(visibility.predicate(sql, member).sql).toContain('FROM `bug_groups` vg WHERE `vg`.`bug_id` = `b`.`id`');
    await visibility.visibleIds(sql, member, [1]);
    await visibility.visibilityOf(sql, member, [1]);
    await visibility.usersWhoCanSee(sql, 1, [member]);
    expect(statements).toHaveLength(3);
    for (const statement of statements) expect(unquotedIdentifiers(statement)).toEqual([]);
  });

  it('search: every kind of criterion, the page and the count', async () => {
    const { sql, statements } = recordingMysqlHandle();
    const search = new BugSearchRepository();
    const text = (base: Parameters<BugSearchRepository['matcher']>[1]) => search.matcher(sql, base, ['x'], 'text', 'f');
    const conditions = [
      search.onBug(sql, 'status', text('in')), search.onBug(sql, 'summary', text('substring')), search.onBug(sql, 'whiteboard', text('word')),
      search.onBug(sql, 'product_id', search.idsMatcher(sql, [1])),
      ...(['aliases', 'tags', 'blocked', 'dependson', 'dup_id', 'see_also', 'keywords', 'cc', 'groups'] as const).map((r) => search.related(sql, r, text('casesubstring'), 7)),
      search.custom(sql, 3, text('regexp')), search.changed(sql, ['bug_status'], { after: '2020-01-01 00:00:00', to: text('in'), by: search.idsMatcher(sql, [2]) }),
      new BugVisibilityRepository().predicate(sql, member),
    ];
    const where = { sql: conditions.map((c) => c.sql).join(' AND '), params: conditions.flatMap((c) => c.params) };
    await search.findIds(sql, where, [{ column: 'last_change_time', descending: true }], { limit: 10, offset: 0 });
    await search.count(sql, where);
    expect(statements).toHaveLength(2);
    for (const statement of statements) expect(unquotedIdentifiers(statement)).toEqual([]);
  });
});
