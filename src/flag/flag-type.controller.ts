import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { Input, InputReader } from '../common/http/input.decorator.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { FlagTypeInput, FlagTypeUpdateInput } from './dto/flag-type.dto.js';
import { FlagTypeAdminService } from './flag-type-admin.service.js';
import { FlagTypeViewService } from './flag-type-view.service.js';

@ApiTags('Flag type')
@Controller()
export class FlagTypeController {
  constructor(private readonly view: FlagTypeViewService, private readonly admin: FlagTypeAdminService) {}

  @Get('flag_type/:product')
  @ApiOperation({ summary: 'Flag types of a product, by target (bug, attachment), with the statuses the caller may set' })
  forProduct(@Param('product') product: string, @Ctx() ctx: RequestContext) {
    return this.view.forProduct(ctx.caller, product);
  }

  @Get('flag_type/:product/:component')
  @ApiOperation({ summary: 'Flag types of a component, by target (bug, attachment), with the statuses the caller may set' })
  forComponent(@Param('product') product: string, @Param('component') component: string, @Ctx() ctx: RequestContext) {
    return this.view.forProduct(ctx.caller, product, component);
  }

  @Post('flag_type')
  @RequireLogin()
  @ApiOperation({ summary: 'Create Flag Type (editcomponents)' })
  @ApiBody({ type: FlagTypeInput })
  async create(@Input(FlagTypeInput, 'FlagType.create') input: FlagTypeInput, @Ctx() ctx: RequestContext) {
    return { id: await this.admin.create(input, ctx) };
  }

  @Put('flag_type/:id_or_name')
  @RequireLogin()
  @ApiOperation({ summary: 'Update Flag Type by id or name, plus ids/names (editcomponents)' })
  @ApiBody({ type: FlagTypeUpdateInput })
  async update(
    @Param('id_or_name') idOrName: string,
    @InputReader(FlagTypeUpdateInput, 'FlagType.update') readInput: () => FlagTypeUpdateInput,
    @Ctx() ctx: RequestContext,
  ) {
    return { flagtypes: await this.admin.update(ctx.params.idsAndNames(idOrName), readInput(), ctx) };
  }
}
