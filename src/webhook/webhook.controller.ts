import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { RequireLogin } from '../common/guards/access.decorators.js';
import { Input } from '../common/http/input.decorator.js';
import { WebhookInput } from './dto/webhook.dto.js';
import { WebhookService } from './webhook.service.js';

const BEYOND = 'Beyond Bugzilla 5.0.';

/** Webhooks over REST (beyond Bugzilla 5.0): a user's own; an administrator's view covers everyone's. */
@ApiTags('Webhooks')
@Controller()
export class WebhookController {
  constructor(private readonly webhooks: WebhookService) {}

  @Get('webhook')
  @RequireLogin()
  @ApiOperation({ summary: `The caller's webhooks with their state (all of them for an administrator). ${BEYOND}` })
  async list(@Ctx() ctx: RequestContext) {
    return { webhooks: await this.webhooks.list(ctx.caller) };
  }

  @Get('webhooks/list')
  @RequireLogin()
  @ApiOperation({ summary: `The caller's own webhooks as bugzilla.mozilla.org lists them: {webhooks: [{id, name, url, event, product, component, enabled, errors, creator}]}. Beyond Bugzilla 5.0 (BMO).` })
  async listBmo(@Ctx() ctx: RequestContext) {
    return { webhooks: await this.webhooks.listBmo(ctx.caller) };
  }

  @Post('webhook')
  @RequireLogin()
  @ApiOperation({ summary: `Creates a webhook: name, url, events, optional product/component → {id, secret}; the secret signs every delivery and is shown only here. ${BEYOND}` })
  @ApiBody({ type: WebhookInput })
  async create(@Input(WebhookInput, 'Webhook.create') input: WebhookInput, @Ctx() ctx: RequestContext) {
    return this.webhooks.create(ctx.caller, input, ctx.now);
  }

  @Get('webhook/:id')
  @RequireLogin()
  @ApiOperation({ summary: `One webhook and its state: enabled or disabled and why, last success, last failure, consecutive failures, queue depth. ${BEYOND}` })
  async get(@Param('id') id: string, @Ctx() ctx: RequestContext) {
    return { webhooks: [await this.webhooks.get(ctx.caller, id)] };
  }

  @Put('webhook/:id')
  @RequireLogin()
  @ApiOperation({ summary: `Changes a webhook; enabled: true re-enables a disabled one and drains its backlog in order. ${BEYOND}` })
  @ApiBody({ type: WebhookInput })
  async update(@Param('id') id: string, @Input(WebhookInput, 'Webhook.update') input: WebhookInput, @Ctx() ctx: RequestContext) {
    return { webhooks: [await this.webhooks.update(ctx.caller, id, input)] };
  }

  @Delete('webhook/:id')
  @RequireLogin()
  @ApiOperation({ summary: `Deletes a webhook and its queued deliveries. ${BEYOND}` })
  async remove(@Param('id') id: string, @Ctx() ctx: RequestContext) {
    return this.webhooks.remove(ctx.caller, id);
  }

  @Get('webhook/:id/deliveries')
  @RequireLogin()
  @ApiOperation({ summary: `A webhook's recent deliveries, newest first (limit, 50 by default): state, attempts, the receiver's last status and error. ${BEYOND}` })
  async deliveries(@Param('id') id: string, @Ctx() ctx: RequestContext) {
    return { deliveries: await this.webhooks.deliveries(ctx.caller, id, ctx.params.string('limit')) };
  }
}
