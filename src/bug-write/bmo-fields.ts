/**
 * BMO's bug fields' rules (issue 43). The type (its Bug.pm _check_bug_type and Component.pm default_bug_type): one of
 * defect, enhancement and task, named in any case; without one, a new bug takes its component's default type, else
 * the default_bug_type parameter. BMO's `--` (the type of bugs filed before types, refused when require_bug_type is
 * on) is not a type here. How a bug was filed (its _check_filed_via).
 */
import { legalBugType } from '../params/parameter-definitions.js';

/** A new bug's type: the one asked for, else its component's default, else the installation's (default_bug_type). */
export function newBugType(asked: string | undefined, componentDefault: string | null, installationDefault: string): string {
  if (asked !== undefined && asked.trim() !== '') return legalBugType(asked);
  return componentDefault ?? installationDefault;
}

/** BMO's BUG_FILE_METHODS (without its extensions' guided_form). */
export const BUG_FILE_METHODS = ['standard_form', 'custom_form', 'api'] as const;

/** How a new bug is filed: as the client says if one of BMO's methods, `api` when it says nothing, else `unknown`. */
export function filedVia(said: string | undefined): string {
  if (said === undefined) return 'api';
  return (BUG_FILE_METHODS as readonly string[]).includes(said) ? said : 'unknown';
}
