import { caughtError } from '../common/errors/testing.js';
import { MAX_ALIAS_LENGTH, validateAlias, validateAliases } from './alias.js';


describe('validateAlias — defaults.md "alias length: 40 characters; not all digits; no comma or space"', () => {
  it('accepts and trims a normal alias', () => {
    expect(validateAlias('  crash-on-start ')).toBe('crash-on-start');
    expect(validateAlias('a1')).toBe('a1');
  });

  it('accepts exactly 40 characters, counting characters rather than UTF-16 units', () => {
    expect(validateAlias('a'.repeat(MAX_ALIAS_LENGTH))).toBe('a'.repeat(40));
    expect(validateAlias('😀'.repeat(40))).toBe('😀'.repeat(40));
  });

  it('refuses 41 characters with 103 alias_too_long', () => {
    const e = caughtError(() => validateAlias('a'.repeat(41)));
    expect(e.code).toBe(103);
    expect(e.errorName).toBe('alias_too_long');
    expect(e.httpStatus).toBe(400);
  });

  it('refuses an all-digit alias with 103 alias_is_numeric (it would read as a bug ID)', () => {
    const e = caughtError(() => validateAlias('12345'));
    expect(e.code).toBe(103);
    expect(e.errorName).toBe('alias_is_numeric');
    expect(caughtError(() => validateAlias(42)).errorName).toBe('alias_is_numeric');
  });

  it.each(['a,b', 'a b', 'a\tb'])('refuses %p with 103 alias_has_comma_or_space', (alias) => {
    const e = caughtError(() => validateAlias(alias));
    expect(e.code).toBe(103);
    expect(e.errorName).toBe('alias_has_comma_or_space');
  });

  it('returns null for empty, blank, null and undefined (Bugzilla skips empty aliases)', () => {
    expect(validateAlias('')).toBeNull();
    expect(validateAlias('   ')).toBeNull();
    expect(validateAlias(null)).toBeNull();
    expect(validateAlias(undefined)).toBeNull();
  });

  it('refuses non-scalar values with 103', () => {
    expect(caughtError(() => validateAlias({})).code).toBe(103);
  });
});

describe('validateAliases', () => {
  it('drops empty values and case-insensitive repeats, keeping the first spelling', () => {
    expect(validateAliases(['Foo', '', 'bar', 'foo', null])).toEqual(['Foo', 'bar']);
  });

  it('fails on the first invalid alias', () => {
    expect(caughtError(() => validateAliases(['ok', '123'])).errorName).toBe('alias_is_numeric');
  });
});
