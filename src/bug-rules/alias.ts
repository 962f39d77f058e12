/**
 * Alias syntax (defaults.md "alias length", errors.md 103). Uniqueness (alias_in_use) needs the database
 * and stays with the bug service.
 */
import { Errors, TrackerError } from '../common/errors/index.js';

export const MAX_ALIAS_LENGTH = 40;

/**
 * Validates one alias and returns it trimmed, or null when it is empty (Bugzilla skips empty aliases rather
 * than refusing them). Errors, all 103: longer than 40 characters, digits only, containing a comma or blank.
 */
export function validateAlias(alias: unknown): string | null {
  if (alias === null || alias === undefined) return null;
  if (typeof alias !== 'string' && typeof alias !== 'number') {
    throw TrackerError.of(Errors.ALIAS_HAS_COMMA_OR_SPACE, { alias: String(alias) });
  }
  const value = String(alias).trim();
  if (value === '') return null;
  // Characters, not UTF-16 units: the column holds 40 characters.
  if ([...value].length > MAX_ALIAS_LENGTH) throw TrackerError.of(Errors.ALIAS_TOO_LONG, { alias: value });
  // All digits would be taken for a bug ID wherever an ID-or-alias is accepted.
  if (/^\d+$/.test(value)) throw TrackerError.of(Errors.ALIAS_IS_NUMERIC, { alias: value });
  if (/[,\s]/.test(value)) throw TrackerError.of(Errors.ALIAS_HAS_COMMA_OR_SPACE, { alias: value });
  return value;
}

/** Validates a list of aliases, dropping empty ones and case-insensitive repeats (the first spelling wins). */
export function validateAliases(aliases: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const raw of aliases) {
    const alias = validateAlias(raw);
    if (alias !== null && !out.some((a) => a.toLowerCase() === alias.toLowerCase())) out.push(alias);
  }
  return out;
}
