import { ApiPropertyOptional, ApiQuery } from '../../common/openapi/openapi-decorators.js';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, ScalarParam } from '../../common/http/dto.js';

/**
 * `ids` beside the path's bug (routes.md: both are combined). Documented here; read by the controllers through
 * `ctx.params.listWithPath('ids', [idOrAlias])`, RequestParams' one reading of a path joined with a list.
 */
export const ApiBugIdsQuery = () =>
  ApiQuery({ name: 'ids', required: false, type: String, isArray: true, description: 'More bugs, by ID or alias (repeated or comma list), after the path\'s one.' });

/** Get Bug (`GET /rest/bug/(id_or_alias)`). */
export class BugGetInput {
  @ApiPropertyOptional({ description: 'Report each bug that cannot be returned in `faults` instead of failing the call (updates.md "Get Bug faults").' })
  @IsOptional() @IsBoolean() @BooleanParam()
  permissive?: boolean;
}

/** Bug history (`GET /rest/bug/(id_or_alias)/history`). */
export class BugHistoryInput {
  @ApiPropertyOptional({ format: 'date-time', description: 'Only changes strictly after this datetime (56 for a bad date).' })
  @IsOptional() @IsString() @ScalarParam()
  new_since?: string;
}
