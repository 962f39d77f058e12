import { plainToInstance, Transform, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { Errors, TrackerError } from '../errors/index.js';
import { toBoolean, type RequestParams } from './request-params.js';

/**
 * Typed request input: a DTO class (class-validator rules + @ApiProperty for the OpenAPI document) filled from the
 * request's merged parameters. Bugzilla clients are lenient in what they send, so the transforms below accept their
 * encodings (booleans as `True`/`1`, a repeated key where one value is meant, one value where a list is meant);
 * unknown keys are dropped (clients.md: ignored, not refused); a value of the wrong type is a coded error.
 */
export function toDto<T extends object>(type: ClassConstructor<T>, params: RequestParams, functionName: string): T {
  const instance = plainToInstance(type, params.data());
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: false });
  if (errors.length) throw validationError(errors[0], functionName);
  return instance;
}

const NUMERIC_CONSTRAINTS = new Set(['isInt', 'isNumber', 'min', 'max', 'isPositive']);

function validationError(error: ValidationError, functionName: string, path = ''): TrackerError {
  const param = `${path}${error.property}`;
  if (!error.constraints && error.children?.length) return validationError(error.children[0], functionName, `${param}.`);
  const failed = Object.keys(error.constraints ?? {});
  if (failed.some((c) => NUMERIC_CONSTRAINTS.has(c))) return TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param, function: functionName });
  return TrackerError.of(Errors.PARAM_INVALID, { param, function: functionName });
}

/** A Bugzilla boolean: JSON booleans, `1`/`0`, `true`/`false`, `True`/`False`. */
export const BooleanParam = () => Transform(({ value }) => (value === undefined || value === null ? value : toBoolean(value)));

/** One value where a client may repeat the key (`?name=a&name=b` → `a`); numbers become strings. */
export const ScalarParam = () =>
  Transform(({ value }) => {
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'number' ? String(first) : first;
  });

/** A list where a client may send one value or a comma list (`ids=1,2` or `ids=1&ids=2` or `[1, 2]`). */
export const ListParam = (options: { commas?: boolean } = {}) =>
  Transform(({ value }) => {
    if (value === undefined || value === null) return value;
    const items = Array.isArray(value) ? value : [value];
    return options.commas ? items.flatMap((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : [v])) : items;
  });
