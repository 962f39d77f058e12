import { ApiPropertyOptional, IntersectionType, OmitType } from '../../common/openapi/openapi-decorators.js';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, IdsAndNamesInput, LooseParam } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, freeText } from '../../common/text-limits.js';

/**
 * Create Product input (service-spec.md "Products"; `group_controls` is beyond Bugzilla 5.0). Types only: presence,
 * lengths and uniqueness stay in ProductAdminService with Bugzilla's codes (700–705).
 */
export class ProductCreateInput {
  @ApiPropertyOptional({ description: 'Product name (unique, 64 characters at most); required.' })
  @IsOptional() @IsString() @ScalarParam()
  name?: string;

  @ApiPropertyOptional({ description: 'What the product is; required.' })
  @IsOptional() @IsString() @ScalarParam() @MaxText(freeText(LONG_TEXT_MAX))
  description?: string;

  @ApiPropertyOptional({ description: 'The default (first) version; required.' })
  @IsOptional() @IsString() @ScalarParam()
  version?: string;

  @ApiPropertyOptional({ description: 'Whether bugs may be filed as UNCONFIRMED (default true).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  has_unconfirmed?: boolean;

  @ApiPropertyOptional({ description: 'Classification name; required (and must exist) while useclassification is on, ignored otherwise.' })
  @IsOptional() @IsString() @ScalarParam()
  classification?: string;

  @ApiPropertyOptional({ description: "The default milestone (default '---')." })
  @IsOptional() @IsString() @ScalarParam()
  default_milestone?: string;

  @ApiPropertyOptional({ description: 'Open for new bugs (default true).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_open?: boolean;

  @ApiPropertyOptional({ description: 'Accepted and ignored (Tracker has no charts).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  create_series?: boolean;

  // Checked by parseGroupControls (53 for a non-list, 50 for a missing group, 32000 for a bad value), as before.
  @LooseParam({
    type: 'array',
    items: { type: 'object' },
    description: 'Beyond Bugzilla 5.0: `[{group, membercontrol, othercontrol, entry, canedit, editcomponents, editbugs, canconfirm}]`, '
      + 'controls by name (na, shown, default, mandatory) or 0–3; on update, merged per group.',
  })
  group_controls?: unknown;
}

/**
 * Update Product input (updates.md "Update Product"): `ids`/`names` plus the values; the version is Create's only
 * (versions have their own routes) and so is the classification.
 */
export class ProductUpdateInput extends IntersectionType(
  IdsAndNamesInput,
  OmitType(ProductCreateInput, ['version', 'classification', 'create_series'] as const),
) {}
