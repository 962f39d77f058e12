import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { Caller } from '../common/caller.js';
import { bugMailState } from './bug-events.js';
import { BugEventsService } from './bug-events.service.js';
import { BugVisibilityService } from './bug-visibility.service.js';
import { BugLoaderService } from './bug-loader.service.js';
import { ChangeRecorderService } from './change-recorder.service.js';
import { BugRepository } from './bug.repository.js';
import { BugEditsService } from './bug-edits.service.js';
import { ChangeSet, formatWorkTime } from './rules/changes.js';
import { parseTimeValue, roundHours } from './update/update-request.js';
import type { ActivityEntry } from './bug.types.js';

/** A comment just written on a bug outside Update Bug (Create Comment), in the writer's transaction. */
export interface AddedComment {
  bugId: number;
  commentId: number;
  /** The text as stored (for the mail). */
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
    private readonly bugs: BugRepository,
    private readonly edits: BugEditsService,
    private readonly bugEvents: BugEventsService,
  ) {}

  /**
   * The hours a comment may carry: for time trackers the value checked as Update Bug checks it (52, 54, 55; negative
   * allowed), rounded as stored; for anyone else 0 — the seed ignores work_time there (errors.md, 5.0.6 gave 115).
   */
  workTimeOf(caller: Caller, value: unknown): number {
    if (!caller.isTimeTracker || value === undefined || value === null) return 0;
    return roundHours(parseTimeValue('work_time', value, true).hours);
  }

  async commentAdded(tx: Sql, caller: Caller, comment: AddedComment): Promise<void> {
    const { bugId, at, workTime } = comment;
    const [row] = await this.bugs.rows(tx, [bugId], { forUpdate: true });
    const changes = new ChangeSet();
    const history: ActivityEntry[] = [];
    let remainingTime: number | undefined;
    if (workTime !== 0) {
      history.push({ bugId, userId: caller.id, at, field: 'work_time', removed: '', added: formatWorkTime(workTime), commentId: comment.commentId });
      remainingTime = Math.max(roundHours(row.remainingTime - workTime), 0);
      changes.record('remaining_time', row.remainingTime, remainingTime);
    }
    const visible = changes.entries();
    history.push(...visible.map((e) => ({ bugId, userId: caller.id, at, field: e.field, removed: e.removed, added: e.added })));
    // The bug's row, its history and its mail need no answer: they go with the reads of the mail and the COMMIT.
    await tx.withHeldWrites(async () => {
      await this.edits.touch(tx, [bugId], at, remainingTime === undefined ? {} : { remainingTime });
      await this.recorder.record(tx, history);

      const detail = (await this.loader.details([bugId], { sql: tx })).get(bugId)!;
      const { byBug } = await this.loader.relations([bugId], new Set(['cc', 'keywords']), { sql: tx });
      await this.bugEvents.publish(tx, {
        bugId,
        summary: detail.row.summary,
        product: detail.product,
        component: detail.component,
        productId: detail.row.productId,
        componentId: detail.row.componentId,
        changerId: caller.id,
        action: 'comment',
        state: bugMailState(detail.row, detail.classification, byBug.get(bugId)?.keywords ?? []),
        changes: visible.map((e) => ({ field: e.field, removed: e.removed, added: e.added })),
        comment: { id: comment.commentId, text: comment.text, isPrivate: comment.isPrivate },
        participants: {
          reporterId: detail.row.reporterId,
          assigneeId: detail.row.assignedToId,
          qaContactId: detail.row.qaContactId,
          ccIds: byBug.get(bugId)?.cc.map((u) => u.id) ?? [],
          formerIds: [],
        },
        at,
        settingsMark: caller.settingsMark,
        canSee: (userIds) => this.visibility.usersWhoCanSee(bugId, userIds, caller, tx),
      });
    });
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
