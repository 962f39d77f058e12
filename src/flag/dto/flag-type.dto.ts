import { ApiPropertyOptional, IntersectionType, OmitType, type ApiPropertyOptions } from '../../common/openapi/openapi-decorators.js';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, IdsAndNamesInput, LooseParam, TextListParam } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, freeText } from '../../common/text-limits.js';

/** `inclusions` / `exclusions`: product names, or an object mapping a product name to component names. */
const clusions = (description: string): ApiPropertyOptions => ({
  oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }],
  description,
});

/**
 * Create Flag Type input (admin-routes.md "Flag types"). Types only: presence, the name and cc list rules, the sort
 * key and the product/component/group lookups stay in FlagTypeAdminService with Bugzilla's codes (50, 1101–1104,
 * 501, 51, 105, 106).
 */
export class FlagTypeInput {
  @ApiPropertyOptional({ description: 'No spaces or commas, 50 characters at most; required on create.' })
  @IsOptional() @IsString() @ScalarParam()
  name?: string;

  @ApiPropertyOptional({ description: 'What the flag means; required on create.' })
  @IsOptional() @IsString() @ScalarParam() @MaxText(freeText(LONG_TEXT_MAX))
  description?: string;

  @ApiPropertyOptional({ enum: ['bug', 'attachment'], description: 'What the flag is set on (default bug); fixed at creation.' })
  @IsOptional() @IsString() @ScalarParam()
  target_type?: string;

  // Product names, or product name → component names: parseClusionNames checks the shape (53), as before.
  @LooseParam(clusions('Where the type applies: product names, or an object mapping a product to component names (none: every product).'))
  inclusions?: unknown;

  @LooseParam(clusions('Where the type does not apply (same forms as inclusions); exclusions win.'))
  exclusions?: unknown;

  // A natural number up to 32767, checked by the service (flag_type_sortkey_invalid, 1104).
  @LooseParam({ type: 'integer', description: 'Position in lists (0 to 32767; default 1).' })
  sortkey?: unknown;

  @ApiPropertyOptional({ description: 'Offered for new flags (default true).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_active?: boolean;

  @ApiPropertyOptional({ description: 'Flags of this type may be requested (`?`; default true).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_requestable?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'Addresses told of requests (200 characters at most in all).' })
  @IsOptional() @IsArray() @IsString({ each: true }) @TextListParam()
  cc_list?: string[];

  @ApiPropertyOptional({ description: 'A request may name who should answer it (default true; shown as is_requesteeble).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_specifically_requestable?: boolean;

  @ApiPropertyOptional({ description: 'Output name of is_specifically_requestable, accepted as input too.' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_requesteeble?: boolean;

  @ApiPropertyOptional({ description: 'Several flags of this type may be set on one bug or attachment (default true).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_multiplicable?: boolean;

  @ApiPropertyOptional({ description: 'Group whose members may grant (`+`/`-`) the flag; none or blank: everybody.' })
  @IsOptional() @IsString() @ScalarParam()
  grant_group?: string;

  @ApiPropertyOptional({ description: 'Group whose members may request (`?`) the flag; none or blank: everybody.' })
  @IsOptional() @IsString() @ScalarParam()
  request_group?: string;
}

/** Update Flag Type input: `ids`/`names` plus the values of create but the target type. */
export class FlagTypeUpdateInput extends IntersectionType(IdsAndNamesInput, OmitType(FlagTypeInput, ['target_type'] as const)) {}
