import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { IdToAsk } from '../bug/bug-events.js';
import { CommentType, normaliseCommentText, type BugComments, type NewComment } from '../bug/bug-comments.js';
import { CommentRepository, type NewCommentRow } from './comment.repository.js';

/**
 * The one writer of comments. Create Bug (comment 0 is the description), Update Bug (new comments, privacy flips)
 * and duplicate marking reach it through the bug module's BUG_COMMENTS port, always inside their transaction.
 */
@Injectable()
export class CommentService implements BugComments {
  constructor(private readonly repository: CommentRepository) {}

  /** Adds one comment and returns its id. Errors: 114 (longer than 65,535 characters). */
  async add(tx: Sql, comment: NewComment): Promise<number> {
    return this.repository.insert(tx, commentRow(comment));
  }

  /** Adds one comment whose id is asked for later, if at all: on MySQL it goes with the transaction's next statement. */
  async addLater(tx: Sql, comment: NewComment): Promise<IdToAsk> {
    return this.repository.insertLater(tx, commentRow(comment));
  }

  /** The privacy of those of `ids` that are comments of the bug (comment id → is private); other ids are absent. */
  async privacyOf(sql: Sql, bugId: number, ids: readonly number[]): Promise<Map<number, boolean>> {
    const rows = await this.repository.privacyOf(sql, bugId, ids);
    return new Map(rows.map((r) => [r.id, r.isPrivate]));
  }

  /** Makes a comment private or public. The caller checks the insider right and records the history. */
  async setPrivacy(tx: Sql, commentId: number, isPrivate: boolean): Promise<void> {
    await this.repository.setPrivacy(tx, commentId, isPrivate);
  }
}

function commentRow(comment: NewComment): NewCommentRow {
  return {
    bugId: comment.bugId,
    userId: comment.userId,
    creationTime: comment.at,
    text: normaliseCommentText(comment.text),
    workTime: comment.workTime ?? 0,
    isPrivate: comment.isPrivate,
    type: comment.type ?? CommentType.NORMAL,
    extraData: comment.extraData ?? null,
    attachmentId: comment.attachmentId ?? null,
  };
}
