import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { BugService } from './bug.service.js';
import { BugHistoryService } from './bug-history.service.js';
import { BugCreateService } from './bug-create.service.js';
import { BUG_FIELDS } from './bug.fields.js';

@ApiTags('bugs')
@Controller()
export class BugController {
  constructor(
    private readonly bugs: BugService,
    private readonly histories: BugHistoryService,
    private readonly creator: BugCreateService,
  ) {}

  @Get('bug')
  @ApiOperation({ summary: 'Search Bugs (id, alias, select fields, limit/offset); answers {bugs}.' })
  @SelectableFields({ path: 'bugs[]', fields: BUG_FIELDS })
  search(@Ctx() ctx: RequestContext) {
    return this.bugs.searchBugs(ctx, ctx.params);
  }

  @Post('bug')
  @RequireLogin()
  @ApiOperation({ summary: 'Create Bug; answers {id}.' })
  async create(@Ctx() ctx: RequestContext) {
    return { id: await this.creator.create(ctx, ctx.params.data()) };
  }

  @Get('bug/:id_or_alias')
  @ApiOperation({ summary: 'Get Bug by id or alias (plus ids); answers {faults, bugs}.' })
  @SelectableFields({ path: 'bugs[]', fields: BUG_FIELDS })
  get(@Ctx() ctx: RequestContext, @Param('id_or_alias') idOrAlias: string) {
    return this.bugs.get(ctx, ctx.params.listWithPath('ids', [idOrAlias]), !!ctx.params.bool('permissive'));
  }

  @Get('bug/:id_or_alias/history')
  @ApiOperation({ summary: 'Bug history (ids for more, new_since); answers {bugs: [{id, alias, history}]}.' })
  history(@Ctx() ctx: RequestContext, @Param('id_or_alias') idOrAlias: string) {
    return this.histories.history(ctx.caller, ctx.params.listWithPath('ids', [idOrAlias]), ctx.params.string('new_since'));
  }
}
