import { Controller, Param, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { InputReader } from '../common/http/input.decorator.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { BugUpdateService } from './bug-update.service.js';
import { customFieldsOf } from './update/update-request.js';
import { BugUpdateInput } from './dto/bug-update.dto.js';
import { ApiBugIdsQuery } from '../bug/dto/bug-read.dto.js';

@ApiTags('bugs')
@Controller()
export class BugUpdateController {
  constructor(private readonly updates: BugUpdateService) {}

  /**
   * The path names the first bug; `ids` (query or body) may name more, and both are combined (routes.md). The body
   * is read when the service asks for it, after checking the bugs (Bugzilla's order).
   */
  @Put('bug/:id_or_alias')
  @RequireLogin()
  @ApiOperation({ summary: 'Update Bug: change one bug, or several through `ids` (all or nothing); answers {bugs: [{id, alias, last_change_time, changes}]}.' })
  @ApiBugIdsQuery()
  @ApiBody({ type: BugUpdateInput })
  update(
    @Param('id_or_alias') idOrAlias: string,
    @InputReader(BugUpdateInput, 'Bug.update') readInput: () => BugUpdateInput,
    @Ctx() ctx: RequestContext,
  ) {
    const readBody = () => ({ input: readInput(), custom: customFieldsOf(ctx.params.data()) });
    return this.updates.update(ctx, ctx.params.listWithPath('ids', [idOrAlias]), readBody);
  }
}
