import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { BugCommentChangeService } from '../bug-write/bug-comment-change.service.js';
import { CommentRepository } from './comment.repository.js';
import type { CommentTagUpdateInput } from './dto/comment.dto.js';

/** Tags returned by a search without a limit (the seed's 10; the 5.0 code used 7). */
export const DEFAULT_TAG_SEARCH_LIMIT = 10;
/** defaults.md "comment tag length". */
const MIN_TAG_LENGTH = 3;
const MAX_TAG_LENGTH = 24;

/** The group allowed to tag comments; '' when tagging is off (routes.md: then the tag calls are 125 and comments show no `tags`). */
export const commentTaggersGroup = (caller: Caller): string => caller.parameters.get('comment_taggers_group').trim();

/** A tag as Bugzilla's Comment::_check_tag accepts it: 128 too short, 127 too long, 126 other characters. */
export function checkTag(value: unknown): string {
  const tag = String(value);
  const length = [...tag].length;
  if (length < MIN_TAG_LENGTH) throw TrackerError.of(Errors.COMMENT_TAG_TOO_SHORT, { tag });
  if (length > MAX_TAG_LENGTH) throw TrackerError.of(Errors.COMMENT_TAG_TOO_LONG, { tag });
  if (!/^[A-Za-z0-9._-]+$/.test(tag)) throw TrackerError.of(Errors.COMMENT_TAG_INVALID, { tag });
  return tag;
}

/**
 * Comment tags (Bug.search_comment_tags, Bug.update_comment_tags): both need login (the route), tagging on (125
 * when `comment_taggers_group` is empty) and membership of that group (304). Both answer bare arrays.
 */
@Injectable()
export class CommentTagService {
  constructor(
    private readonly db: Db,
    private readonly repository: CommentRepository,
    private readonly visibility: BugVisibilityService,
    private readonly bugChanges: BugCommentChangeService,
  ) {}

  /** Tags in use containing `query`, most used first; `limit` missing or 0 is the default (10), else a natural number (52). */
  search(caller: Caller, query: string, limit: unknown): Promise<string[]> {
    this.checkTagger(caller, 'search');
    const text = limit === undefined || limit === null ? '' : String(limit).trim();
    if (text !== '' && !/^\d+$/.test(text)) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param: 'limit', function: 'Bug.search_comment_tags' });
    return this.repository.searchTags(this.db.read, query, Number(text) || DEFAULT_TAG_SEARCH_LIMIT);
  }

  /**
   * Adds and removes tags of one comment (case-insensitively: a tag already there is not added twice) and answers
   * its tags after the change, sorted. A non-integer id is 57; an unknown comment answers [] (5.0 code); a comment
   * of a bug the caller cannot see is 102, a private one 110 outside the insider group; a bad tag 126–128, with
   * nothing changed.
   */
  async update(caller: Caller, commentId: string, input: CommentTagUpdateInput): Promise<string[]> {
    this.checkTagger(caller, 'update');
    if (!/^\d+$/.test(commentId.trim())) throw TrackerError.of(Errors.PARAM_INTEGER_REQUIRED, { param: 'comment_id' });
    const id = Number(commentId.trim());
    const [comment] = await this.repository.owners(this.db.read, [id]);
    if (!comment) return [];
    await this.visibility.resolveVisible(caller, [String(comment.bugId)]);
    if (comment.isPrivate && !caller.isInsider) throw TrackerError.of(Errors.COMMENT_IS_PRIVATE, { id });
    const add = (input.add ?? []).filter((t) => t !== null && t !== undefined).map(checkTag);
    const remove = (input.remove ?? []).filter((t) => t !== null && t !== undefined).map(checkTag);

    return this.db.transaction(async (tx) => {
      const before = (await this.repository.tagsOf(tx, [id])).get(id) ?? [];
      const after = [...before];
      const indexOf = (tag: string) => after.findIndex((t) => t.toLowerCase() === tag.toLowerCase());
      for (const tag of add) if (indexOf(tag) < 0) after.push(tag);
      for (const tag of remove) {
        const at = indexOf(tag);
        if (at >= 0) after.splice(at, 1);
      }
      const removed = before.filter((t) => !after.includes(t));
      const added = after.filter((t) => !before.includes(t));
      await this.repository.removeTags(tx, id, removed);
      await this.repository.addTags(tx, id, added);
      if (removed.length || added.length) await this.bugChanges.commentTagsChanged(tx, comment.bugId);
      return after.sort();
    });
  }

  private checkTagger(caller: Caller, action: 'search' | 'update'): void {
    const group = commentTaggersGroup(caller);
    if (group === '') throw TrackerError.of(Errors.COMMENT_TAG_DISABLED);
    if (!caller.inGroup(group)) throw TrackerError.of(Errors.AUTH_FAILURE, { group, action, object: 'comment_tags' });
  }
}
