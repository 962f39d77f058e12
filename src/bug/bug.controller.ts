import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { Input } from '../common/http/input.decorator.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { BugHistoryService } from './bug-history.service.js';
import { BugGetAnswer } from './store/bug-get.answer.js';
import { BUG_FIELDS } from './bug.fields.js';
import { ApiBugIdsQuery, BugGetInput, BugHistoryInput } from './dto/bug-read.dto.js';

@ApiTags('bugs')
@Controller()
export class BugController {
  constructor(
    private readonly histories: BugHistoryService,
    private readonly getAnswer: BugGetAnswer,
  ) {}

  @Get('bug/:id_or_alias')
  @ApiOperation({ summary: 'Get Bug by id or alias (plus ids); answers {faults, bugs}.' })
  @ApiBugIdsQuery()
  @ApiQuery({ type: BugGetInput })
  @SelectableFields({ path: 'bugs[]', fields: BUG_FIELDS })
  get(@Ctx() ctx: RequestContext, @Param('id_or_alias') idOrAlias: string, @Input(BugGetInput, 'Bug.get') input: BugGetInput) {
    return this.getAnswer.respond(ctx, idOrAlias, input);
  }

  @Get('bug/:id_or_alias/history')
  @ApiOperation({ summary: 'Bug history (ids for more, new_since); answers {bugs: [{id, alias, history}]}.' })
  @ApiBugIdsQuery()
  @ApiQuery({ type: BugHistoryInput })
  history(@Ctx() ctx: RequestContext, @Param('id_or_alias') idOrAlias: string, @Input(BugHistoryInput, 'Bug.history') input: BugHistoryInput) {
    return this.histories.history(ctx, ctx.params.listWithPath('ids', [idOrAlias]), input.new_since);
  }
}
