import { Controller, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { Input } from '../common/http/input.decorator.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { BugCreateService } from './bug-create.service.js';
import { BugCreateInput } from './dto/bug-create.dto.js';

@ApiTags('bugs')
@Controller()
export class BugCreateController {
  constructor(private readonly creator: BugCreateService) {}

  @Post('bug')
  @RequireLogin()
  @ApiOperation({ summary: 'Create Bug; answers {id}.' })
  @ApiBody({ type: BugCreateInput })
  async create(@Input(BugCreateInput, 'Bug.create') input: BugCreateInput, @Ctx() ctx: RequestContext) {
    // The data as sent goes along: the service checks its keys and reads the custom fields (cf_*) from it.
    return { id: await this.creator.create(ctx, input, ctx.params.data()) };
  }
}
