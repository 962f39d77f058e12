import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { parseDateInput, toDbDateTime } from '../common/time/datetime.js';
import { applyAtTargets, type FieldSelection } from '../common/fields/field-selection.js';
import { RawJson } from '../common/http/raw-json.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { BugLoaderService, type KnownStamps } from '../bug/store/bug-loader.service.js';
import { visibilityOfStamps } from '../bug/store/bug-stamps.companion.js';
import { emailFilter, seesWholeAddresses } from '../bug/bug.presenter.js';
import { UserService } from '../user/user.service.js';
import { CommentRepository, type CommentRow } from './comment.repository.js';
import { commentTaggersGroup } from './comment-tag.service.js';
import { COMMENT_OBJECTS, presentComment, type PresentedComment } from './comment.presenter.js';

export interface CommentsRequest {
  /** Bugs by id or alias (the path's first). */
  bugs: readonly string[];
  /** As sent: each must be a number (52). */
  commentIds: readonly string[];
  newSince?: string;
  /** The bugs' stamps and visibility, when the route's companion read brought them with the caller (BugStampsCompanion). */
  knownBugs?: KnownStamps;
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
 *
 * The answer for one bug (no `comment_ids`) is kept whole, with its ETag, beside the kept bug (BugLoaderService
 * .jsonOfBug) per field selection, caller class (insider, whole addresses) and `new_since`: everything it shows moves
 * the bug's revision (a comment, its privacy, its tags) or the settings mark (an author's login, the tagging
 * parameter), so it is served only while both are those the caller's credential statement read.
 */
@Injectable()
export class CommentViewService {
  constructor(
    private readonly db: Db,
    private readonly repository: CommentRepository,
    private readonly visibility: BugVisibilityService,
    private readonly users: UserService,
    private readonly loader: BugLoaderService,
  ) {}

  /**
   * The answer as JSON text, `selection` (the request's include_fields / exclude_fields) applied to its Comment
   * objects here: the answer of one bug is kept so, and the request hook sends it without the route's interceptor.
   */
  async comments(caller: Caller, request: CommentsRequest, selection: FieldSelection): Promise<RawJson> {
    if (!request.bugs.length && !request.commentIds.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'Bug.comments', params: ['ids', 'comment_ids'] });
    }
    const newSince = request.newSince?.trim() ? toDbDateTime(parseDateInput(request.newSince, 'new_since')) : undefined;
    const commentIds = [...new Set(request.commentIds.map((id) => {
      if (!/^\d+$/.test(id.trim())) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param: 'comment_ids', function: 'Bug.comments' });
      return Number(id.trim());
    }))];
    const bugIds = await this.visibility.resolveVisible(caller, request.bugs, undefined, visibilityOfStamps(request.knownBugs));
    if (bugIds.length === 1 && !commentIds.length) return this.oneBugAnswer(caller, bugIds[0], newSince, selection, request.knownBugs);
    return new RawJson(selectedJson(await this.listedAndAsked(caller, bugIds, commentIds, newSince), selection));
  }

  /** The answer naming one visible bug: kept whole while the bug's stamp is the one read (see the class). */
  private async oneBugAnswer(caller: Caller, bugId: number, newSince: string | undefined, selection: FieldSelection, known: KnownStamps | undefined): Promise<RawJson> {
    const detail = (await this.loader.details([bugId], { visibleTo: caller, known })).get(bugId);
    const variant = `comments|${selection.key}|${caller.isInsider ? 'insider' : ''}|${seesWholeAddresses(caller) ? 'whole' : ''}|${newSince ?? ''}`;
    return this.loader.jsonOfBug(bugId, detail, variant,
      async () => RawJson.tagged(selectedJson(await this.listedAndAsked(caller, [bugId], [], newSince), selection)));
  }

  private async listedAndAsked(caller: Caller, bugIds: readonly number[], commentIds: readonly number[], newSince: string | undefined): Promise<CommentsResponse> {
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

/** The answer's JSON text with the field selection applied to its Comment objects, as the route's interceptor would. */
function selectedJson(response: CommentsResponse, selection: FieldSelection): string {
  return JSON.stringify(applyAtTargets(response, COMMENT_OBJECTS, selection));
}
