import { ApiPropertyOptional } from '../../common/openapi/openapi-decorators.js';

/**
 * The object shapes of the Update Bug body (updates.md "Update Bug: body objects"), for the OpenAPI document only:
 * the DTO takes these keys as sent, and the update-object rules read them with Bugzilla's codes and leniencies
 * (a plain string or a list is `set` for alias; `set` wins over add/remove …).
 */
export class AddRemoveDoc {
  @ApiPropertyOptional({ type: [String], description: 'Values to add.' })
  add?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Values to remove; one that is not there is ignored.' })
  remove?: string[];
}

export class AddRemoveSetDoc extends AddRemoveDoc {
  @ApiPropertyOptional({ type: [String], description: 'The whole new list; wins over add and remove.' })
  set?: string[];
}

export class CommentDoc {
  @ApiPropertyOptional({ description: 'The comment text (`comment` is accepted as a synonym); empty adds nothing.' })
  body?: string;

  @ApiPropertyOptional({ description: 'Make the comment private (insiders only, 113).' })
  is_private?: boolean;
}
