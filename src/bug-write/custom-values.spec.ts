import { customFieldValues } from './custom-values.js';
import { FieldType } from '../field/field-type.js';
import type { CustomFieldRecord, FieldValueRecord } from '../field/field.service.js';
import { caughtError } from '../common/errors/testing.js';

const field = (type: number, extra: Partial<CustomFieldRecord> = {}): CustomFieldRecord => ({
  id: 1, name: 'cf_x', description: 'X', type, isMandatory: false, enterBug: true, sortKey: 0, ...extra,
});
const legal: FieldValueRecord[] = [
  { id: 1, value: '---', sortKey: 0, isActive: true, isOpen: null },
  { id: 2, value: 'Red', sortKey: 100, isActive: true, isOpen: null },
  { id: 3, value: 'Old', sortKey: 200, isActive: false, isOpen: null },
];
const errorOf = (fn: () => unknown) => {
  const err = caughtError(fn);
  return [err.code, err.errorName];
};

describe('customFieldValues', () => {
  it('single select: the legal spelling; --- or empty is "none"; unknown 51; inactive only when kept', () => {
    expect(customFieldValues({ field: field(FieldType.SINGLE_SELECT), legal, current: [] }, 'red')).toEqual(['Red']);
    expect(customFieldValues({ field: field(FieldType.SINGLE_SELECT), legal, current: ['Red'] }, '---')).toEqual([]);
    expect(errorOf(() => customFieldValues({ field: field(FieldType.SINGLE_SELECT), legal, current: [] }, 'Blue'))).toEqual([51, 'object_does_not_exist']);
    expect(errorOf(() => customFieldValues({ field: field(FieldType.SINGLE_SELECT), legal, current: [] }, 'Old'))).toEqual([32000, 'value_inactive']);
    expect(customFieldValues({ field: field(FieldType.SINGLE_SELECT), legal, current: ['Old'] }, 'Old')).toEqual(['Old']);
  });

  it('the exact spelling wins over one that differs only in case', () => {
    const cased = [...legal, { id: 4, value: 'red', sortKey: 300, isActive: true, isOpen: null }];
    expect(customFieldValues({ field: field(FieldType.SINGLE_SELECT), legal: cased, current: [] }, 'red')).toEqual(['red']);
    expect(customFieldValues({ field: field(FieldType.SINGLE_SELECT), legal: cased, current: [] }, 'RED')).toEqual(['Red']);
  });

  it('multi select: --- and blanks are "none"; an object is 53 naming the field', () => {
    expect(customFieldValues({ field: field(FieldType.MULTI_SELECT), legal, current: [] }, ['---', ' ', 'Red'])).toEqual(['Red']);
    expect(errorOf(() => customFieldValues({ field: field(FieldType.MULTI_SELECT), legal, current: [] }, [{ a: 1 }]))).toEqual([53, 'param_invalid']);
  });

  it('multi select: an array (or one value), repeats dropped', () => {
    expect(customFieldValues({ field: field(FieldType.MULTI_SELECT), legal, current: [] }, ['Red', 'red'])).toEqual(['Red']);
    expect(customFieldValues({ field: field(FieldType.MULTI_SELECT), legal, current: [] }, 'Red')).toEqual(['Red']);
    expect(customFieldValues({ field: field(FieldType.MULTI_SELECT), legal, current: ['Red'] }, [])).toEqual([]);
  });

  it('free text ≤ 255 (104), integer (52), date (56), date/time stored as UTC text', () => {
    expect(errorOf(() => customFieldValues({ field: field(FieldType.FREETEXT), current: [] }, 'x'.repeat(256)))).toEqual([104, 'freetext_too_long']);
    expect(customFieldValues({ field: field(FieldType.INTEGER), current: [] }, ' 042 ')).toEqual(['42']);
    expect(errorOf(() => customFieldValues({ field: field(FieldType.INTEGER), current: [] }, '4.2'))).toEqual([52, 'number_not_numeric']);
    expect(customFieldValues({ field: field(FieldType.DATE), current: [] }, '2030-1-2')).toEqual(['2030-01-02']);
    expect(errorOf(() => customFieldValues({ field: field(FieldType.DATE), current: [] }, 'tomorrow'))).toEqual([56, 'illegal_date']);
    expect(customFieldValues({ field: field(FieldType.DATETIME), current: [] }, '2030-01-02T03:04:05+01:00')).toEqual(['2030-01-02 02:04:05']);
  });

  it('a mandatory field cannot be emptied — required_field', () => {
    expect(errorOf(() => customFieldValues({ field: field(FieldType.FREETEXT, { isMandatory: true }), current: ['x'] }, ''))).toEqual([32000, 'required_field']);
  });
});
