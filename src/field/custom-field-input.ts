/**
 * The definition of a custom field as an administrator gives it (POST /rest/field/bug, beyond Bugzilla 5.0, and
 * the admin command line), checked as Bugzilla::Field's validators check it. Pure: uniqueness is the service's.
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import { checkTextLimit, columnLength, exceedsLimit, freeText } from '../common/text-limits.js';
import { FieldDefinition } from './entities/field-definition.entity.js';
import { FieldType } from './field-type.js';
import type { CustomFieldInput } from './dto/custom-field.dto.js';

/** The kinds of custom field an administrator may define, by Bugzilla's type name (Get Fields reports the number). */
export const CUSTOM_FIELD_TYPES: Readonly<Record<string, number>> = {
  FREETEXT: FieldType.FREETEXT,
  SINGLE_SELECT: FieldType.SINGLE_SELECT,
  MULTI_SELECT: FieldType.MULTI_SELECT,
  TEXTAREA: FieldType.TEXTAREA,
  DATETIME: FieldType.DATETIME,
  BUG_ID: FieldType.BUG_ID,
  DATE: FieldType.DATE,
  INTEGER: FieldType.INTEGER,
};

export const SELECT_TYPES: ReadonlySet<number> = new Set([FieldType.SINGLE_SELECT, FieldType.MULTI_SELECT]);

/** The value every select field has from its creation: a bug's "nothing chosen" (Bugzilla inserts it too). */
export const EMPTY_SELECT_VALUE = '---';
export const MAX_VALUE_LENGTH = 64;

/**
 * A definition as given: the HTTP DTO (types already checked) or the command line's plain object (nothing checked
 * yet), so every value is read as unknown here.
 */
export type CustomFieldSource = { readonly [K in keyof CustomFieldInput]?: unknown };

export interface CustomFieldDefinition {
  name: string;
  type: number;
  description: string;
  values: string[];
  isMandatory: boolean;
  enterBug: boolean;
  sortKey: number | undefined;
  reverseDesc: string | null;
}

const scalar = (value: unknown, param: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') throw TrackerError.of(Errors.PARAM_INVALID, { param });
  return String(value);
};

const truth = (value: unknown) => {
  const text = String(value ?? '').trim().toLowerCase();
  return !(value === undefined || value === null || value === false || text === '' || text === '0' || text === 'false');
};

/**
 * Bugzilla's Field _check_name for custom fields: lower-cased, letters, digits and underscores, `cf_` prepended
 * when missing, and not just `cf_`.
 */
export function customFieldName(raw: unknown): string {
  const name = (scalar(raw, 'name') ?? '').trim().toLowerCase();
  if (name === '') throw TrackerError.of(Errors.FIELD_MISSING_NAME);
  if (!/^[a-z0-9_]+$/.test(name) || name === 'cf_') throw TrackerError.of(Errors.FIELD_INVALID_NAME, { name });
  const full = name.startsWith('cf_') ? name : `cf_${name}`;
  checkTextLimit(full, { max: columnLength(FieldDefinition, 'name'), error: Errors.FIELD_INVALID_NAME, fact: 'name' }, 'name');
  return full;
}

/** A type by number or by name (`FREETEXT`, `FIELD_TYPE_FREETEXT`, any case). */
export function customFieldType(raw: unknown): number {
  const text = (scalar(raw, 'type') ?? '').trim();
  if (/^\d+$/.test(text) && Object.values(CUSTOM_FIELD_TYPES).includes(Number(text))) return Number(text);
  const byName = CUSTOM_FIELD_TYPES[text.toUpperCase().replace(/^FIELD_TYPE_/, '')];
  if (byName === undefined) throw TrackerError.of(Errors.INVALID_CUSTOMFIELD_TYPE, { type: text });
  return byName;
}

/** The legal values of a new select field: trimmed, non-blank, at most 64 characters, no repeats (any case). */
export function customFieldValues(raw: unknown, field: string): string[] {
  if (raw === undefined || raw === null) return [];
  const items = Array.isArray(raw) ? raw : [raw];
  const seen = new Set([EMPTY_SELECT_VALUE.toLowerCase()]);
  return items.map((item) => {
    const value = (scalar(item, 'values') ?? '').trim();
    if (value === '') throw TrackerError.of(Errors.FIELDVALUE_UNDEFINED);
    if (exceedsLimit(value, MAX_VALUE_LENGTH)) throw TrackerError.of(Errors.FIELDVALUE_NAME_TOO_LONG, { value });
    if (seen.has(value.toLowerCase())) throw TrackerError.of(Errors.FIELDVALUE_ALREADY_EXISTS, { value, field });
    seen.add(value.toLowerCase());
    return value;
  });
}

export function parseCustomField(input: CustomFieldSource): CustomFieldDefinition {
  const name = customFieldName(input.name);
  const description = (scalar(input.description, 'description') ?? '').trim();
  if (description === '') throw TrackerError.of(Errors.FIELD_MISSING_DESCRIPTION);
  checkTextLimit(description, freeText(columnLength(FieldDefinition, 'description')), 'description');
  const type = customFieldType(input.type);
  if (input.values !== undefined && input.values !== null && !SELECT_TYPES.has(type)) {
    throw TrackerError.of(Errors.PARAM_INVALID, { param: 'values', function: 'Field.create' });
  }
  const sortKeyText = scalar(input.sort_key, 'sort_key');
  if (sortKeyText !== undefined && !/^-?\d+$/.test(sortKeyText.trim())) {
    throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { param: 'sort_key', function: 'Field.create' });
  }
  const reverseDesc = scalar(input.reverse_desc, 'reverse_desc')?.trim() || null;
  checkTextLimit(reverseDesc, freeText(columnLength(FieldDefinition, 'reverseDesc')), 'reverse_desc');
  return {
    name,
    type,
    description,
    values: customFieldValues(input.values, name),
    isMandatory: truth(input.is_mandatory),
    enterBug: truth(input.is_on_bug_entry),
    sortKey: sortKeyText === undefined ? undefined : Number(sortKeyText),
    reverseDesc: type === FieldType.BUG_ID ? reverseDesc : null,
  };
}
