import { ApiPropertyOptional, IntersectionType } from '../../common/openapi/openapi-decorators.js';
import { IsOptional, IsString } from 'class-validator';
import { ScalarParam, IdsAndNamesInput, LooseParam } from '../../common/http/dto.js';
import { LONG_TEXT_MAX, MaxText, freeText } from '../../common/text-limits.js';

/** A sort key 0–32767, checked by the service (classification_invalid_sortkey, 32000), so typed loosely here. */
const SORT_KEY = { type: 'integer', description: 'Position in lists (0 to 32767; default 0).' } as const;

/**
 * Create Classification input (beyond Bugzilla 5.0, decisions.md "Classifications"). Types only: a blank, long or
 * taken name is the service's (32000 with Bugzilla's names).
 */
export class ClassificationInput {
  @ApiPropertyOptional({ description: 'Classification name (unique, 64 characters at most); required on create.' })
  @IsOptional() @IsString() @ScalarParam()
  name?: string;

  @ApiPropertyOptional({ description: 'What the classification groups.' })
  @IsOptional() @IsString() @ScalarParam() @MaxText(freeText(LONG_TEXT_MAX))
  description?: string;

  @LooseParam(SORT_KEY)
  sort_key?: unknown;

  @LooseParam({ ...SORT_KEY, description: 'Alias of sort_key.' })
  sortkey?: unknown;
}

/** Update Classification input: `ids`/`names` plus the values of create. */
export class ClassificationUpdateInput extends IntersectionType(IdsAndNamesInput, ClassificationInput) {}
