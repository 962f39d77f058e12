import type { ReadSql } from '../database/sql.js';
import type { ColumnMatcher, SqlCondition } from '../bug/bug.types.js';

export type { ColumnMatcher, SqlCondition };

/** What a source of search criteria may show the caller: private rows only to insiders (time fields are refused before). */
export interface SearchAccess {
  includePrivate: boolean;
}

/** The comment fields a search can test (search.md: `longdesc`, `commenter`, `work_time`). */
export type CommentSearchField = 'text' | 'author' | 'work_time';

/** The attachment fields a search can test (search.md: `attachments.*`, `attach_data.thedata`). */
export type AttachmentSearchField = 'description' | 'filename' | 'mimetype' | 'ispatch' | 'isobsolete' | 'isprivate' | 'submitter' | 'data';

/**
 * Search Bugs' criteria over comments. The comment module sits above bug-search, so bug-search owns this port and
 * CommentModule.forBug() provides BUG_COMMENT_SEARCH.
 */
export interface BugCommentSearch {
  /** `<bugId> IN (bugs with a comment whose field matches)`; private comments count only with `includePrivate`. */
  bugsWithComment(sql: ReadSql, bugId: string, field: CommentSearchField, match: ColumnMatcher, access: SearchAccess): SqlCondition;
}

/** Search Bugs' criteria over attachments; provided by AttachmentModule.forBug() as BUG_ATTACHMENT_SEARCH. */
export interface BugAttachmentSearch {
  /** `<bugId> IN (bugs with an attachment whose field matches)`; private attachments count only with `includePrivate`. */
  bugsWithAttachment(sql: ReadSql, bugId: string, field: AttachmentSearchField, match: ColumnMatcher, access: SearchAccess): SqlCondition;
  /** True where the attachment id in `column` is none (NULL) or a public attachment: flags on private ones stay hidden. */
  noneOrPublic(sql: ReadSql, column: string): SqlCondition;
}

export const BUG_COMMENT_SEARCH = Symbol('BugCommentSearch');
export const BUG_ATTACHMENT_SEARCH = Symbol('BugAttachmentSearch');
