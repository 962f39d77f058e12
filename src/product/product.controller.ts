import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import type { Caller } from '../common/caller.js';
import type { FieldSelection } from '../common/fields/field-selection.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { RequireGroup } from '../common/guards/access.decorators.js';
import { ApiIdsAndNamesQuery } from '../common/http/dto.js';
import { Input, InputReader } from '../common/http/input.decorator.js';
import { Ctx, CurrentCaller, Params, Selection, type RequestContext } from '../common/http/request-context.js';
import type { RequestParams } from '../common/http/request-params.js';
import { ProductCreateInput, ProductUpdateInput } from './dto/product.dto.js';
import { ProductAdminService } from './product-admin.service.js';
import { PRODUCT_FIELDS, PRODUCT_LIST_TYPES, ProductViewService } from './product-view.service.js';

/** `type` of Get Product, for the OpenAPI document. */
const ApiProductTypeQuery = () => ApiQuery({
  name: 'type', required: false, enum: PRODUCT_LIST_TYPES, isArray: true,
  description: 'Limit to the union of these lists (repeated or comma list); with ids or names it narrows them.',
});

@ApiTags('Product')
@Controller()
export class ProductController {
  constructor(private readonly view: ProductViewService, private readonly admin: ProductAdminService) {}

  @Get('product_accessible')
  @ApiOperation({ summary: 'IDs of the products the caller can search or file bugs in' })
  async accessible(@CurrentCaller() caller: Caller) {
    return { ids: await this.view.listIds('accessible', caller) };
  }

  @Get('product_selectable')
  @ApiOperation({ summary: 'IDs of the products the caller can search (no mandatory group they lack)' })
  async selectable(@CurrentCaller() caller: Caller) {
    return { ids: await this.view.listIds('selectable', caller) };
  }

  @Get('product_enterable')
  @ApiOperation({ summary: 'IDs of the products the caller can file bugs in' })
  async enterable(@CurrentCaller() caller: Caller) {
    return { ids: await this.view.listIds('enterable', caller) };
  }

  @Get('product')
  @ApiOperation({ summary: 'Get Product by ids, names or type (accessible, selectable, enterable)' })
  @SelectableFields({ path: 'products[]', fields: PRODUCT_FIELDS })
  @ApiIdsAndNamesQuery()
  @ApiProductTypeQuery()
  async list(@Params() params: RequestParams, @CurrentCaller() caller: Caller, @Selection() selection: FieldSelection) {
    return { products: await this.view.get(caller, productQuery(params), selection) };
  }

  @Get('product/:id_or_name')
  @ApiOperation({ summary: 'Get Product by id or name (plus ids/names/type of the query)' })
  @SelectableFields({ path: 'products[]', fields: PRODUCT_FIELDS })
  @ApiIdsAndNamesQuery()
  @ApiProductTypeQuery()
  async one(@Param('id_or_name') idOrName: string, @Params() params: RequestParams, @CurrentCaller() caller: Caller, @Selection() selection: FieldSelection) {
    return { products: await this.view.get(caller, productQuery(params, idOrName), selection) };
  }

  @Post('product')
  @RequireGroup('editcomponents', 'add', 'products', { login: true })
  @ApiOperation({ summary: 'Create Product with its first version and milestone (its `group_controls` parameter is beyond Bugzilla 5.0)' })
  @ApiBody({ type: ProductCreateInput })
  async create(@Input(ProductCreateInput, 'Product.create') input: ProductCreateInput, @Ctx() ctx: RequestContext) {
    return { id: await this.admin.create(input, ctx) };
  }

  @Put('product/:id_or_name')
  @RequireGroup('editcomponents', 'edit', 'products', { login: true })
  @ApiOperation({ summary: 'Update Product (its `group_controls` parameter is beyond Bugzilla 5.0)' })
  @ApiBody({ type: ProductUpdateInput })
  async update(
    @Param('id_or_name') idOrName: string,
    @InputReader(ProductUpdateInput, 'Product.update') readInput: () => ProductUpdateInput,
    @Ctx() ctx: RequestContext,
  ) {
    const target = ctx.params.idsAndNames(idOrName);
    return { products: await this.admin.update(target, readInput(), ctx) };
  }
}

/** The ids/names/type of Get Product; a path segment joins ids (digits) or names. Absent lists stay undefined. */
function productQuery(params: RequestParams, segment?: string) {
  const { ids, names } = params.idsAndNames(segment);
  return {
    ids: segment !== undefined || params.has('ids') ? ids : undefined,
    names: segment !== undefined || params.has('names') ? names : undefined,
    types: params.has('type') ? params.list('type', { commas: true }) : undefined,
  };
}
