import { TrackerError } from './tracker-error.js';

/** For specs: the TrackerError `fn` throws (anything else thrown, or nothing, fails the test). */
export function caughtError(fn: () => unknown): TrackerError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TrackerError) return err;
    throw err;
  }
  throw new Error('expected a TrackerError');
}

/** For specs: the code of the TrackerError `fn` throws. */
export const errorCode = (fn: () => unknown): number => caughtError(fn).code;
