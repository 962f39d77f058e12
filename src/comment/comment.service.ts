import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { CommentRepository } from './comment.repository.js';

/** Longest comment text accepted (defaults.md "comment length"). */
export const MAX_COMMENT_LENGTH = 65535;

/** Bugzilla's comment types (CMT_*): what a comment is about, beside its text. */
export const CommentType = {
  NORMAL: 0,
  /** On the target of a duplicate: "bug N has been marked as a duplicate of this bug" (extra_data: N). */
  HAS_DUPE: 1,
  /** On the duplicate itself: "this bug has been marked as a duplicate of bug N" (extra_data: N). */
  DUPE_OF: 2,
  ATTACHMENT_CREATED: 5,
  ATTACHMENT_UPDATED: 6,
} as const;

export interface NewComment {
  bugId: number;
  userId: number;
  text: string;
  isPrivate: boolean;
  /** The request's one timestamp, DB format. */
  at: string;
  /** Hours worked, for time trackers (the caller checks the right). */
  workTime?: number;
  type?: number;
  extraData?: string | null;
  attachmentId?: number | null;
}

/**
 * Normalises comment text as Bugzilla does (_check_thetext): line endings become `\n` and trailing blanks are
 * dropped; then the length is checked (114).
 */
export function normaliseCommentText(text: unknown): string {
  const normalised = String(text ?? '').replace(/\r\n?/g, '\n').replace(/\s+$/u, '');
  if ([...normalised].length > MAX_COMMENT_LENGTH) throw TrackerError.of(Errors.COMMENT_TOO_LONG);
  return normalised;
}

/**
 * Writes comments (the endpoints that read and add them come with the comment issue). Used by Create Bug (comment
 * 0 is the description), Update Bug (new comments, privacy flips) and duplicate marking, always inside the caller's
 * transaction.
 */
@Injectable()
export class CommentService {
  constructor(private readonly repository: CommentRepository) {}

  /** Adds one comment and returns its id. Errors: 114 (longer than 65,535 characters). */
  async add(tx: Sql, comment: NewComment): Promise<number> {
    return this.repository.insert(tx, {
      bugId: comment.bugId,
      userId: comment.userId,
      creationTime: comment.at,
      text: normaliseCommentText(comment.text),
      workTime: comment.workTime ?? 0,
      isPrivate: comment.isPrivate,
      type: comment.type ?? CommentType.NORMAL,
      extraData: comment.extraData ?? null,
      attachmentId: comment.attachmentId ?? null,
    });
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
