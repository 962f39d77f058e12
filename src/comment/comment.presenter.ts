import { toApiDateTime } from '../common/time/datetime.js';
import { CommentType } from '../bug/bug-comments.js';
import type { CommentRow } from './comment.repository.js';

/** include_fields / exclude_fields trim every Comment object of a Get Comments answer (misc.md). */
export const COMMENT_OBJECTS = [{ path: 'bugs.*.comments[]', fields: {} }, { path: 'comments.*', fields: {} }];

/** The public Comment object (service-spec "Comment", updates.md "Comment object keys"). */
export interface PresentedComment {
  id: number;
  bug_id: number;
  attachment_id: number | null;
  count: number;
  text: string;
  creator: string;
  time: string;
  creation_time: string;
  is_private: boolean;
  tags?: string[];
}

/**
 * A comment's text as Bugzilla 5.0 shows it (Comment::body_full): a comment of a special type carries its notice
 * after (duplicates) or before (attachments) the text the user wrote.
 */
export function commentText(row: Pick<CommentRow, 'type' | 'text' | 'extraData'>): string {
  const join = (...parts: string[]) => parts.filter((part) => part !== '').join('\n\n');
  switch (row.type) {
    case CommentType.DUPE_OF:
      return join(row.text, `*** This bug has been marked as a duplicate of bug ${row.extraData} ***`);
    case CommentType.HAS_DUPE:
      return join(`*** Bug ${row.extraData} has been marked as a duplicate of this bug. ***`, row.text);
    case CommentType.ATTACHMENT_CREATED:
      return join(`Created attachment ${row.extraData}`, row.text);
    case CommentType.ATTACHMENT_UPDATED:
      return join(`Comment on attachment ${row.extraData}`, row.text);
    default:
      return row.text;
  }
}

/** `tags` is shown only while comment tagging is on (`comment_taggers_group` not empty). */
export function presentComment(row: CommentRow, creator: string, tags: readonly string[] | undefined): PresentedComment {
  const time = toApiDateTime(row.creationTime)!;
  return {
    id: row.id,
    bug_id: row.bugId,
    attachment_id: row.attachmentId,
    count: row.count,
    text: commentText(row),
    creator,
    time,
    creation_time: time,
    is_private: row.isPrivate,
    ...(tags ? { tags: [...tags] } : {}),
  };
}
