import { BugLoaderRepository } from './bug-loader.repository.js';
import { BugVisibilityRepository } from './bug-visibility.repository.js';
import { BUG_RELATIONS } from '../loaded-bug.js';
import { member, recordingMysqlHandle, unquotedIdentifiers } from '../../../test/support/recording-mysql-handle.js';

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
});
