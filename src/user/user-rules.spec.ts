import { TrackerError } from '../common/errors/index.js';
import { normalisePassword, parseGroupChange, planGroupChange, validateEmail, validatePassword } from './user-rules.js';

const DEFAULT_EMAIL_REGEXP = "^[\\w\\.\\+\\-=']+@[\\w\\.\\-]+\\.[\\w\\-]+$";

function codeOf(fn: () => void): number | undefined {
  try {
    fn();
  } catch (err) {
    return (err as TrackerError).code;
  }
  return undefined;
}

describe('account rules', () => {
  describe('passwords', () => {
    it('are trimmed of surrounding blanks', () => {
      expect(normalisePassword('  secret 1  ')).toBe('secret 1');
      expect(normalisePassword(undefined)).toBe('');
    });

    it('must be at least 6 characters (502) before any complexity rule', () => {
      expect(codeOf(() => validatePassword('abc12', 'no_constraints'))).toBe(502);
      expect(codeOf(() => validatePassword('Ab1!', 'letters_numbers_specialchars'))).toBe(502);
      expect(codeOf(() => validatePassword('abcdef', 'no_constraints'))).toBeUndefined();
    });

    it('follow password_complexity (305)', () => {
      expect(codeOf(() => validatePassword('abcdef', 'mixed_letters'))).toBe(305);
      expect(codeOf(() => validatePassword('abcDEF', 'mixed_letters'))).toBeUndefined();
      expect(codeOf(() => validatePassword('abcDEF', 'letters_numbers'))).toBe(305);
      expect(codeOf(() => validatePassword('abcDE5', 'letters_numbers'))).toBeUndefined();
      expect(codeOf(() => validatePassword('abcde5', 'letters_numbers_specialchars'))).toBe(305);
      expect(codeOf(() => validatePassword('abcde5!', 'letters_numbers_specialchars'))).toBeUndefined();
    });
  });

  describe('addresses', () => {
    it('must match emailregexp (501)', () => {
      expect(codeOf(() => validateEmail('someone@example.com', DEFAULT_EMAIL_REGEXP, 'desc'))).toBeUndefined();
      expect(codeOf(() => validateEmail('no-at-sign', DEFAULT_EMAIL_REGEXP, 'desc'))).toBe(501);
    });

    it('refuse blanks, non-ASCII and over-long addresses even when the regexp is lax', () => {
      expect(codeOf(() => validateEmail('a b@example.com', '.*', 'desc'))).toBe(501);
      expect(codeOf(() => validateEmail('jörg@example.com', '.*', 'desc'))).toBe(501);
      expect(codeOf(() => validateEmail(`${'a'.repeat(120)}@example.com`, '.*', 'desc'))).toBe(501);
    });
  });

  describe('group change objects', () => {
    it('must be objects whose add/remove/set are lists of plain values (53)', () => {
      expect(codeOf(() => parseGroupChange('groups', ['a']))).toBe(53);
      expect(codeOf(() => parseGroupChange('groups', { add: 'a' }))).toBe(53);
      expect(codeOf(() => parseGroupChange('groups', { add: [{ id: 1 }] }))).toBe(53);
      expect(parseGroupChange('groups', { add: ['a', 2], remove: null })).toEqual({ add: ['a', 2] });
    });

    const all = () => true;

    it('remove first, then add: a group in both ends up added', () => {
      expect(planGroupChange([1, 2], { add: [3, 2], remove: [2, 1] }, all)).toEqual({ added: [3], removed: [1] });
    });

    it('adding a present group or removing an absent one changes nothing', () => {
      expect(planGroupChange([1], { add: [1], remove: [5] }, all)).toEqual({ added: [], removed: [] });
    });

    it('set wins over add/remove and keeps the groups the caller cannot bless', () => {
      const canBless = (id: number) => id !== 9;
      expect(planGroupChange([1, 9, 4], { add: [7], remove: [4], set: [4, 5] }, canBless)).toEqual({ added: [5], removed: [1] });
    });
  });
});
