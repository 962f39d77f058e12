import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsArray, IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, TextListParam } from '../../common/http/dto.js';
import { IdListParam, IntParam } from '../../bug/dto/params.js';

/** "any of" a list of texts: repeated keys (select fields keep commas, search.md). */
const AnyOf = (description: string) =>
  applyDecorators(ApiPropertyOptional({ type: [String], description }), IsOptional(), IsArray(), IsString({ each: true }), TextListParam());

/** A yes/no parameter (`1`, `True`, `true` …). */
const Switch = (description: string) => applyDecorators(ApiPropertyOptional({ type: Boolean, description }), IsOptional(), IsBoolean(), BooleanParam());

/**
 * Search Bugs (`GET /rest/bug`, search.md "Parameters", service-spec "Search Bugs"): the documented criteria, each
 * optional, ANDed; a repeated key means "any of". This class types and documents them; the criteria themselves are
 * read from the request's parameters by the search (search-request.ts), which also takes every internal
 * name (`bug_status`, `short_desc`, `longdesc` …), custom fields by name, `<field>_type` operator overrides, the
 * advanced-search charts (`f1`/`o1`/`v1`, `field0-0-0`), `chfield*`, `deadlinefrom`/`deadlineto` and `email<N>`, and
 * refuses any other parameter (53, stricter than 5.0). `offset` without `limit` (50), date formats (56) and a search
 * without criteria (1000 unless search_allow_no_criteria) are the service's rules.
 */
export class BugSearchInput {
  @ApiPropertyOptional({ type: [Number], description: 'Bug IDs, exact, any of (repeated or comma list: `id=1,2,3`).' })
  @IsOptional() @IsInt({ each: true }) @IdListParam()
  id?: number[];

  @ApiPropertyOptional({ type: [String], description: 'Aliases, exact, any of (repeated or comma list).' })
  @IsOptional() @IsArray() @IsString({ each: true }) @TextListParam({ commas: true })
  alias?: string[];

  @AnyOf('Product names, exact, any of.')
  product?: string[];

  @AnyOf('Component names, exact, any of; same-named components of every product match.')
  component?: string[];

  @AnyOf('Versions, exact, any of.')
  version?: string[];

  @AnyOf('Target milestones, exact, any of; searchable even if the field is disabled.')
  target_milestone?: string[];

  @AnyOf('Priorities, exact, any of.')
  priority?: string[];

  @AnyOf('Severities, exact, any of.')
  severity?: string[];

  @AnyOf('Other name of severity.')
  bug_severity?: string[];

  @AnyOf('Operating systems, exact, any of.')
  op_sys?: string[];

  @AnyOf('Platforms, exact, any of.')
  platform?: string[];

  @AnyOf('Other name of platform.')
  rep_platform?: string[];

  @AnyOf('Statuses, exact, any of (not the resolution); `__open__`, `__closed__`, `__all__` stand for all open / closed / every status.')
  status?: string[];

  @AnyOf('Other name of status.')
  bug_status?: string[];

  @AnyOf('Resolutions, exact, any of; `---` or an empty string finds open bugs.')
  resolution?: string[];

  @AnyOf('Substring of the summary, case-insensitive, not split on spaces; repeated means any of.')
  summary?: string[];

  @AnyOf('Other name of summary.')
  short_desc?: string[];

  @AnyOf('Substring of the whiteboard, like summary.')
  whiteboard?: string[];

  @AnyOf('Other name of whiteboard.')
  status_whiteboard?: string[];

  @AnyOf('Substring of the URL, like summary.')
  url?: string[];

  @AnyOf('Keywords: every listed keyword (split on spaces and commas) must be on the bug.')
  keywords?: string[];

  @AnyOf('Classification names, exact, any of (bugs of the products in them).')
  classification?: string[];

  @AnyOf('CC logins, exact, any of.')
  cc?: string[];

  @AnyOf('Comment text contains any of the words (private comments only for insiders).')
  longdesc?: string[];

  @AnyOf('Other name of tags.')
  tag?: string[];

  @AnyOf('Assignee logins, exact, any of.')
  assigned_to?: string[];

  @AnyOf('Reporter logins, exact, any of.')
  creator?: string[];

  @AnyOf('Other name of creator.')
  reporter?: string[];

  @AnyOf('QA contact logins, exact, any of; searchable even if the field is disabled.')
  qa_contact?: string[];

  @AnyOf('Personal tags of the logged-in caller, any of.')
  tags?: string[];

  @ApiPropertyOptional({ format: 'date-time', description: 'Bugs created at or after this datetime; not an array (56 for a bad date).' })
  @IsOptional() @IsString() @ScalarParam()
  creation_time?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Bugs changed at or after this datetime; not an array (56 for a bad date).' })
  @IsOptional() @IsString() @ScalarParam()
  last_change_time?: string;

  @ApiPropertyOptional({ type: Number, description: 'At most this many bugs; above the max_search_results maximum the maximum is used; 0 returns all (still capped).' })
  @IsOptional() @IsInt() @IntParam()
  limit?: number;

  @ApiPropertyOptional({ type: Number, description: 'Skip this many bugs first; needs limit (50 otherwise).' })
  @IsOptional() @IsInt() @IntParam()
  offset?: number;

  @ApiPropertyOptional({ description: 'Beyond 5.0 (issue 44): the `next` cursor of the previous page of this same search; the page continues after it (keyset, no offset). A cursor altered, malformed or of another search is 10600.' })
  @IsOptional() @IsString() @ScalarParam()
  cursor?: string;

  @ApiPropertyOptional({ description: 'Quicksearch syntax (search.md "Quicksearch subset"); replaces every other criterion.' })
  @IsOptional() @IsString() @ScalarParam()
  quicksearch?: string;

  @ApiPropertyOptional({ description: 'Sort: comma-separated field names, each optionally followed by ASC or DESC; ties (and no order) by ascending bug id.' })
  @IsOptional() @IsString() @ScalarParam()
  order?: string;

  @Switch('Beyond 5.0 (BMO): answer only {"bug_count": N}, the number of visible matching bugs (limit and offset do not apply).')
  count_only?: boolean;

  @Switch('Beyond 5.0: add "total_matches", the number of visible matching bugs before limit/offset, to the answer.')
  total_matches?: boolean;

  @Switch('Accepted and ignored: clients that fetch bugs through search send it (clients.md).')
  permissive?: boolean;
}
