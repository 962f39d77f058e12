import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { RouteOption } from '../common/http/route-option.js';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { ATTACHMENT_BODY } from './attachment-body.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { Input, InputReader } from '../common/http/input.decorator.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { AttachmentCreateInput, AttachmentUpdateInput } from './dto/attachment.dto.js';
import { AttachmentViewService } from './attachment-view.service.js';
import { AttachmentService } from './attachment.service.js';

/**
 * include_fields / exclude_fields, applied by AttachmentViewService itself: the attachments sit in arrays inside the
 * `bugs` map, and `data` must be known before anything is read (exclude_fields=data never reads the contents).
 */
const ApiAttachmentFields = () => (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
  ApiQuery({ name: 'include_fields', required: false, type: String, isArray: true, description: 'Only these attachment fields.' })(target, key, descriptor);
  ApiQuery({ name: 'exclude_fields', required: false, type: String, isArray: true, description: 'Leave these out (`data`: the contents are not read).' })(target, key, descriptor);
};

@ApiTags('attachments')
@Controller()
export class AttachmentController {
  constructor(private readonly attachments: AttachmentService, private readonly view: AttachmentViewService) {}

  @Get('bug/attachment/:attachment_id')
  @ApiOperation({ summary: 'Get Attachment by id (plus attachment_ids, ids); answers {bugs, attachments}.' })
  @ApiAttachmentFields()
  byId(@Param('attachment_id') attachmentId: string, @Ctx() ctx: RequestContext) {
    return this.view.get(ctx, ctx.params.list('ids', { commas: true }), ctx.params.listWithPath('attachment_ids', [attachmentId]));
  }

  @Get('bug/:id_or_alias/attachment')
  @ApiOperation({ summary: 'Get the attachments of a bug (plus ids, attachment_ids); answers {bugs, attachments}.' })
  @ApiAttachmentFields()
  ofBug(@Param('id_or_alias') idOrAlias: string, @Ctx() ctx: RequestContext) {
    return this.view.get(ctx, ctx.params.listWithPath('ids', [idOrAlias]), ctx.params.list('attachment_ids', { commas: true }));
  }

  @Post('bug/:id_or_alias/attachment')
  @RouteOption({ [ATTACHMENT_BODY]: true })
  @RequireLogin()
  @ApiOperation({ summary: 'Create Attachment on the bug of the path (a body or query `ids` is overridden); answers {ids}.' })
  @ApiBody({ type: AttachmentCreateInput })
  async create(@Param('id_or_alias') idOrAlias: string, @Input(AttachmentCreateInput, 'Bug.add_attachment') input: AttachmentCreateInput, @Ctx() ctx: RequestContext) {
    // The seed: the bug of the URL overrides the body's ids, as Bugzilla's REST route sets ids to the path's bug.
    return { ids: await this.attachments.create(ctx, [idOrAlias], input) };
  }

  @Put('bug/attachment/:attachment_id')
  @RequireLogin()
  @ApiOperation({ summary: 'Update Attachment (plus ids); answers {attachments: [{id, last_change_time, changes}]}.' })
  @ApiBody({ type: AttachmentUpdateInput })
  update(
    @Param('attachment_id') attachmentId: string,
    @InputReader(AttachmentUpdateInput, 'Bug.update_attachment') readInput: () => AttachmentUpdateInput,
    @Ctx() ctx: RequestContext,
  ) {
    return this.attachments.update(ctx, ctx.params.listWithPath('ids', [attachmentId]), readInput).then((attachments) => ({ attachments }));
  }
}
