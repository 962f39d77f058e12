import { Injectable } from '@nestjs/common';
import type { CompanionRequest } from '../../common/http/companion-read.js';
import { toDto } from '../../common/http/dto.js';
import type { KeptAnswer } from '../../common/http/kept-answer.js';
import type { RawJson } from '../../common/http/raw-json.js';
import type { RequestContext } from '../../common/http/request-context.js';
import { stampsKnownTo } from '../../bug/store/bug-stamps.companion.js';
import { CommentViewService } from '../comment-view.service.js';
import { CommentGetInput } from '../dto/comment.dto.js';

/**
 * Get Comments of the bugs a path names (`GET /rest/bug/(id_or_alias)/comment`), as its route's handler and as the
 * request hook's KeptAnswer once the bugs' stamps came with the caller's credential: one implementation for both
 * ways in, so they cannot answer apart.
 */
@Injectable()
export class CommentsAnswer implements KeptAnswer {
  constructor(private readonly views: CommentViewService) {}

  respond(context: RequestContext, idOrAlias: string, input: CommentGetInput): Promise<RawJson> {
    return this.views.comments(context.caller, {
      bugs: context.params.listWithPath('ids', [idOrAlias]),
      commentIds: context.params.list('comment_ids', { commas: true }),
      newSince: input.new_since,
      knownBugs: stampsKnownTo(context),
    }, context.selection);
  }

  answer(context: RequestContext, request: CompanionRequest): Promise<RawJson> {
    return this.respond(context, request.path.id_or_alias, toDto(CommentGetInput, request.params, 'Bug.comments'));
  }
}
