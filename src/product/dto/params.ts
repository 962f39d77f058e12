/**
 * DTO helpers shared by the catalogue modules (product, field, flag): a text-list transform, loosely typed parameters
 * (checked by the rule code) and the ids/names parameters of the ids-or-names rule, documented once.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiQuery, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsOptional } from 'class-validator';

/**
 * A list of texts as RequestParams.list reads it: one value or a list (`commas` also splits `a,b`, trimmed, blanks
 * dropped), numbers as their strings. Anything else (an object, a boolean) is left for `@IsString({ each: true })`
 * to refuse (53).
 */
export const TextListParam = (options: { commas?: boolean } = {}) =>
  Transform(({ value }) => {
    if (value === undefined || value === null) return value;
    const items = (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'number' ? String(v) : v));
    return options.commas ? items.flatMap((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : [v])) : items;
  });

/**
 * A parameter typed loosely on purpose: the service's rule code checks it and answers with Bugzilla's own codes
 * (a bad sort key is 32000 or 1104, not 52; `group_controls`, `inclusions` and component `names` have shapes of
 * their own). Kept by the whitelist, documented, never refused here.
 */
export const LooseParam = (options: ApiPropertyOptions) => applyDecorators(ApiPropertyOptional(options), IsOptional(), Allow());

const IDS_DESCRIPTION = 'Ids of more objects (repeated or comma list); a numeric path segment joins them.';
const NAMES_DESCRIPTION = 'Names of more objects (repeated); a non-numeric path segment joins them.';

/** `ids` and `names` of a GET route under the ids-or-names rule (routes.md), for the OpenAPI document. */
export const ApiIdsAndNamesQuery = () =>
  applyDecorators(
    ApiQuery({ name: 'ids', required: false, type: 'integer', isArray: true, description: IDS_DESCRIPTION }),
    ApiQuery({ name: 'names', required: false, type: String, isArray: true, description: NAMES_DESCRIPTION }),
  );

/**
 * `ids` and `names` of an update body (routes.md: "body/query ids array and names array"). Documented and kept here,
 * but read by the controller through `ctx.params.idsAndNames(segment)`, the one implementation of the ids-or-names
 * rule (it merges the path segment and checks the ids, 52).
 */
export class IdsAndNamesInput {
  @LooseParam({ type: 'array', items: { type: 'integer' }, description: IDS_DESCRIPTION })
  ids?: unknown;

  @LooseParam({ type: [String], description: NAMES_DESCRIPTION })
  names?: unknown;
}
