import { Inject, Injectable } from '@nestjs/common';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { UserService } from '../../user/user.service.js';
import { GroupService } from '../../group/group.service.js';
import { BUG_COMMENTS, CommentType, type BugComments } from '../../bug/bug-comments.js';
import { BugVisibilityService } from '../../bug/bug-visibility.service.js';
import { BugLoaderService } from '../../bug/store/bug-loader.service.js';
import { formatWorkTime } from '../../bug/changes.js';
import { BugWork } from './bug-work.js';
import { callerAs } from '../../bug-rules/bug-flags.service.js';
import { BugStoreService } from '../../bug/store/bug-store.service.js';
import { roundHours } from './update-request.js';
import type { NewRowId } from '../../bug/bug-events.js';

/**
 * Comments on Update Bug: the new comment (validated early, written once the workflow has decided whether it is
 * the "duplicate of" comment), work_time on it, privacy flips of existing comments, and the duplicate's target
 * side (its "has duplicate" comment and the reporter on its cc).
 */
@Injectable()
export class CommentSteps {
  constructor(
    @Inject(BUG_COMMENTS) private readonly comments: BugComments,
    private readonly loader: BugLoaderService,
    private readonly visibility: BugVisibilityService,
    private readonly users: UserService,
    private readonly groups: GroupService,
    private readonly bugs: BugStoreService,
  ) {}

  // ---- Comment (validated early, written after the workflow decided its type) ----------------------------

  prepareComment(w: BugWork): { hasComment: boolean; workTime: number } {
    const { run } = w;
    const { comment, workTime } = run.request;
    if (comment?.isPrivate && !run.caller.isInsider) throw TrackerError.of(Errors.USER_NOT_INSIDER);
    const hours = workTime?.hours ?? 0;
    if (hours !== 0) w.allow('work_time', 0, workTime!.asSent);
    return { hasComment: (comment?.body ?? '') !== '' || hours !== 0, workTime: roundHours(hours) };
  }

  async writeComment(w: BugWork, workTime: number): Promise<void> {
    const { run } = w;
    const comment = run.request.comment;
    const text = comment?.body ?? '';
    const isPrivate = comment?.isPrivate ?? false;
    // Marking a duplicate turns this request's comment into the "duplicate of" comment, or adds an empty one.
    const isDupeComment = w.newDupeOf !== undefined;
    if (!isDupeComment && text === '' && workTime === 0) return;
    const newComment = {
      bugId: w.id,
      userId: run.caller.id,
      text,
      isPrivate,
      at: run.at,
      workTime,
      ...(isDupeComment ? { type: CommentType.DUPE_OF, extraData: String(w.newDupeOf) } : {}),
    };
    // Only a webhook may ask for the comment's id: the row goes with the change's other writes (the COMMIT, for a bug
    // in no group) unless one does. The work_time history row names no comment, as Bugzilla's (LogActivityEntry).
    const id: NewRowId = await this.comments.addLater(run.tx, newComment);
    if (workTime !== 0) w.quiet.push({ field: 'work_time', removed: '', added: formatWorkTime(workTime) });
    // The mail shows the comment as Bugzilla renders it, with the duplicate notice after the text.
    const notice = isDupeComment ? `*** This bug has been marked as a duplicate of bug ${w.newDupeOf} ***` : '';
    w.comment = { id, text: [text, notice].filter((part) => part !== '').join('\n\n'), isPrivate };
    w.changed = true;
  }

  // ---- Comment privacy ------------------------------------------------------------------------------------

  async applyCommentPrivacy(w: BugWork): Promise<void> {
    const { run } = w;
    const wanted = run.request.commentIsPrivate;
    if (!wanted?.length) return;
    const ids = wanted.map((c) => (/^\d+$/.test(c.id.trim()) ? Number(c.id) : NaN));
    const current = await this.comments.privacyOf(run.tx, w.id, ids.filter((id) => !Number.isNaN(id)));
    wanted.forEach((c, i) => {
      if (!current.has(ids[i])) throw TrackerError.of(Errors.COMMENT_INVALID_ISPRIVATE, { id: c.id });
    });
    for (const [i, c] of wanted.entries()) {
      const id = ids[i];
      if (current.get(id) === c.isPrivate) continue;
      if (!run.caller.isInsider) throw TrackerError.of(Errors.USER_NOT_INSIDER);
      await this.comments.setPrivacy(run.tx, id, c.isPrivate);
      w.quiet.push({ field: 'longdescs.isprivate', removed: current.get(id) ? '1' : '0', added: c.isPrivate ? '1' : '0', commentId: id });
      current.set(id, c.isPrivate);
      w.changed = true;
    }
  }

  // ---- Duplicates: the target's side ----------------------------------------------------------------------

  /**
   * The other half of marking a duplicate (workflow.md "Duplicates"): a "has duplicate" comment on the target,
   * and the duplicate's reporter on the target's cc when they can see it and are not its reporter.
   */
  async markDuplicateTarget(w: BugWork, targetId: number): Promise<void> {
    const { run, bug } = w;
    const commentId = await this.comments.add(run.tx, {
      bugId: targetId, userId: run.caller.id, text: '', isPrivate: false, at: run.at,
      type: CommentType.HAS_DUPE, extraData: String(w.id),
    });
    run.bumped.add(targetId);
    run.otherComments.set(targetId, { id: commentId, text: `*** Bug ${w.id} has been marked as a duplicate of this bug. ***`, isPrivate: false });
    const [target] = [...(await this.loader.details([targetId], { sql: run.tx })).values()];
    const reporterId = bug.row.reporterId;
    if (!target || target.row.reporterId === reporterId) return;
    if (await this.bugs.isOnCc(run.tx, targetId, reporterId)) return;
    const reporter = await this.users.findById(reporterId, run.tx);
    if (!reporter) return;
    const sees = await this.visibility.visibleIds(await callerAs(this.groups, reporter, run.params, run.tx), [targetId], run.tx);
    if (!sees.has(targetId)) return;
    await this.bugs.addCc(run.tx, targetId, [reporterId]);
    w.other(targetId, 'cc', '', reporter.login);
  }
}
