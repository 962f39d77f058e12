import { isIdInRange, MAX_INT } from './ids.js';

describe('isIdInRange', () => {
  it('takes every id an int column holds, leading zeros included', () => {
    for (const digits of ['0', '1', '999999999', '1000000000', String(MAX_INT), '000000000002147483647']) expect(isIdInRange(digits)).toBe(true);
  });

  it('refuses numbers past the column, however they are written', () => {
    for (const digits of [String(MAX_INT + 1), '9999999999', '9223372036854775808', '000000000002147483648']) expect(isIdInRange(digits)).toBe(false);
  });
});
