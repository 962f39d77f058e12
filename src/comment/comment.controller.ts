import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { Input } from '../common/http/input.decorator.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { ApiBugIdsQuery } from '../bug/dto/bug-read.dto.js';
import { CommentViewService } from './comment-view.service.js';
import { CommentCreateService } from './comment-create.service.js';
import { CommentTagService } from './comment-tag.service.js';
import { CommentCreateInput, CommentGetInput, CommentTagSearchInput, CommentTagUpdateInput } from './dto/comment.dto.js';
import { COMMENT_OBJECTS } from './comment.presenter.js';
import { CommentsAnswer } from './store/comment-get.answer.js';

@ApiTags('comments')
@Controller()
export class CommentController {
  constructor(
    private readonly views: CommentViewService,
    private readonly commentsAnswer: CommentsAnswer,
    private readonly creator: CommentCreateService,
    private readonly tags: CommentTagService,
  ) {}

  @Get('bug/:id_or_alias/comment')
  @ApiOperation({ summary: 'Get Comments of bugs (the path\'s, plus ids and comment_ids; new_since); answers {bugs: {ID: {comments}}, comments: {ID: …}}.' })
  @ApiBugIdsQuery()
  @ApiQuery({ name: 'comment_ids', required: false, type: 'integer', isArray: true, description: 'Comments by id, returned whatever new_since says.' })
  @ApiQuery({ type: CommentGetInput })
  @SelectableFields(...COMMENT_OBJECTS)
  ofBugs(@Ctx() ctx: RequestContext, @Param('id_or_alias') idOrAlias: string, @Input(CommentGetInput, 'Bug.comments') input: CommentGetInput) {
    return this.commentsAnswer.respond(ctx, idOrAlias, input);
  }

  @Get('bug/comment/:comment_id')
  @ApiOperation({ summary: 'Get Comments by comment id (plus comment_ids and ids); answers {bugs, comments: {ID: …}}.' })
  @ApiBugIdsQuery()
  @ApiQuery({ type: CommentGetInput })
  @SelectableFields(...COMMENT_OBJECTS)
  byId(@Ctx() ctx: RequestContext, @Param('comment_id') commentId: string, @Input(CommentGetInput, 'Bug.comments') input: CommentGetInput) {
    return this.views.comments(ctx.caller, {
      bugs: ctx.params.list('ids', { commas: true }),
      commentIds: ctx.params.listWithPath('comment_ids', [commentId]),
      newSince: input.new_since,
    }, ctx.selection);
  }

  /** The path names the bug; an `id` of the body or query is overridden (as Create Attachment's `ids`, the seed). */
  @Post('bug/:id_or_alias/comment')
  @RequireLogin()
  @ApiOperation({ summary: 'Create Comment (Bug.add_comment): answers {id} with status 200, as every create here (Bugzilla 5.0 answers 201).' })
  @ApiBody({ type: CommentCreateInput })
  async create(@Ctx() ctx: RequestContext, @Param('id_or_alias') idOrAlias: string, @Input(CommentCreateInput, 'Bug.add_comment') input: CommentCreateInput) {
    return { id: await this.creator.create(ctx, idOrAlias, input) };
  }

  @Get('bug/comment/tags/:query')
  @RequireLogin()
  @ApiOperation({ summary: 'Search Comment Tags: tags containing the query (limit, default 10); answers a bare array of strings.' })
  @ApiQuery({ type: CommentTagSearchInput })
  searchTags(@Ctx() ctx: RequestContext, @Param('query') query: string, @Input(CommentTagSearchInput, 'Bug.search_comment_tags') input: CommentTagSearchInput) {
    return this.tags.search(ctx.caller, query, input.limit);
  }

  @Put('bug/comment/:comment_id/tags')
  @RequireLogin()
  @ApiOperation({ summary: 'Update Comment Tags (add, remove); answers the comment\'s tags after the change, a bare sorted array.' })
  @ApiBody({ type: CommentTagUpdateInput })
  updateTags(@Ctx() ctx: RequestContext, @Param('comment_id') commentId: string, @Input(CommentTagUpdateInput, 'Bug.update_comment_tags') input: CommentTagUpdateInput) {
    return this.tags.update(ctx.caller, commentId, input);
  }
}

