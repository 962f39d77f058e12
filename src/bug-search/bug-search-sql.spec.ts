import { BugSearchRepository } from './bug-search.repository.js';
import { recordingMysqlHandle, unquotedIdentifiers } from '../../test/support/recording-mysql-handle.js';

describe('Search Bugs quotes every identifier for MySQL 8 (`groups` is reserved there)', () => {
  it('search: every kind of criterion, the page and the count', async () => {
    const { sql, statements } = recordingMysqlHandle();
    const search = new BugSearchRepository();
    const text = (base: Parameters<BugSearchRepository['matcher']>[1]) => search.matcher(sql, base, ['x'], 'text', 'f');
    const conditions = [
      search.onBug(sql, 'status', text('in')), search.onBug(sql, 'summary', text('substring')), search.onBug(sql, 'whiteboard', text('word')),
      search.onBug(sql, 'product_id', search.idsMatcher(sql, [1])),
      ...(['aliases', 'tags', 'blocked', 'dependson', 'dup_id', 'see_also', 'keywords', 'cc', 'groups'] as const).map((r) => search.related(sql, r, text('casesubstring'), 7)),
      search.custom(sql, 3, text('regexp')), search.changed(sql, ['bug_status'], { after: '2020-01-01 00:00:00', to: text('in'), by: search.idsMatcher(sql, [2]) }),
    ];
    const where = { sql: conditions.map((c) => c.sql).join(' AND '), params: conditions.flatMap((c) => c.params) };
    await search.findIds(sql, where, [{ column: 'last_change_time', descending: true }], { limit: 10, offset: 0 });
    await search.count(sql, where);
    expect(statements).toHaveLength(2);
    for (const statement of statements) expect(unquotedIdentifiers(statement)).toEqual([]);
  });
});
