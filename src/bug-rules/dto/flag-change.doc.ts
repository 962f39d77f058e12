import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';

/**
 * The flag object of Create Bug (updates.md "Flag change object"), for the OpenAPI document only: a DTO keeps `flags`
 * loosely typed and the flag rules check each object with Bugzilla's codes (50 without a status, 51, 129–133).
 */
export class NewFlagDoc {
  @ApiPropertyOptional({ description: 'Flag type name (this or type_id).' })
  name?: string;

  @ApiPropertyOptional({ description: 'Flag type ID (this or name).' })
  type_id?: number;

  @ApiPropertyOptional({ description: 'Required: `?`, `+`, `-` (or `X` to clear a flag on update).' })
  status?: string;

  @ApiPropertyOptional({ description: 'Login asked by a `?` flag, for requestable-to-person types.' })
  requestee?: string;
}

/** The flag change object of Update Bug: also an existing flag by `id`, or `new` to add one beside those set. */
export class FlagChangeDoc extends NewFlagDoc {
  @ApiPropertyOptional({ description: 'An existing flag of the bug (51 if unknown).' })
  id?: number;

  @ApiPropertyOptional({ description: 'Create a new flag even if one of the type is already set.' })
  new?: boolean;
}
