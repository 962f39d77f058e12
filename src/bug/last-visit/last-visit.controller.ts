import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '../../common/openapi/openapi-decorators.js';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { RequireLogin } from '../../common/guards/access.decorators.js';
import { Ctx, type RequestContext } from '../../common/http/request-context.js';
import { ApiBugIdsQuery } from '../dto/bug-read.dto.js';
import { LastVisitService } from './last-visit.service.js';

/** The path's bug (digits only: anything else matches no 5.0 route, 32614) followed by `ids`. */
function bugsOf(ctx: RequestContext, method: string, bugId: string): string[] {
  if (!/^\d+$/.test(bugId)) throw TrackerError.of(Errors.REST_INVALID_RESOURCE, { method, path: `/rest/bug_user_last_visit/${bugId}` });
  return ctx.params.listWithPath('ids', [bugId]);
}

/** BugUserLastVisit (routes.md): both routes need login (410) and answer a bare array of {id, last_visit_ts}. */
@ApiTags('bugs')
@Controller()
export class LastVisitController {
  constructor(private readonly visits: LastVisitService) {}

  @Get('bug_user_last_visit/:bug_id')
  @RequireLogin()
  @ApiOperation({ summary: 'BugUserLastVisit.get: when the caller last visited the bug (and `ids`); answers [{id, last_visit_ts}], never-visited bugs left out.' })
  @ApiBugIdsQuery()
  get(@Ctx() ctx: RequestContext, @Param('bug_id') bugId: string) {
    return this.visits.get(ctx, bugsOf(ctx, 'GET', bugId));
  }

  @Post('bug_user_last_visit/:bug_id')
  @RequireLogin()
  @ApiOperation({ summary: 'BugUserLastVisit.update: records now as the caller\'s visit of the bug (and `ids`; 1300 when not involved); answers [{id, last_visit_ts}].' })
  @ApiBugIdsQuery()
  update(@Ctx() ctx: RequestContext, @Param('bug_id') bugId: string) {
    return this.visits.update(ctx, bugsOf(ctx, 'POST', bugId));
  }
}
