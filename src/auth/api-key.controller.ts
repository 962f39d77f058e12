import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { Input, InputReader } from '../common/http/input.decorator.js';
import { AuthService } from './auth.service.js';
import { ApiKeyCreateInput, ApiKeyUpdateInput } from './dto/api-key.dto.js';

/** Beyond Bugzilla 5.0 (where keys are made in the preferences pages): a user's own API keys over REST. */
@ApiTags('API keys')
@Controller()
export class ApiKeyController {
  constructor(private readonly auth: AuthService) {}

  @Get('api_key')
  @RequireLogin()
  @ApiOperation({ summary: "The caller's API keys, without their secrets. Beyond Bugzilla 5.0." })
  async list(@Ctx() ctx: RequestContext) {
    return { api_keys: await this.auth.listApiKeys(ctx.caller.id) };
  }

  @Post('api_key')
  @RequireLogin()
  @ApiOperation({ summary: 'Creates an API key for the caller: description → {id, api_key}; the key is shown only here. Beyond Bugzilla 5.0.' })
  @ApiBody({ type: ApiKeyCreateInput })
  async create(@Input(ApiKeyCreateInput, 'APIKey.create') { description }: ApiKeyCreateInput, @Ctx() ctx: RequestContext) {
    const { id, apiKey } = await this.auth.addApiKey(ctx.caller.id, description, { userId: ctx.caller.id, now: ctx.now });
    return { id, api_key: apiKey };
  }

  @Put('api_key/:id')
  @RequireLogin()
  @ApiOperation({ summary: "Revokes (revoked: true), restores or describes one of the caller's API keys. Beyond Bugzilla 5.0." })
  @ApiBody({ type: ApiKeyUpdateInput })
  async update(
    @Param('id') id: string,
    @InputReader(ApiKeyUpdateInput, 'APIKey.update') readInput: () => ApiKeyUpdateInput,
    @Ctx() ctx: RequestContext,
  ) {
    if (!/^\d+$/.test(id)) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param: 'id' });
    const result = await this.auth.updateApiKey(ctx.caller.id, Number(id), readInput(), ctx.now);
    return { api_keys: [result] };
  }
}
