import { Controller, Get, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery } from '../common/openapi/openapi-decorators.js';
import { InfoService } from './info.service.js';
import { VersionAnswer } from './store/version.answer.js';
import { Ctx, CurrentCaller, Now, Params, type RequestContext } from '../common/http/request-context.js';
import { OpenWithRequireLogin, RequireGroup } from '../common/guards/access.decorators.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import type { Caller } from '../common/caller.js';
import type { RequestParams } from '../common/http/request-params.js';

@Controller()
export class InfoController {
  constructor(private readonly info: InfoService, private readonly versionAnswer: VersionAnswer) {}

  @Get('version')
  @ApiOperation({ summary: 'Bugzilla Version: the version this service answers as (Bugzilla.version); an API key is not read.' })
  @OpenWithRequireLogin({ ignoresApiKey: true })
  version() {
    return this.versionAnswer.body;
  }

  @Get('extensions')
  @ApiOperation({ summary: 'Bugzilla Extensions: the installed extensions (none).' })
  extensions() {
    return { extensions: {} };
  }

  @Get('timezone')
  @ApiOperation({ summary: 'Bugzilla Time Zone: always +0000, times are UTC (Bugzilla.timezone); an API key is not read.' })
  @OpenWithRequireLogin({ ignoresApiKey: true })
  timezone() {
    return { timezone: '+0000' };
  }

  @Get('time')
  @ApiOperation({ summary: 'Bugzilla Time: the current time of the service and of its database, in UTC (Bugzilla.time).' })
  time(@Now() now: Date) {
    return this.info.time(now);
  }

  @Get('parameters')
  @ApiOperation({ summary: 'Bugzilla Parameters: the configuration parameters the caller may see (Bugzilla.parameters).' })
  @OpenWithRequireLogin()
  @SelectableFields({ path: 'parameters', fields: {} })
  parameters(@CurrentCaller() caller: Caller) {
    return { parameters: this.info.visibleParameters(caller) };
  }

  /** Beyond Bugzilla 5.0: tweakparams members change parameters (body: name → value, or {parameters: {…}}). */
  @Put('parameters')
  @ApiOperation({ summary: 'Update Parameters (tweakparams group): name → new value. Beyond Bugzilla 5.0.' })
  @RequireGroup('tweakparams', 'change', 'parameters', { login: true })
  // A free map of parameter names (the set is not stable, service-spec.md): no DTO class can declare it.
  @ApiBody({
    description: 'Parameter name → new value, or {parameters: {name: value}}.',
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  })
  async updateParameters(@Ctx() ctx: RequestContext) {
    const data = ctx.params.data();
    const changes = ctx.params.object('parameters') ?? data;
    return { parameters: await this.info.updateParameters(changes, ctx) };
  }

  @Get('last_audit_time')
  @ApiOperation({ summary: 'Last Audit Time: the time of the latest audit entry, of every class or of the given ones (Bugzilla.last_audit_time).' })
  @ApiQuery({
    name: 'class', required: false, type: String, isArray: true,
    description: 'Audit classes (Bugzilla::Product or Tracker::Product, repeated or comma list); without it every class counts.',
  })
  async lastAuditTime(@Params() params: RequestParams) {
    return { last_audit_time: await this.info.lastAuditTime(params.list('class', { commas: true })) };
  }
}
