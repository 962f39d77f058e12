/**
 * Values of custom fields on Create and Update Bug (updates.md "custom fields": a multi-select takes an array of
 * strings, other types a scalar — an array's first element). Pure: legal values come from FieldService. The values
 * returned are what `bug_custom_values` stores, one row per value; an empty list means no value (clears the field).
 */
import { Errors, TrackerError } from '../common/errors/index.js';
import { LONG_TEXT_MAX, checkTextLimit, freeText } from '../common/text-limits.js';
import { parseDateInput, toDbDateTime, parseDeadline } from '../common/time/datetime.js';
import { FieldType } from '../field/field-type.js';
import type { CustomFieldRecord, FieldValueRecord } from '../field/field.service.js';
import { scalarText } from './update/update-request.js';

/** Bugzilla's default value of a single-select field: shown when nothing is chosen, never stored. */
export const NO_SELECTION = '---';
const MAX_FREETEXT = 255;

export interface CustomValueContext {
  field: CustomFieldRecord;
  /** Legal values of a select field (single or multi). */
  legal?: readonly FieldValueRecord[];
  /** Values the bug has now, so that keeping an inactive value is allowed (none on create). */
  current: readonly string[];
}

/** The legal value as stored: the exact spelling first, else ignoring case. */
function legalValue(ctx: CustomValueContext, value: string): string {
  const found = ctx.legal?.find((v) => v.value === value) ?? ctx.legal?.find((v) => v.value.toLowerCase() === value.toLowerCase());
  if (!found) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: ctx.field.name, name: value });
  if (!found.isActive && !ctx.current.includes(found.value)) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: ctx.field.name, value: found.value });
  return found.value;
}

/**
 * The new values of one custom field, validated by its type: free text ≤ 255 (104), selects among the legal
 * values (51; `---` is "none"; inactive ones only when kept, else value_inactive), date/time and date (56), integer
 * (52); a bug-ID field is returned as the reference text for the caller to resolve (100/101/102). A mandatory field
 * left empty is required_field.
 */
export function customFieldValues(ctx: CustomValueContext, raw: unknown): string[] {
  const { field } = ctx;
  let values: string[];
  switch (field.type) {
    case FieldType.MULTI_SELECT: {
      const items = Array.isArray(raw) ? raw : raw === null || raw === undefined ? [] : [raw];
      const texts = items.map((item) => scalarText(field.name, item).trim()).filter((v) => v !== '' && v !== NO_SELECTION);
      values = [...new Set(texts.map((v) => legalValue(ctx, v)))];
      break;
    }
    case FieldType.SINGLE_SELECT: {
      const text = scalarText(field.name, raw).trim();
      values = text === '' || text === NO_SELECTION ? [] : [legalValue(ctx, text)];
      break;
    }
    case FieldType.FREETEXT: {
      const text = scalarText(field.name, raw).trim();
      checkTextLimit(text, freeText(MAX_FREETEXT), field.name);
      values = text === '' ? [] : [text];
      break;
    }
    case FieldType.DATETIME: {
      const text = scalarText(field.name, raw).trim();
      values = text === '' ? [] : [toDbDateTime(parseDateInput(text, field.name))];
      break;
    }
    case FieldType.DATE: {
      const date = parseDeadline(scalarText(field.name, raw));
      values = date === null ? [] : [date];
      break;
    }
    case FieldType.INTEGER: {
      const text = scalarText(field.name, raw).trim();
      if (text !== '' && !/^-?\d+$/.test(text)) throw TrackerError.of(Errors.NUMBER_NOT_NUMERIC, { num: text, field: field.name });
      values = text === '' ? [] : [String(Number(text))];
      break;
    }
    default: {
      // Text areas, bug IDs (resolved by the caller) and anything else: the trimmed text, as long as a long text may be.
      const text = scalarText(field.name, raw).trim();
      checkTextLimit(text, freeText(LONG_TEXT_MAX), field.name);
      values = text === '' ? [] : [text];
    }
  }
  if (field.isMandatory && values.length === 0) throw TrackerError.of(Errors.REQUIRED_FIELD, { field: field.name });
  return values;
}
