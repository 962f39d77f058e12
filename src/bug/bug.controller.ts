import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { Input } from '../common/http/input.decorator.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { BugService } from './bug.service.js';
import { BugStampsCompanion } from './bug-stamps.companion.js';
import { companionValue, WithCompanionRead } from '../common/http/companion-read.js';
import { BugVisibilityCompanion } from './bug-visibility.companion.js';
import { AnswersFromKept } from '../common/http/kept-answer.js';
import { PresumesCaller } from '../common/http/presumed-caller.js';
import { BugHistoryService } from './bug-history.service.js';
import { BugCreateService } from './bug-create.service.js';
import { BugGetAnswer } from './bug-get.answer.js';
import { BUG_FIELDS } from './bug.fields.js';
import { BugSearchInput } from './dto/bug-search.dto.js';
import { BugCreateInput } from './dto/bug-create.dto.js';
import { ApiBugIdsQuery, BugGetInput, BugHistoryInput } from './dto/bug-read.dto.js';

@ApiTags('bugs')
@Controller()
export class BugController {
  constructor(
    private readonly bugs: BugService,
    private readonly histories: BugHistoryService,
    private readonly creator: BugCreateService,
    private readonly getAnswer: BugGetAnswer,
  ) {}

  @Get('bug')
  @ApiOperation({
    summary: 'Search Bugs: every criterion of search.md, charts, quicksearch, order, limit/offset; answers {bugs} '
      + '(plus total_matches with total_matches=1), or {bug_count} with count_only=1. An unknown parameter is 53.',
  })
  @ApiQuery({ type: BugSearchInput })
  @SelectableFields({ path: 'bugs[]', fields: BUG_FIELDS })
  search(@Input(BugSearchInput, 'Bug.search') input: BugSearchInput, @Ctx() ctx: RequestContext) {
    return this.bugs.searchBugs(ctx, input, ctx.params.all());
  }

  @Post('bug')
  @RequireLogin()
  @PresumesCaller()
  @ApiOperation({ summary: 'Create Bug; answers {id}.' })
  @ApiBody({ type: BugCreateInput })
  async create(@Input(BugCreateInput, 'Bug.create') input: BugCreateInput, @Ctx() ctx: RequestContext) {
    // The data as sent goes along: the service checks its keys and reads the custom fields (cf_*) from it.
    return { id: await this.creator.create(ctx, input, ctx.params.data()) };
  }

  @Get('bug/:id_or_alias')
  @WithCompanionRead(BugStampsCompanion)
  @AnswersFromKept(BugGetAnswer)
  @ApiOperation({ summary: 'Get Bug by id or alias (plus ids); answers {faults, bugs}.' })
  @ApiBugIdsQuery()
  @ApiQuery({ type: BugGetInput })
  @SelectableFields({ path: 'bugs[]', fields: BUG_FIELDS })
  get(@Ctx() ctx: RequestContext, @Param('id_or_alias') idOrAlias: string, @Input(BugGetInput, 'Bug.get') input: BugGetInput) {
    return this.getAnswer.respond(ctx, idOrAlias, input);
  }

  @Get('bug/:id_or_alias/history')
  @WithCompanionRead(BugVisibilityCompanion)
  @ApiOperation({ summary: 'Bug history (ids for more, new_since); answers {bugs: [{id, alias, history}]}.' })
  @ApiBugIdsQuery()
  @ApiQuery({ type: BugHistoryInput })
  history(@Ctx() ctx: RequestContext, @Param('id_or_alias') idOrAlias: string, @Input(BugHistoryInput, 'Bug.history') input: BugHistoryInput) {
    return this.histories.history(ctx.caller, ctx.params.listWithPath('ids', [idOrAlias]), input.new_since, companionValue(ctx.companion, BugVisibilityCompanion));
  }
}
