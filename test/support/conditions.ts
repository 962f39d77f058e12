import { REMOTE_BASE_URL } from './test-app.js';
import { testDialect } from './test-database.js';

/**
 * What a test needs of the run to mean anything: a dialect, the fast paths, an instance in this process. Each pass of
 * `npm test` runs the tests whose conditions hold for it; a test whose condition does not hold is not registered in
 * that pass (never skipped, never run to an early `return` that would count as passed), and runs in the pass it is
 * written for. A file none of whose tests applies to a pass is left out of it by test/support/pass-files.cjs, since
 * Jest fails a file that registers no test.
 */
export interface Condition {
  readonly holds: boolean;
  /** Why a test does not apply to a pass where the condition does not hold (the pass it runs in is another). */
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

function allHold(conditions: readonly Condition[]): boolean {
  return conditions.every((condition) => condition.holds);
}

/** `it` when every condition holds; else nothing is registered. */
export function itWhen(...conditions: Condition[]): TestFn {
  return allHold(conditions) ? it : () => undefined;
}

/** `describe` when every condition holds; else nothing in it is registered. */
export function describeWhen(...conditions: Condition[]): (name: string, fn: () => void) => void {
  return allHold(conditions) ? describe : () => undefined;
}
