import { Inject, Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { Caller } from '../common/caller.js';
import { bugMailState, type NewRowId } from '../bug/bug-events.js';
import { BugEventsService } from '../bug/bug-events.service.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { BugLoaderService } from '../bug/store/bug-loader.service.js';
import { ChangeRecorderService } from '../bug/change-recorder.service.js';
import { BugStoreService } from '../bug/store/bug-store.service.js';
import { BugEditsService } from '../bug/store/bug-edits.service.js';
import { ChangeSet, formatWorkTime } from '../bug/changes.js';
import { parseTimeValue, roundHours } from './update/update-request.js';
import type { ActivityEntry } from '../bug/bug.types.js';
import { BUG_COMMENTS, type BugComments } from '../bug/bug-comments.js';

/** A comment to add to a bug outside Update Bug (Create Comment), in the writer's transaction. */
export interface AddedComment {
  bugId: number;
  /** The text as stored: normalised and checked (normaliseCommentText). */
  text: string;
  isPrivate: boolean;
  /** Hours worked, already checked by workTimeOf (0 for none). */
  workTime: number;
  /** The request's one timestamp, DB format. */
  at: string;
}

/**
 * What a comment added on its own does to its bug, as Bugzilla 5.0's Bug::add_comment + Bug::update: work_time
 * lowers remaining_time (not below 0), the history gets `work_time` (with the comment id) and `remaining_time`, the
 * bug's last_change_time moves, and bug mail with the comment is queued — all in the writer's transaction. The
 * comment module's Create Comment calls it; the rules stay here, with Update Bug's.
 */
@Injectable()
export class BugCommentChangeService {
  constructor(
    private readonly loader: BugLoaderService,
    private readonly visibility: BugVisibilityService,
    private readonly recorder: ChangeRecorderService,
    private readonly bugs: BugStoreService,
    private readonly edits: BugEditsService,
    private readonly bugEvents: BugEventsService,
    @Inject(BUG_COMMENTS) private readonly comments: BugComments,
  ) {}

  /**
   * The hours a comment may carry: for time trackers the value checked as Update Bug checks it (52, 54, 55; negative
   * allowed), rounded as stored; for anyone else 0 — the seed ignores work_time there (errors.md, 5.0.6 gave 115).
   */
  workTimeOf(caller: Caller, value: unknown): number {
    if (!caller.isTimeTracker || value === undefined || value === null) return 0;
    return roundHours(parseTimeValue('work_time', value, true).hours);
  }

  /**
   * Adds the comment to the bug and answers its id. The bug's row is locked first, as Update Bug locks it, so the
   * mail's reads (the transaction's first plain reads, which fix its snapshot) see the bug as this change leaves it,
   * its groups among them: a bug in no group needs no visibility read for its mail. Without work time, the lock, the
   * comment, the bug's row and history all go with those reads, and the mail with the COMMIT: two round trips. Work
   * time needs the row's remaining_time under the lock first (its history row names no comment, as Bugzilla's).
   */
  async addComment(tx: Sql, caller: Caller, comment: AddedComment): Promise<number> {
    const { bugId, at, workTime } = comment;
    const newComment = { bugId, userId: caller.id, text: comment.text, isPrivate: comment.isPrivate, at, workTime };
    const changes = new ChangeSet();
    const history: ActivityEntry[] = [];
    let remainingTime: number | undefined;
    let id: NewRowId;
    if (workTime === 0) {
      await this.bugs.lock(tx, [bugId]);
      id = await this.comments.addLater(tx, newComment);
    } else {
      const [row] = await this.bugs.rows(tx, [bugId], { forUpdate: true });
      id = await this.comments.addLater(tx, newComment);
      history.push({ bugId, userId: caller.id, at, field: 'work_time', removed: '', added: formatWorkTime(workTime) });
      remainingTime = Math.max(roundHours(row.remainingTime - workTime), 0);
      changes.record('remaining_time', row.remainingTime, remainingTime);
    }
    const visible = changes.entries();
    history.push(...visible.map((e) => ({ bugId, userId: caller.id, at, field: e.field, removed: e.removed, added: e.added })));
    await this.edits.recordChange(tx, async () => {
      await this.edits.touch(tx, [bugId], at, remainingTime === undefined ? {} : { remainingTime });
      await this.recorder.record(tx, history);

      const { details, byBug } = await this.loader.currentStates(tx, [bugId], new Set(['cc', 'keywords', 'groups']));
      const detail = details.get(bugId)!;
      const relations = byBug.get(bugId);
      await this.bugEvents.publish(tx, {
        bugId,
        summary: detail.row.summary,
        product: detail.product,
        component: detail.component,
        productId: detail.row.productId,
        componentId: detail.row.componentId,
        changerId: caller.id,
        action: 'comment',
        state: bugMailState(detail.row, detail.classification, relations?.keywords ?? []),
        changes: visible.map((e) => ({ field: e.field, removed: e.removed, added: e.added })),
        comment: { id, text: comment.text, isPrivate: comment.isPrivate },
        participants: {
          reporterId: detail.row.reporterId,
          assigneeId: detail.row.assignedToId,
          qaContactId: detail.row.qaContactId,
          ccIds: relations?.cc.map((u) => u.id) ?? [],
          formerIds: [],
        },
        at,
        settingsMark: caller.settingsMark,
        canSee: (userIds) => this.visibility.usersWhoCanSee(bugId, userIds, caller, tx, relations?.groups.length === 0),
      });
    });
    return typeof id === 'number' ? id : id();
  }

  /**
   * A comment's tags changed (Update Comment Tags). In Bugzilla 5.0 that is no change of the bug (no history, no
   * mail, its last_change_time stays), but Get Comments shows the tags: the bug's revision moves, so no instance
   * serves a kept answer with the old ones.
   */
  commentTagsChanged(tx: Sql, bugId: number): Promise<void> {
    return this.edits.moveRevision(tx, [bugId]);
  }
}
