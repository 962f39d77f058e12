import { REMOTE_BASE_URL } from './test-app.js';
import { describeWhen, inProcess, itWhen } from './conditions.js';

/**
 * Tests that cannot be black-box — they count statements, read or write the database, move the clock, configure or
 * restart the instance — are declared with these: they run in-process (npm test) and are skipped against a running
 * instance (npm run test:e2e:remote). Whole files of that kind are listed in test/support/pass-files.cjs.
 */
export const inProcessIt = itWhen(inProcess);
export const inProcessDescribe = describeWhen(inProcess);

/**
 * A name for something a test creates (a product, a group, a login's local part …). In-process every file has a
 * fresh database and the name is `base` itself; against a running instance the files share one database, maybe
 * with an earlier run's data, so the name gets a suffix of its own for this file and run.
 */
/** This file's run: the suffix of `named` against a running instance. */
const RUN_SUFFIX = Math.random().toString(36).slice(2, 8);

export function named(base: string): string {
  return REMOTE_BASE_URL ? `${base}-${RUN_SUFFIX}` : base;
}

/** Whether `name` is one this file made with `named` (always, in-process: the database is the file's own). */
export function isNamedHere(name: string): boolean {
  return !REMOTE_BASE_URL || name.includes(RUN_SUFFIX);
}

/** A login for a test user: `local@example.com` in-process, made unique per file and run against an instance. */
export function loginNamed(local: string, domain = 'example.com'): string {
  return `${named(local)}@${domain}`;
}
