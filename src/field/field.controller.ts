import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { RequireGroup } from '../common/guards/access.decorators.js';
import { ApiIdsAndNamesQuery } from '../common/http/dto.js';
import { Input } from '../common/http/input.decorator.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { CustomFieldInput } from './dto/custom-field.dto.js';
import { FieldService } from './field.service.js';
import { FIELD_FIELDS, FieldViewService } from './field-view.service.js';

/** `product_id` of Legal Values, for the OpenAPI document. */
const ApiProductIdQuery = (description: string) => ApiQuery({ name: 'product_id', required: false, type: 'integer', description });

@ApiTags('Field')
@Controller()
export class FieldController {
  constructor(private readonly view: FieldViewService, private readonly fields: FieldService) {}

  @Get('field/bug')
  @ApiOperation({ summary: 'Get Fields: every non-obsolete bug field (or those named by ids/names) with its values' })
  @SelectableFields({ path: 'fields[]', fields: FIELD_FIELDS })
  @ApiIdsAndNamesQuery()
  async all(@Ctx() ctx: RequestContext) {
    return { fields: await this.view.getFields(ctx.caller, ctx.params.idsAndNames()) };
  }

  @Get('field/bug/:id_or_name')
  @ApiOperation({ summary: 'Get Fields for one field by id or internal name' })
  @SelectableFields({ path: 'fields[]', fields: FIELD_FIELDS })
  @ApiIdsAndNamesQuery()
  async one(@Param('id_or_name') idOrName: string, @Ctx() ctx: RequestContext) {
    return { fields: await this.view.getFields(ctx.caller, ctx.params.idsAndNames(idOrName)) };
  }

  @Get('field/bug/:field/values')
  @ApiOperation({ summary: 'Legal Values of a select field' })
  @ApiProductIdQuery('The product whose values to list; required for version, target_milestone and component.')
  async values(@Param('field') field: string, @Ctx() ctx: RequestContext) {
    return { values: await this.view.legalValues(ctx.caller, field, ctx.params.int('product_id')) };
  }

  @Get('field/bug/:field/:product_id/values')
  @ApiOperation({ summary: 'Legal Values of a product-specific field (version, target_milestone, component)' })
  @ApiProductIdQuery('Used when the path segment is not a number.')
  async productValues(@Param('field') field: string, @Param('product_id') productId: string, @Ctx() ctx: RequestContext) {
    const id = /^\d+$/.test(productId) ? Number(productId) : undefined;
    return { values: await this.view.legalValues(ctx.caller, field, id ?? ctx.params.int('product_id')) };
  }

  @Post('field/bug')
  @RequireGroup('admin', 'add', 'custom fields', { login: true })
  @ApiOperation({ summary: 'Create a custom field (name cf_…, type, description, values for selects). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: CustomFieldInput })
  async create(@Input(CustomFieldInput, 'Field.create') input: CustomFieldInput, @Ctx() ctx: RequestContext) {
    return { id: await this.fields.createCustomField(input, { userId: ctx.caller.id, now: ctx.now }) };
  }
}
