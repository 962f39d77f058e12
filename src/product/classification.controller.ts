import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { RequireGroup } from '../common/guards/access.decorators.js';
import { ApiIdsAndNamesQuery } from '../common/http/dto.js';
import { Input, InputReader } from '../common/http/input.decorator.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { CLASSIFICATION_FIELDS, ClassificationService } from './classification.service.js';
import { ClassificationInput, ClassificationUpdateInput } from './dto/classification.dto.js';

@ApiTags('Classification')
@Controller()
export class ClassificationController {
  constructor(private readonly classifications: ClassificationService) {}

  @Get('classification/:id_or_name')
  @ApiOperation({ summary: 'Get Classification by id or name (needs the useclassification parameter on)' })
  @SelectableFields({ path: 'classifications[]', fields: CLASSIFICATION_FIELDS })
  @ApiIdsAndNamesQuery()
  async get(@Param('id_or_name') idOrName: string, @Ctx() ctx: RequestContext) {
    return { classifications: await this.classifications.get(ctx.caller, ctx.params.idsAndNames(idOrName)) };
  }

  @Post('classification')
  @RequireGroup('editclassifications', 'create', 'classifications', { login: true })
  @ApiOperation({ summary: 'Create Classification. Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ClassificationInput })
  async create(@Input(ClassificationInput, 'Classification.create') input: ClassificationInput, @Ctx() ctx: RequestContext) {
    return { id: await this.classifications.create(input, ctx) };
  }

  @Put('classification/:id_or_name')
  @RequireGroup('editclassifications', 'edit', 'classifications', { login: true })
  @ApiOperation({ summary: 'Update Classification (name, description, sort_key). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ClassificationUpdateInput })
  async update(
    @Param('id_or_name') idOrName: string,
    @InputReader(ClassificationUpdateInput, 'Classification.update') readInput: () => ClassificationUpdateInput,
    @Ctx() ctx: RequestContext,
  ) {
    const target = ctx.params.idsAndNames(idOrName);
    return { classifications: await this.classifications.update(target, readInput(), ctx) };
  }
}
