import { Controller, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { Input } from '../common/http/input.decorator.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { ProductValueInput } from './dto/product-value.dto.js';
import { ProductValuesService } from './product-values.service.js';

/** Versions and milestones of a product, beyond Bugzilla 5.0's REST interface. */
@ApiTags('Product')
@Controller()
export class ProductValuesController {
  constructor(private readonly values: ProductValuesService) {}

  @Post('product/:product/version')
  @RequireLogin()
  @ApiOperation({ summary: 'Create a version of a product (name, sort_key, is_active). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ProductValueInput })
  async createVersion(@Param('product') product: string, @Input(ProductValueInput, 'Version.create') input: ProductValueInput, @Ctx() ctx: RequestContext) {
    return { id: await this.values.create('version', product, input, ctx) };
  }

  @Put('product/:product/version/:name')
  @RequireLogin()
  @ApiOperation({ summary: 'Update a version of a product (name, sort_key, is_active). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ProductValueInput })
  async updateVersion(
    @Param('product') product: string,
    @Param('name') name: string,
    @Input(ProductValueInput, 'Version.update') input: ProductValueInput,
    @Ctx() ctx: RequestContext,
  ) {
    return { versions: await this.values.update('version', product, name, input, ctx) };
  }

  @Post('product/:product/milestone')
  @RequireLogin()
  @ApiOperation({ summary: 'Create a milestone of a product (name, sort_key, is_active). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ProductValueInput })
  async createMilestone(@Param('product') product: string, @Input(ProductValueInput, 'Milestone.create') input: ProductValueInput, @Ctx() ctx: RequestContext) {
    return { id: await this.values.create('milestone', product, input, ctx) };
  }

  @Put('product/:product/milestone/:name')
  @RequireLogin()
  @ApiOperation({ summary: 'Update a milestone of a product (name, sort_key, is_active). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ProductValueInput })
  async updateMilestone(
    @Param('product') product: string,
    @Param('name') name: string,
    @Input(ProductValueInput, 'Milestone.update') input: ProductValueInput,
    @Ctx() ctx: RequestContext,
  ) {
    return { milestones: await this.values.update('milestone', product, name, input, ctx) };
  }
}
