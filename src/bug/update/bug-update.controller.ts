import { Controller, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, type RequestContext } from '../../common/http/request-context.js';
import { RequireLogin } from '../../common/guards/access.decorators.js';
import { BugUpdateService } from './bug-update.service.js';

@ApiTags('bugs')
@Controller()
export class BugUpdateController {
  constructor(private readonly updates: BugUpdateService) {}

  /** The path names the first bug; `ids` (query or body) may name more, and both are combined (routes.md). */
  @Put('bug/:id_or_alias')
  @RequireLogin()
  @ApiOperation({ summary: 'Update Bug: change one bug, or several through `ids` (all or nothing); answers {bugs: [{id, alias, last_change_time, changes}]}.' })
  update(@Param('id_or_alias') idOrAlias: string, @Ctx() ctx: RequestContext) {
    return this.updates.update(ctx, ctx.params.listWithPath('ids', [idOrAlias]));
  }
}
