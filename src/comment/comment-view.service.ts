import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { parseDateInput, toDbDateTime } from '../common/time/datetime.js';
import { BugVisibilityService, type KnownVisibility } from '../bug/bug-visibility.service.js';
import { emailFilter } from '../bug/bug.presenter.js';
import { UserService } from '../user/user.service.js';
import { CommentRepository, type CommentRow } from './comment.repository.js';
import { commentTaggersGroup } from './comment-tag.service.js';
import { presentComment, type PresentedComment } from './comment.presenter.js';

export interface CommentsRequest {
  /** Bugs by id or alias (the path's first). */
  bugs: readonly string[];
  /** As sent: each must be a number (52). */
  commentIds: readonly string[];
  newSince?: string;
  /** The bugs' visibility, when the route's companion read brought it with the caller (BugVisibilityCompanion). */
  knownBugs?: KnownVisibility;
}

export interface CommentsResponse {
  bugs: Record<string, { comments: PresentedComment[] }>;
  comments: Record<string, PresentedComment>;
}

/**
 * Get Comments (Bug.comments): the comments of bugs (`ids`, newer than `new_since`) and comments by id
 * (`comment_ids`, always returned whatever new_since says). Private comments are left out of bug listings for
 * callers outside the insider group (their `count` keeps its place); asked by id they are 110. A bug the caller
 * cannot see is 100/101/102 on either path. A constant number of statements whatever the number of comments: the
 * comments (one), their tags (one), their authors (one), besides the bug lookups.
 */
@Injectable()
export class CommentViewService {
  constructor(
    private readonly db: Db,
    private readonly repository: CommentRepository,
    private readonly visibility: BugVisibilityService,
    private readonly users: UserService,
  ) {}

  async comments(caller: Caller, request: CommentsRequest): Promise<CommentsResponse> {
    if (!request.bugs.length && !request.commentIds.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'Bug.comments', params: ['ids', 'comment_ids'] });
    }
    const newSince = request.newSince?.trim() ? toDbDateTime(parseDateInput(request.newSince, 'new_since')) : undefined;
    const commentIds = [...new Set(request.commentIds.map((id) => {
      if (!/^\d+$/.test(id.trim())) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param: 'comment_ids', function: 'Bug.comments' });
      return Number(id.trim());
    }))];
    const bugIds = await this.visibility.resolveVisible(caller, request.bugs, undefined, request.knownBugs);
    const byId = await this.checkedCommentIds(caller, commentIds);
    const sql = this.db.read;
    const tagging = commentTaggersGroup(caller) !== '';
    const [listed, asked] = await Promise.all([
      this.repository.ofBugs(sql, bugIds, { since: newSince, includePrivate: caller.isInsider }),
      this.repository.ofBugs(sql, byId.bugIds, { ids: commentIds, includePrivate: true }),
    ]);
    const [authors, bugTags, askedTags] = await Promise.all([
      this.users.findByIds([...listed, ...asked].map((c) => c.userId)),
      tagging ? this.repository.tagsOfBugs(sql, bugIds) : undefined,
      tagging ? this.repository.tagsOf(sql, asked.map((c) => c.id)) : undefined,
    ]);
    const email = emailFilter(caller);
    const present = (row: CommentRow, tags: Map<number, string[]> | undefined) =>
      presentComment(row, email(authors.get(row.userId)?.login ?? ''), tags ? (tags.get(row.id) ?? []) : undefined);

    const bugs: CommentsResponse['bugs'] = {};
    for (const id of bugIds) bugs[id] = { comments: [] };
    for (const row of listed) bugs[row.bugId].comments.push(present(row, bugTags));
    const comments: CommentsResponse['comments'] = {};
    for (const row of asked) comments[row.id] = present(row, askedTags);
    return { bugs, comments };
  }

  /**
   * One comment of a bug as `caller` sees it through Get Comments: 'hidden' when it is private and the caller outside
   * the insider group, 'missing' when this read does not find it (a replica behind the primary). The caller must be
   * able to see its bug (the webhook checks that first, through Get Bug).
   */
  async seenBy(caller: Caller, bugId: number, commentId: number): Promise<PresentedComment | 'hidden' | 'missing'> {
    const [row] = await this.repository.ofBugs(this.db.read, [bugId], { ids: [commentId], includePrivate: true });
    if (!row) return 'missing';
    if (row.isPrivate && !caller.isInsider) return 'hidden';
    const [authors, tags] = await Promise.all([
      this.users.findByIds([row.userId]),
      commentTaggersGroup(caller) !== '' ? this.repository.tagsOf(this.db.read, [row.id]) : undefined,
    ]);
    return presentComment(row, emailFilter(caller)(authors.get(row.userId)?.login ?? ''), tags ? (tags.get(row.id) ?? []) : undefined);
  }

  /**
   * Comments asked by id, as Bugzilla checks them: an unknown id is 111, a comment of a bug the caller cannot see
   * 102 (through the bug lookup), a private one 110 for a caller outside the insider group. Answers their bugs.
   */
  private async checkedCommentIds(caller: Caller, ids: readonly number[]): Promise<{ bugIds: number[] }> {
    if (!ids.length) return { bugIds: [] };
    const owners = new Map((await this.repository.owners(this.db.read, ids)).map((c) => [c.id, c]));
    const unknown = ids.find((id) => !owners.has(id));
    if (unknown !== undefined) throw TrackerError.of(Errors.COMMENT_ID_INVALID, { id: unknown });
    const bugIds = await this.visibility.resolveVisible(caller, [...new Set([...owners.values()].map((c) => String(c.bugId)))]);
    const hidden = ids.find((id) => owners.get(id)!.isPrivate && !caller.isInsider);
    if (hidden !== undefined) throw TrackerError.of(Errors.COMMENT_IS_PRIVATE, { id: hidden });
    return { bugIds };
  }
}
