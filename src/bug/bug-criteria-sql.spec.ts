import { BugCriteriaRepository } from './bug-criteria.repository.js';
import { recordingMysqlHandle, unquotedIdentifiers } from '../../test/support/recording-mysql-handle.js';
import type { ColumnMatcher } from './bug.types.js';

describe('Search Bugs quotes every identifier for MySQL 8 (`groups` is reserved there)', () => {
  it('search: every kind of criterion over the bug tables, the page and the count', async () => {
    const { sql, statements } = recordingMysqlHandle();
    const search = new BugCriteriaRepository();
    const value: ColumnMatcher = (column) => ({ sql: `${column} = ?`, params: ['x'] });
    const conditions = [
      search.onBug(sql, 'status', value), search.onBug(sql, 'summary', value), search.onBug(sql, 'product_id', value),
      ...(['aliases', 'tags', 'blocked', 'dependson', 'dup_id', 'see_also', 'keywords', 'cc', 'groups'] as const).map((r) => search.related(sql, r, value, 7)),
      search.custom(sql, 3, value), search.changed(sql, ['bug_status'], { after: '2020-01-01 00:00:00', to: value, by: value }),
    ];
    const where = { sql: conditions.map((c) => c.sql).join(' AND '), params: conditions.flatMap((c) => c.params) };
    await search.findIds(sql, where, [{ column: 'last_change_time', descending: true }], { limit: 10, offset: 0, after: { id: 4, keys: ['2020-01-01 00:00:00'] } });
    await search.count(sql, where);
    expect(statements).toHaveLength(2);
    for (const statement of statements) expect(unquotedIdentifiers(statement)).toEqual([]);
  });
});
