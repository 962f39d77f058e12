import { ApiPropertyOptional, IntersectionType } from '../../common/openapi/openapi-decorators.js';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, IdsAndNamesInput } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, freeText } from '../../common/text-limits.js';

/**
 * Create/Update Keyword input. DTOs check types only: presence and domain rules stay in the service, which answers
 * them with Bugzilla's own codes.
 */
export class KeywordInput {
  @ApiPropertyOptional({ description: 'Unique keyword name (64 characters at most); required on create.' })
  @IsOptional() @IsString() @ScalarParam()
  name?: string;

  @ApiPropertyOptional({ description: 'What the keyword means; required on create.' })
  @IsOptional() @IsString() @ScalarParam() @MaxText(freeText(LONG_TEXT_MAX))
  description?: string;

  @ApiPropertyOptional({ description: 'Offered for new changes (default true).' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_active?: boolean;
}

/** Update Keyword input: `ids`/`names` (read by the controller with the path segment) plus the values of create. */
export class KeywordUpdateInput extends IntersectionType(IdsAndNamesInput, KeywordInput) {}
