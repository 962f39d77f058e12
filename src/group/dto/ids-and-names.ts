import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/**
 * `ids` and `names` naming more objects beside the path's one (routes.md "ids-or-names rule"), for the OpenAPI
 * document of the account routes (groups, users). They are read by `ctx.params.idsAndNames(segment)`, the one
 * implementation of the rule (it merges the path segment and checks the ids, 52).
 */
export const ApiIdsAndNamesQuery = (description: { ids: string; names: string }) =>
  applyDecorators(
    ApiQuery({ name: 'ids', required: false, type: Number, isArray: true, description: description.ids }),
    ApiQuery({ name: 'names', required: false, type: String, isArray: true, description: description.names }),
  );
