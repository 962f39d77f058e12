import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { RequestContext } from '../common/http/request-context.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { ProductService } from '../product/product.service.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { stampsKnownTo, visibilityOfStamps } from '../bug/store/bug-stamps.companion.js';
import { BugLoaderService } from '../bug/store/bug-loader.service.js';
import { BugCommentChangeService } from '../bug-write/bug-comment-change.service.js';
import { normaliseCommentText } from '../bug/bug-comments.js';
import type { CommentCreateInput } from './dto/comment.dto.js';

const FUNCTION = 'Bug.add_comment';

/**
 * Create Comment (Bug.add_comment, `POST /rest/bug/(id_or_alias)/comment`). Errors in Bugzilla 5.0's order: 50 for
 * a missing bug or an empty or whitespace-only comment; 100/101/102 for the bug; 109 when the caller may not edit
 * its product; 113 for a private comment by a caller outside the insider group; 52/54/55 for the hours of a time
 * tracker (others' work_time is ignored, as the seed says); 114 for a text over 65,535 characters. One transaction
 * writes the comment (CommentService, the one writer, through the bug module's BUG_COMMENTS port) and the bug's
 * side (history, remaining_time, last_change_time, bug mail), both by BugCommentChangeService, which locks the bug's
 * row first. As in Bugzilla 5.0, the comment is its own record: no audit_log row.
 */
@Injectable()
export class CommentCreateService {
  constructor(
    private readonly db: Db,
    private readonly visibility: BugVisibilityService,
    private readonly loader: BugLoaderService,
    private readonly products: ProductService,
    private readonly bugChanges: BugCommentChangeService,
  ) {}

  /** The bugs' stamps and visibility are taken from the route's companion read when it brought them with the caller. */
  async create(ctx: Pick<RequestContext, 'caller' | 'now' | 'companion'>, bug: string | undefined, input: CommentCreateInput): Promise<number> {
    const { caller } = ctx;
    const known = stampsKnownTo(ctx);
    if (bug === undefined || bug.trim() === '') throw TrackerError.of(Errors.PARAM_REQUIRED, { function: FUNCTION, param: 'id' });
    if ((input.comment ?? '').trim() === '') throw TrackerError.of(Errors.PARAM_REQUIRED, { function: FUNCTION, param: 'comment' });
    const [bugId] = await this.visibility.resolveVisible(caller, [bug], undefined, visibilityOfStamps(known));
    const detail = (await this.loader.details([bugId], { visibleTo: caller, known })).get(bugId)!;
    if (!(await this.products.catalogueAt(caller.settingsMark).canEdit(caller, detail.row.productId))) {
      throw TrackerError.of(Errors.PRODUCT_EDIT_DENIED, { product: detail.product });
    }
    const isPrivate = input.is_private === true;
    if (isPrivate && !caller.isInsider) throw TrackerError.of(Errors.USER_NOT_INSIDER);
    const workTime = this.bugChanges.workTimeOf(caller, input.work_time);
    const text = normaliseCommentText(input.comment);
    const at = toDbDateTime(ctx.now);

    return this.db.transaction((tx) => this.bugChanges.addComment(tx, caller, { bugId, text, isPrivate, workTime, at }));
  }
}
