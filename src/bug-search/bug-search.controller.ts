import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiOperation, ApiQuery, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { Input } from '../common/http/input.decorator.js';
import { isCredentialKey } from '../common/http/request-params.js';
import { SelectableFields } from '../common/fields/field-selection.decorator.js';
import { BUG_FIELDS } from '../bug/bug.fields.js';
import { BugSearchService } from './bug-search.service.js';
import { BugSearchInput } from './dto/bug-search.dto.js';

/** The request's URL for the next page: its own parameters (credentials left out), `offset` dropped, `cursor` set. */
export function nextPageUrl(url: string, cursor: string): string {
  const next = new URL(url, 'http://host');
  for (const key of [...next.searchParams.keys()]) if (isCredentialKey(key) || key === 'offset') next.searchParams.delete(key);
  next.searchParams.set('cursor', cursor);
  return `${next.pathname}${next.search}`;
}

@ApiTags('bugs')
@Controller()
export class BugSearchController {
  constructor(private readonly searches: BugSearchService) {}

  @Get('bug')
  @ApiOperation({
    summary: 'Search Bugs: every criterion of search.md, charts, quicksearch, order, limit/offset; answers {bugs} '
      + '(plus total_matches with total_matches=1), or {bug_count} with count_only=1. An unknown parameter is 53. Beyond 5.0 (issue 44): '
      + 'a paged answer with more bugs gives `next` (and Link rel="next"), passed back as `cursor`; truncated: true (and X-Search-Truncated) when max_search_results cut it.',
  })
  @ApiQuery({ type: BugSearchInput })
  @SelectableFields({ path: 'bugs[]', fields: BUG_FIELDS })
  async search(
    @Input(BugSearchInput, 'Bug.search') input: BugSearchInput,
    @Ctx() ctx: RequestContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { answer, next, truncated } = await this.searches.answer(ctx, input, ctx.params.all());
    if (next !== undefined) void reply.header('Link', `<${nextPageUrl(request.url, next)}>; rel="next"`);
    if (truncated) void reply.header('X-Search-Truncated', 'max_search_results');
    return answer;
  }

  // A static path: Fastify takes it before `bug/:id_or_alias`, so a bug aliased `possible_duplicates` is not reached by it.
  @Get('bug/possible_duplicates')
  @ApiOperation({
    summary: 'Possible Duplicates: the bugs whose summaries share most words with `summary` or bug `id`\'s (product, limit up to 25); '
      + 'answers {bugs} as Get Bug, include_fields as Get Bug. Beyond Bugzilla 5.0 (BMO).',
  })
  @ApiQuery({ name: 'id', required: false, type: 'integer', description: 'A bug whose summary is searched for (that bug is left out).' })
  @ApiQuery({ name: 'summary', required: false, type: String, description: 'A summary to search for, when no id is given.' })
  @ApiQuery({ name: 'product', required: false, type: String, isArray: true, description: 'Only bugs of these products (each one the caller may file bugs in).' })
  @ApiQuery({ name: 'limit', required: false, type: 'integer', description: 'At most this many bugs; unset, 0 or over 25: 25.' })
  @SelectableFields({ path: 'bugs[]', fields: BUG_FIELDS })
  possibleDuplicates(@Ctx() ctx: RequestContext) {
    return this.searches.possibleDuplicates(ctx, ctx.params);
  }
}
