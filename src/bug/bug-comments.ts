import type { Sql } from '../database/sql.js';
import type { NewRowValue } from '../database/entity-rows.js';
import type { IdToAsk } from './bug-events.js';
import { Errors, TrackerError } from '../common/errors/index.js';

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
  /** A new bug's id may still be held in the database (Create Bug's description). */
  bugId: NewRowValue<number>;
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
 * dropped; then the length is checked (114). Every writer of comments validates through this one function.
 */
export function normaliseCommentText(text: unknown): string {
  const normalised = String(text ?? '').replace(/\r\n?/g, '\n').replace(/\s+$/u, '');
  if ([...normalised].length > MAX_COMMENT_LENGTH) throw TrackerError.of(Errors.COMMENT_TOO_LONG);
  return normalised;
}

/**
 * What Create and Update Bug need from the comment module: the one writer of comments. The comment module sits
 * above bug (its endpoints need the bug's visibility rule, loader, change recorder and mailer), so bug owns this
 * port and the comment module provides BUG_COMMENTS (CommentModule.forBug()), as mail provides BUG_MAILER.
 */
export interface BugComments {
  /** Adds one comment inside the caller's transaction and returns its id. Errors: 114 (too long). */
  add(tx: Sql, comment: NewComment): Promise<number>;
  /** Adds one comment whose id is asked for later, if at all (an event's comment): on MySQL it is held (runWriteLater). */
  addLater(tx: Sql, comment: NewComment): Promise<IdToAsk>;
  /** The privacy of those of `ids` that are comments of the bug (comment id → is private); other ids are absent. */
  privacyOf(sql: Sql, bugId: number, ids: readonly number[]): Promise<Map<number, boolean>>;
  /** Makes a comment private or public. The caller checks the insider right and records the history. */
  setPrivacy(tx: Sql, commentId: number, isPrivate: boolean): Promise<void>;
}

export const BUG_COMMENTS = Symbol('BugComments');
