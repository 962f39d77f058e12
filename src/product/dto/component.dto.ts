import { ApiPropertyOptional, IntersectionType, OmitType } from '../../common/openapi/openapi-decorators.js';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, LooseParam, TextListParam } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, freeText } from '../../common/text-limits.js';

/**
 * Create Component input (admin-routes.md "Components"). Types only: presence, lengths, uniqueness and unknown
 * logins stay in ComponentService with Bugzilla's codes (50, 105, 1200, 1210, 1211, 1213, 51).
 */
export class ComponentCreateInput {
  @ApiPropertyOptional({ description: 'Name of the product (must exist and be administrable by the caller); required.' })
  @IsOptional() @IsString() @ScalarParam()
  product?: string;

  @ApiPropertyOptional({ description: 'Component name (64 characters at most, unique in the product); required.' })
  @IsOptional() @IsString() @ScalarParam()
  name?: string;

  @ApiPropertyOptional({ description: 'Another name for `name`, as python-bugzilla sends it.' })
  @IsOptional() @IsString() @ScalarParam()
  component?: string;

  @ApiPropertyOptional({ description: 'What the component is; required.' })
  @IsOptional() @IsString() @ScalarParam() @MaxText(freeText(LONG_TEXT_MAX))
  description?: string;

  @ApiPropertyOptional({ description: 'Login of the default assignee; required.' })
  @IsOptional() @IsString() @ScalarParam()
  default_assignee?: string;

  @ApiPropertyOptional({ type: [String], description: 'Logins put on the cc list of new bugs (repeated or comma list).' })
  @IsOptional() @IsArray() @IsString({ each: true }) @TextListParam({ commas: true })
  default_cc?: string[];

  @ApiPropertyOptional({ description: 'Login of the default QA contact (blank: none).' })
  @IsOptional() @IsString() @ScalarParam()
  default_qa_contact?: string;

  @ApiPropertyOptional({ description: 'Open for new bugs (default true).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_open?: boolean;

  // Checked by checkValueSortKey (milestone_sortkey_invalid, 32000), as before.
  @LooseParam({ type: 'integer', description: 'Beyond admin-routes.md: position in lists (-32768 to 32767; default 0).' })
  sort_key?: unknown;

  @ApiPropertyOptional({ description: "BMO's triage owner: a login, blank for none (bmo_bug_fields only)." })
  @IsOptional() @IsString() @ScalarParam()
  triage_owner?: string;

  @ApiPropertyOptional({ description: "BMO's type of the component's new bugs: defect, enhancement, task; blank for the installation's (bmo_bug_fields only)." })
  @IsOptional() @IsString() @ScalarParam()
  default_bug_type?: string;
}

/**
 * The components an update or delete names beyond the path: `ids`, and `names` as `{product, component}` objects.
 * Read by the controller (parseComponentNames checks `names`, 53), documented here.
 */
export class ComponentTargetInput {
  @LooseParam({ type: 'array', items: { type: 'integer' }, description: 'Ids of more components (repeated or comma list); unknown ids are skipped.' })
  ids?: unknown;

  @LooseParam({
    type: 'array',
    items: { type: 'object', properties: { product: { type: 'string' }, component: { type: 'string' } } },
    description: 'More components as `{product, component}`; unknown components are skipped, an unknown product is 106.',
  })
  names?: unknown;
}

/** Update Component input (admin-routes.md): the values of create but the product. */
export class ComponentUpdateInput extends IntersectionType(ComponentTargetInput, OmitType(ComponentCreateInput, ['product'] as const)) {}
