/**
 * Pure rules of accounts (defaults.md "Limits and constants", errors.md 305/501/502, updates.md "Update User"):
 * address syntax, password strength, and how a `groups` / `bless_groups` object changes direct memberships.
 */
import { Errors, TrackerError } from '../common/errors/index.js';

export const PASSWORD_MIN_LENGTH = 6;
/** Bugzilla's validate_email_syntax also caps the address length. */
export const EMAIL_MAX_LENGTH = 127;

/** What each `password_complexity` value demands, with the words of its error message. */
const COMPLEXITY: Readonly<Record<string, { tests: RegExp[]; rule: string }>> = {
  no_constraints: { tests: [], rule: '' },
  mixed_letters: { tests: [/\p{Ll}/u, /\p{Lu}/u], rule: 'at least one uppercase and one lowercase letter' },
  letters_numbers: { tests: [/\p{Ll}/u, /\p{Lu}/u, /\d/], rule: 'at least one uppercase letter, one lowercase letter and one digit' },
  letters_numbers_specialchars: {
    tests: [/\p{L}/u, /\d/, /[!-/:-@[-`{-~]/],
    rule: 'at least one letter, one digit and one special character',
  },
};

/** Passwords are trimmed of surrounding blanks before use (seed, Create User). */
export function normalisePassword(password: string | undefined): string {
  return (password ?? '').trim();
}

/** Length first (502), then the complexity the installation asks for (305). */
export function validatePassword(password: string, complexity: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw TrackerError.of(Errors.PASSWORD_TOO_SHORT);
  const rule = COMPLEXITY[complexity] ?? COMPLEXITY.no_constraints;
  if (!rule.tests.every((test) => test.test(password))) throw TrackerError.of(Errors.PASSWORD_NOT_COMPLEX, { rule: rule.rule });
}

/**
 * An address must match the `emailregexp` parameter, be plain ASCII without blanks or the characters Bugzilla
 * refuses, and be at most 127 characters; otherwise 501 with the site's description of legal addresses.
 */
export function validateEmail(address: string, emailRegexp: string, description: string): void {
  let pattern: RegExp | undefined;
  try {
    pattern = new RegExp(emailRegexp);
  } catch {
    pattern = undefined;
  }
  const legal =
    address.length <= EMAIL_MAX_LENGTH &&
    (pattern ? pattern.test(address) : true) &&
    !/[\\()<>&,;:"[\]\s]/.test(address) &&
    !/[^\x21-\x7e]/.test(address);
  if (!legal) throw TrackerError.of(Errors.ILLEGAL_EMAIL_ADDRESS, { addr: address, desc: description });
}

/** A `groups` / `bless_groups` value of Update User, checked for shape: each of add, remove, set a list (53). */
export interface GroupChangeRequest {
  add?: unknown[];
  remove?: unknown[];
  set?: unknown[];
}

export function parseGroupChange(key: string, value: unknown): GroupChangeRequest {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw TrackerError.of(Errors.PARAM_INVALID, { param: key, function: 'User.update' });
  }
  const request: GroupChangeRequest = {};
  for (const action of ['add', 'remove', 'set'] as const) {
    const list = (value as Record<string, unknown>)[action];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list) || list.some((item) => item === null || typeof item === 'object')) {
      throw TrackerError.of(Errors.PARAM_INVALID, { param: `${key}.${action}`, function: 'User.update' });
    }
    request[action] = list;
  }
  return request;
}

/**
 * The new direct memberships after a change (updates.md): with `set`, exactly the set plus the current groups the
 * caller may not bless; otherwise removals first, then additions (a group in both ends up added). Every group
 * named must be blessable by the caller (checked by the service before). Results keep the request's order.
 */
export function planGroupChange(current: readonly number[], change: { add: number[]; remove: number[]; set?: number[] }, canBless: (groupId: number) => boolean): { added: number[]; removed: number[] } {
  const before = new Set(current);
  let after: Set<number>;
  let removalOrder: number[];
  if (change.set) {
    after = new Set([...change.set, ...current.filter((id) => !canBless(id))]);
    removalOrder = [...current];
  } else {
    after = new Set(current);
    for (const id of change.remove) after.delete(id);
    for (const id of change.add) after.add(id);
    removalOrder = change.remove;
  }
  const additionOrder = change.set ?? change.add;
  return {
    added: [...new Set(additionOrder)].filter((id) => after.has(id) && !before.has(id)),
    removed: [...new Set(removalOrder)].filter((id) => before.has(id) && !after.has(id)),
  };
}
