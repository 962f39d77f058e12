import { REMOTE_BASE_URL } from './test-app.js';
import { testDialect } from './test-database.js';

/**
 * What a test needs of the run to mean anything: a dialect, the fast paths, an instance in this process. A test whose
 * condition does not hold is registered skipped, its title saying why (Jest prints it: "○ skipped …"), never run to
 * an early `return` that would count as passed.
 */
export interface Condition {
  readonly holds: boolean;
  /** Why a test is skipped when the condition does not hold. */
  readonly reason: string;
}

/** Whether the service runs with its speed mechanisms (TRACKER_FAST_PATHS, on unless `off`). */
export function fastPathsOn(): boolean {
  return process.env.TRACKER_FAST_PATHS !== 'off';
}

/**
 * For a test whose subject is a mechanism (statements and round trips counted or compared with a snapshot, held
 * statements, kept answers, presumed callers, companion reads, shared transactions, commit conditions), not the
 * answers on the wire: with TRACKER_FAST_PATHS=off the mechanism is not there to test.
 */
export const needsFastPaths: Condition = { holds: fastPathsOn(), reason: 'needs fast paths (TRACKER_FAST_PATHS=off)' };

/** On one dialect only, with why the other has nothing to test. */
export function onDialect(dialect: 'mysql' | 'sqlite', why: string): Condition {
  return { holds: testDialect() === dialect, reason: `${dialect === 'mysql' ? 'MariaDB/MySQL' : 'SQLite'} only: ${why}` };
}

/** In-process only: it reads the service's database, statements or configuration (see test/support/in-process.ts). */
export const inProcess: Condition = { holds: !REMOTE_BASE_URL, reason: 'in-process only (E2E_BASE_URL)' };

type TestFn = (name: string, fn?: jest.ProvidesCallback, timeout?: number) => void;

/** The reasons of the conditions that do not hold, or undefined when all do. */
function unmet(conditions: readonly Condition[]): string | undefined {
  const reasons = conditions.filter((condition) => !condition.holds).map((condition) => condition.reason);
  return reasons.length ? reasons.join('; ') : undefined;
}

/** `it` when every condition holds; else `it.skip` with the reasons in the title. */
export function itWhen(...conditions: Condition[]): TestFn {
  const reasons = unmet(conditions);
  if (reasons === undefined) return it;
  return (name, fn, timeout) => it.skip(`${name} [skipped: ${reasons}]`, fn, timeout);
}

/** `describe` when every condition holds; else `describe.skip` with the reasons in the title. */
export function describeWhen(...conditions: Condition[]): (name: string, fn: () => void) => void {
  const reasons = unmet(conditions);
  if (reasons === undefined) return describe;
  return (name, fn) => describe.skip(`${name} [skipped: ${reasons}]`, fn);
}
