import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { RequireGroup } from '../common/guards/access.decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { KeywordService } from './keyword.service.js';
import { KeywordInput, KeywordUpdateInput } from './dto/keyword.dto.js';
import { ApiIdsAndNamesQuery } from '../common/http/dto.js';
import { Input, InputReader } from '../common/http/input.decorator.js';

@ApiTags('Keyword')
@Controller()
export class KeywordController {
  constructor(private readonly keywords: KeywordService) {}

  @Get('keyword')
  @ApiOperation({ summary: 'List keywords (all, or by ids/names) with description, is_active and bug_count. Beyond Bugzilla 5.0.' })
  @SelectableFields({ path: 'keywords[]', fields: {} })
  @ApiIdsAndNamesQuery()
  async list(@Ctx() ctx: RequestContext) {
    return { keywords: await this.keywords.list(ctx.params.idsAndNames()) };
  }

  @Post('keyword')
  @RequireGroup('editkeywords', 'add', 'keywords', { login: true })
  @ApiOperation({ summary: 'Create Keyword (name, description, is_active). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: KeywordInput })
  async create(@Input(KeywordInput, 'Keyword.create') input: KeywordInput, @Ctx() ctx: RequestContext) {
    return { id: await this.keywords.create(input, ctx) };
  }

  @Put('keyword/:id_or_name')
  @RequireGroup('editkeywords', 'edit', 'keywords', { login: true })
  @ApiOperation({ summary: 'Update Keyword (name, description, is_active); a keyword in use stays on its bugs. Beyond Bugzilla 5.0.' })
  @ApiBody({ type: KeywordUpdateInput })
  async update(
    @Param('id_or_name') idOrName: string,
    @InputReader(KeywordUpdateInput, 'Keyword.update') readInput: () => KeywordUpdateInput,
    @Ctx() ctx: RequestContext,
  ) {
    return { keywords: await this.keywords.update(ctx.params.idsAndNames(idOrName), readInput(), ctx) };
  }
}
