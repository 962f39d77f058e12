import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsInt, IsOptional, IsString } from 'class-validator';
import { ScalarParam, TextListParam } from '../../common/http/dto.js';
import { IdListParam, IntParam } from './params.js';

/** "any of" a list of texts: repeated keys (select fields keep commas, search.md). */
const AnyOf = (description: string) =>
  applyDecorators(ApiPropertyOptional({ type: [String], description }), IsOptional(), IsArray(), IsString({ each: true }), TextListParam());

/**
 * Search Bugs (`GET /rest/bug`, search.md "Parameters", service-spec "Search Bugs"): the criteria this service
 * supports, each optional, ANDed; a repeated key means "any of". Types only: which criteria are needed (a search
 * without any is 32614 unless search_allow_no_criteria), `offset` without `limit` (50) and date formats (56) are the
 * service's rules. Internal names (`bug_status`, `short_desc` …) are the other spellings Bugzilla accepts.
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
}
