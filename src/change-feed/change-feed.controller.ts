import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { ChangeFeedService, DEFAULT_PAGE, MAX_PAGE } from './change-feed.service.js';

/** The change feed over REST (beyond Bugzilla 5.0, issue 44); not under /rest/bug/, where any word may be an alias. */
@ApiTags('bugs')
@Controller()
export class ChangeFeedController {
  constructor(private readonly feed: ChangeFeedService) {}

  @Get('changes')
  @ApiOperation({
    summary: 'Change feed: the bugs changed since the cursor `since`, in commit order, as {changes: [{id, kinds} or {id, gone: true}], '
      + 'cursor, more}; without `since`, the cursor of now. Seen as Get Bug sees them; a bug that left the caller\'s view is gone. '
      + 'An unchanged poll with If-None-Match is 304. Beyond Bugzilla 5.0.',
  })
  @ApiQuery({ name: 'since', required: false, type: String, description: 'The cursor a previous answer gave; unset: start from now.' })
  @ApiQuery({ name: 'limit', required: false, type: 'integer', description: `At most this many changes (${DEFAULT_PAGE} by default, ${MAX_PAGE} at most).` })
  changes(@Ctx() ctx: RequestContext) {
    return this.feed.read(ctx.caller, ctx.params.string('since'), ctx.params.int('limit'), ctx.now);
  }
}
