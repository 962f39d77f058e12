import { TrackerError } from '../common/errors/index.js';
import { customFieldName, customFieldType, customFieldValues, parseCustomField } from './custom-field-input.js';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as TrackerError).errorName;
  }
  return undefined;
};

describe('custom field definitions (Bugzilla Field validators)', () => {
  it('names are lower-cased and get cf_ when missing; only letters, digits, underscores; never just cf_', () => {
    expect(customFieldName('Color')).toBe('cf_color');
    expect(customFieldName('cf_Size')).toBe('cf_size');
    expect(codeOf(() => customFieldName(''))).toBe('field_missing_name');
    expect(codeOf(() => customFieldName('a-b'))).toBe('field_invalid_name');
    expect(codeOf(() => customFieldName('cf_'))).toBe('field_invalid_name');
  });

  it('types by number or name, only the kinds an administrator may define', () => {
    expect(['FREETEXT', 'field_type_single_select', 3, '4', 'DATETIME', 'BUG_ID', 'DATE', 'INTEGER'].map(customFieldType)).toEqual([1, 2, 3, 4, 5, 6, 9, 10]);
    for (const bad of [0, 7, 8, 'KEYWORDS', 'CHECKBOX', '']) expect(codeOf(() => customFieldType(bad))).toBe('invalid_customfield_type');
  });

  it('values are trimmed, non-blank, at most 64 characters, unique ignoring case, never the built-in ---', () => {
    expect(customFieldValues([' red ', 'Green'], 'cf_c')).toEqual(['red', 'Green']);
    expect(codeOf(() => customFieldValues(['red', 'RED'], 'cf_c'))).toBe('fieldvalue_already_exists');
    expect(codeOf(() => customFieldValues(['---'], 'cf_c'))).toBe('fieldvalue_already_exists');
    expect(codeOf(() => customFieldValues([''], 'cf_c'))).toBe('fieldvalue_undefined');
    expect(codeOf(() => customFieldValues(['x'.repeat(65)], 'cf_c'))).toBe('fieldvalue_name_too_long');
  });

  it('a whole definition: description required, values only for selects, reverse_desc only for bug ids', () => {
    expect(parseCustomField({ name: 'parent', type: 'BUG_ID', description: ' Parent ', reverse_desc: 'Children', is_on_bug_entry: '1' })).toEqual({
      name: 'cf_parent', type: 6, description: 'Parent', values: [], isMandatory: false, enterBug: true, sortKey: undefined, reverseDesc: 'Children',
    });
    expect(parseCustomField({ name: 'n', type: 1, description: 'd', reverse_desc: 'x', sort_key: '5' })).toMatchObject({ reverseDesc: null, sortKey: 5 });
    expect(codeOf(() => parseCustomField({ name: 'n', type: 1, description: ' ' }))).toBe('field_missing_description');
    expect(codeOf(() => parseCustomField({ name: 'n', type: 1, description: 'd', values: ['a'] }))).toBe('param_invalid');
  });
});
