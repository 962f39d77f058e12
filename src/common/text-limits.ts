import { ValidateBy, type ValidationError } from 'class-validator';
import { getMetadataArgsStorage } from 'typeorm';
import { Errors, TrackerError, type ErrorDefinition } from './errors/index.js';

/**
 * Length limits of stored texts (issue 12, defect 4). Without them SQLite stores any length while MariaDB refuses
 * the row with a 500, so the limit is checked before anything is written, the same way on both databases, and
 * going over it is the field's coded error. The limits and errors chosen are listed in docs/decisions.md.
 */

/** How long a text is as Bugzilla counts it (Perl's `length` of a decoded string) and a utf8mb4 column holds it: code points. */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Whether `text` has more than `max` code points; a UTF-16 unit count settles most cases without a walk. */
export function exceedsLimit(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  return textLength(text) > max;
}

/**
 * A limit and the error that reports going over it. The error gets the facts `field`, `length` and `max`, and the
 * text itself under `fact` for messages that quote it (`name`, `value`, `url`...).
 */
export interface TextLimit {
  readonly max: number;
  readonly error: ErrorDefinition;
  readonly fact?: string;
}

/**
 * Long texts (descriptions, bug URL and whiteboard, reasons) are MEDIUMTEXT on MariaDB; Tracker caps them at
 * Bugzilla's comment limit, far below the column and the request body limits.
 */
export const LONG_TEXT_MAX = 65_535;

/** A free text with no error of its own in Bugzilla 5.0: freetext_too_long (104). */
export const freeText = (max: number): TextLimit => ({ max, error: Errors.FREETEXT_TOO_LONG });

/** The declared length of an entity's varchar column (`StringColumn(n)`), so a limit is never a second copy of it. */
export function columnLength(entity: abstract new (...args: never[]) => unknown, property: string): number {
  const column = getMetadataArgsStorage().columns.find((c) => c.target === entity && c.propertyName === property);
  const length = Number(column?.options.length);
  if (!length) throw new Error(`${entity.name}.${property} is not a column with a declared length`);
  return length;
}

function overLimit(text: string, limit: TextLimit, field: string): TrackerError {
  return TrackerError.of(limit.error, { field, length: textLength(text), max: limit.max, ...(limit.fact ? { [limit.fact]: text } : {}) });
}

/** Throws the limit's error when `text` is longer than the limit; anything that is not a text is left alone. */
export function checkTextLimit(text: unknown, limit: TextLimit, field: string): void {
  if (typeof text === 'string' && exceedsLimit(text, limit.max)) throw overLimit(text, limit, field);
}

const TEXT_LIMIT = 'textLimit';

/**
 * DTO rule: the text (or, with `each`, every text of a list) is within the limit. toDto turns a failure into the
 * limit's own error through `textLimitError`, not into the generic 53.
 */
export const MaxText = (limit: TextLimit, options: { each?: boolean } = {}) =>
  ValidateBy(
    {
      name: TEXT_LIMIT,
      constraints: [limit.max],
      validator: { validate: (value: unknown) => typeof value !== 'string' || !exceedsLimit(value, limit.max) },
    },
    // class-validator maps the context only onto a failure with a message, so the message must not be empty.
    { each: options.each, context: limit, message: `$property is longer than ${limit.max} characters` },
  );

/** The coded error of a failed MaxText rule, if that is what failed. */
export function textLimitError(error: ValidationError, field: string): TrackerError | undefined {
  const limit = error.contexts?.[TEXT_LIMIT] as TextLimit | undefined;
  if (!limit || !error.constraints?.[TEXT_LIMIT]) return undefined;
  const values: unknown[] = Array.isArray(error.value) ? error.value : [error.value];
  const text = values.find((v): v is string => typeof v === 'string' && exceedsLimit(v, limit.max));
  return text === undefined ? undefined : overLimit(text, limit, field);
}
