import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { Input } from '../common/http/input.decorator.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { BUG_FIELDS } from '../bug/bug.fields.js';
import { BugSearchService } from './bug-search.service.js';
import { BugSearchInput } from './dto/bug-search.dto.js';

@ApiTags('bugs')
@Controller()
export class BugSearchController {
  constructor(private readonly searches: BugSearchService) {}

  @Get('bug')
  @ApiOperation({
    summary: 'Search Bugs: every criterion of search.md, charts, quicksearch, order, limit/offset; answers {bugs} '
      + '(plus total_matches with total_matches=1), or {bug_count} with count_only=1. An unknown parameter is 53.',
  })
  @ApiQuery({ type: BugSearchInput })
  @SelectableFields({ path: 'bugs[]', fields: BUG_FIELDS })
  search(@Input(BugSearchInput, 'Bug.search') input: BugSearchInput, @Ctx() ctx: RequestContext) {
    return this.searches.answer(ctx, input, ctx.params.all());
  }
}
