import { Controller, Delete, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { Input, InputReader } from '../common/http/input.decorator.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RequestParams } from '../common/http/request-params.js';
import { ComponentService, parseComponentNames, type ComponentTarget } from './component.service.js';
import { ComponentCreateInput, ComponentTargetInput, ComponentUpdateInput } from './dto/component.dto.js';

/** The path names one component (by id, or product + component); body/query `ids` and `names` add more. */
function target(params: RequestParams, path: { id?: string; product?: string; component?: string }, method: string): ComponentTarget {
  const ids = params.intList('ids');
  const names = parseComponentNames(params.raw('names'));
  if (path.id !== undefined) {
    // Only digits name a component by id; anything else matches no route of Bugzilla (32614).
    if (!/^\d+$/.test(path.id)) throw TrackerError.of(Errors.REST_INVALID_RESOURCE, { method, path: `/rest/component/${path.id}` });
    ids.unshift(Number(path.id));
  }
  if (path.product !== undefined && path.component !== undefined) names.unshift({ product: path.product, component: path.component });
  return { ids: [...new Set(ids)], names };
}

/**
 * The values of an update: python-bugzilla sends them inside an `updates` object (as BMO takes them), Bugzilla
 * clients at the top level; both are read, the top level winning. Read after the target, as Bugzilla does.
 */
const UpdateInputReader = () =>
  InputReader(ComponentUpdateInput, 'Component.update', {
    from: (params) => RequestParams.merge(params.data(), params.object('updates') ?? {}),
  });

@ApiTags('Component')
@Controller()
export class ComponentController {
  constructor(private readonly components: ComponentService) {}

  @Post('component')
  @RequireLogin()
  @ApiOperation({ summary: 'Create Component (editcomponents, globally or for the product)' })
  @ApiBody({ type: ComponentCreateInput })
  async create(@Input(ComponentCreateInput, 'Component.create') input: ComponentCreateInput, @Ctx() ctx: RequestContext) {
    return { id: await this.components.create(input, ctx) };
  }

  @Put('component/:id')
  @RequireLogin()
  @ApiOperation({ summary: 'Update Component by id (used by python-bugzilla). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ComponentUpdateInput })
  async updateById(@Param('id') id: string, @UpdateInputReader() readInput: () => ComponentUpdateInput, @Ctx() ctx: RequestContext) {
    return { components: await this.components.update(target(ctx.params, { id }, 'PUT'), readInput(), ctx) };
  }

  @Put('component/:product/:component')
  @RequireLogin()
  @ApiOperation({ summary: 'Update Component by product and name (used by python-bugzilla). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ComponentUpdateInput })
  async updateByName(
    @Param('product') product: string,
    @Param('component') component: string,
    @UpdateInputReader() readInput: () => ComponentUpdateInput,
    @Ctx() ctx: RequestContext,
  ) {
    const named = target(ctx.params, { product, component }, 'PUT');
    return { components: await this.components.update(named, readInput(), ctx) };
  }

  @Delete('component/:id')
  @RequireLogin()
  @ApiOperation({ summary: 'Delete Component by id; refused while it has bugs (1202). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ComponentTargetInput, required: false })
  async deleteById(@Param('id') id: string, @Ctx() ctx: RequestContext) {
    return { components: await this.components.delete(target(ctx.params, { id }, 'DELETE'), ctx) };
  }

  @Delete('component/:product/:component')
  @RequireLogin()
  @ApiOperation({ summary: 'Delete Component by product and name; refused while it has bugs (1202). Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ComponentTargetInput, required: false })
  async deleteByName(@Param('product') product: string, @Param('component') component: string, @Ctx() ctx: RequestContext) {
    return { components: await this.components.delete(target(ctx.params, { product, component }, 'DELETE'), ctx) };
  }
}
