import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiQuery, type ApiPropertyOptions } from '../openapi/openapi-decorators.js';
import { plainToInstance, Transform, type ClassConstructor } from 'class-transformer';
import { Allow, IsOptional, getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { Errors, TrackerError } from '../errors/index.js';
import { textLimitError } from '../text-limits.js';
import { toBoolean, type RequestParams } from './request-params.js';
import { keepValidationLookups } from './validation-lookups.js';

// Every request's input is validated here: the rules' lookups are kept (see keepValidationLookups).
keepValidationLookups(getMetadataStorage());

/**
 * Typed request input: a DTO class (class-validator rules + @ApiProperty for the OpenAPI document) filled from the
 * request's merged parameters. Bugzilla clients are lenient in what they send, so the transforms below accept their
 * encodings (booleans as `True`/`1`, a repeated key where one value is meant, one value where a list is meant);
 * unknown keys are dropped (clients.md: ignored, not refused); a value of the wrong type is a coded error.
 */
export function toDto<T extends object>(type: ClassConstructor<T>, params: RequestParams, functionName: string): T {
  const data = params.data();
  const declared = declaredInput(type);
  // Nothing the DTO declares was sent (most reads): the input is the empty one, whose validity is known; it is one
  // frozen instance per class, as nothing may change a request's input.
  if (declared.empty && !declared.names.some((name) => Object.hasOwn(data, name))) return declared.empty as T;
  const instance = plainToInstance(type, data);
  const errors = validateSync(instance, VALIDATION);
  if (errors.length) throw validationError(errors[0], functionName);
  return instance;
}

const VALIDATION = { whitelist: true, forbidUnknownValues: false };

/** Per DTO class: the parameters it declares, and its empty input when that is valid (asked once). */
const DECLARED = new WeakMap<object, { names: readonly string[]; empty?: object }>();

function declaredInput(type: ClassConstructor<object>): { names: readonly string[]; empty?: object } {
  let declared = DECLARED.get(type);
  if (!declared) {
    // Every property has a class-validator decorator (the whitelist drops the others), so this lists them all.
    const metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
    const empty = plainToInstance(type, {});
    declared = {
      names: [...new Set(metadata.map((m) => m.propertyName))],
      ...(validateSync(empty, VALIDATION).length === 0 ? { empty: Object.freeze(empty) } : {}),
    };
    DECLARED.set(type, declared);
  }
  return declared;
}

const NUMERIC_CONSTRAINTS = new Set(['isInt', 'isNumber', 'min', 'max', 'isPositive']);

function validationError(error: ValidationError, functionName: string, path = ''): TrackerError {
  const param = `${path}${error.property}`;
  if (!error.constraints && error.children?.length) return validationError(error.children[0], functionName, `${param}.`);
  const tooLong = textLimitError(error, param);
  if (tooLong) return tooLong;
  const failed = Object.keys(error.constraints ?? {});
  if (failed.some((c) => NUMERIC_CONSTRAINTS.has(c))) return TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param, function: functionName });
  return TrackerError.of(Errors.PARAM_INVALID, { param, function: functionName });
}

/** A Bugzilla boolean: JSON booleans, `1`/`0`, `true`/`false`, `True`/`False`. */
export const BooleanParam = () => Transform(({ value }: { value: unknown }) => (value === undefined || value === null ? value : toBoolean(value)));

/** One value where a client may repeat the key (`?name=a&name=b` → `a`); numbers become strings. */
export const ScalarParam = () =>
  Transform(({ value }: { value: unknown }) => {
    const first: unknown = Array.isArray(value) ? value[0] : value;
    return typeof first === 'number' ? String(first) : first;
  });

/** Text where a client may send a number or a boolean (`"name": 12`); a list or an object is left for @IsString (53). */
export const TextParam = () => Transform(({ value }: { value: unknown }) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value));

/**
 * A list of texts as RequestParams.list reads it: one value or a list (`commas` also splits `a,b`, trimmed, blanks
 * dropped), numbers as their strings. Anything else (an object, a boolean) is left for `@IsString({ each: true })`
 * to refuse (53).
 */
export const TextListParam = (options: { commas?: boolean } = {}) =>
  Transform(({ value }: { value: unknown }) => {
    if (value === undefined || value === null) return value;
    const items = (Array.isArray(value) ? (value as unknown[]) : [value]).map((v) => (typeof v === 'number' ? String(v) : v));
    return options.commas ? items.flatMap((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : [v])) : items;
  });

/**
 * A parameter typed loosely on purpose: the service's rule code checks it and answers with Bugzilla's own codes
 * (a bad sort key is 32000 or 1104, not 52; `group_controls`, `inclusions`, component `names` have shapes of their
 * own). Kept by the whitelist, documented, never refused here.
 */
export const LooseParam = (options: ApiPropertyOptions) => applyDecorators(ApiPropertyOptional(options), IsOptional(), Allow());

const IDS_DESCRIPTION = 'Ids of more objects (repeated or comma list); a numeric path segment joins them.';
const NAMES_DESCRIPTION = 'Names of more objects (repeated); a non-numeric path segment joins them.';

/**
 * `ids` and `names` of a route under the ids-or-names rule (routes.md), for the OpenAPI document. They are read by
 * `ctx.params.idsAndNames(segment)`, the one implementation of the rule (it merges the path segment, 52 on a bad id).
 */
export const ApiIdsAndNamesQuery = (description: { ids?: string; names?: string } = {}) =>
  applyDecorators(
    ApiQuery({ name: 'ids', required: false, type: 'integer', isArray: true, description: description.ids ?? IDS_DESCRIPTION }),
    ApiQuery({ name: 'names', required: false, type: String, isArray: true, description: description.names ?? NAMES_DESCRIPTION }),
  );

/** `ids` and `names` of an update body, documented and kept (read through `ctx.params.idsAndNames`). */
export class IdsAndNamesInput {
  @LooseParam({ type: 'array', items: { type: 'integer' }, description: IDS_DESCRIPTION })
  ids?: unknown;

  @LooseParam({ type: [String], description: NAMES_DESCRIPTION })
  names?: unknown;
}
