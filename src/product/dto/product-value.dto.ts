import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam, LooseParam } from '../../common/http/dto.js';

/** A SMALLINT sort key; checked by checkValueSortKey (milestone_sortkey_invalid, 32000), so typed loosely here. */
const SORT_KEY = { type: 'integer', description: 'Position in lists (-32768 to 32767; default 0).' } as const;

/**
 * Create/Update input of a version or milestone (beyond Bugzilla 5.0; decisions.md "Versions and milestones").
 * Types only: a blank, long or taken name and a bad sort key are the service's (32000 with Bugzilla's names).
 */
export class ProductValueInput {
  @ApiPropertyOptional({ description: 'The version or milestone (64 characters at most); required on create.' })
  @IsOptional() @IsString() @ScalarParam()
  name?: string;

  @LooseParam(SORT_KEY)
  sort_key?: unknown;

  @LooseParam({ ...SORT_KEY, description: 'Alias of sort_key.' })
  sortkey?: unknown;

  @ApiPropertyOptional({ description: 'Offered for new bugs (default true); the default milestone cannot be disabled.' })
  @IsOptional() @IsBoolean() @BooleanParam()
  is_active?: boolean;
}
