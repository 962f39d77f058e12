import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { BugCommentSearch, ColumnMatcher, CommentSearchField, SearchAccess, SqlCondition } from '../bug-search/bug-search-sources.js';
import { Comment } from './entities/comment.entity.js';

const PROPERTY: Readonly<Record<CommentSearchField, keyof Comment>> = { text: 'text', author: 'userId', work_time: 'workTime' };

/**
 * Search Bugs' criteria over comments (BUG_COMMENT_SEARCH): a sub-select of the comments table, its names taken from
 * the entity's metadata and quoted. A private comment never matches for a caller who may not read it, so a search
 * cannot tell by its answer what a private comment says.
 */
@Injectable()
export class CommentSearchRepository implements BugCommentSearch {
  bugsWithComment(sql: Sql, bugId: string, field: CommentSearchField, match: ColumnMatcher, access: SearchAccess): SqlCondition {
    const q = sql.quote;
    const meta = sql.manager.connection.getMetadata(Comment);
    const column = (property: keyof Comment) => q(`sc.${meta.findColumnWithPropertyName(property)!.databaseName}`);
    const test = match(column(PROPERTY[field]));
    const privacy = access.includePrivate ? '' : ` AND ${column('isPrivate')} = 0`;
    return {
      sql: `${bugId} IN (SELECT ${column('bugId')} FROM ${q(meta.tableName)} sc WHERE ${test.sql}${privacy})`,
      params: test.params,
    };
  }
}
