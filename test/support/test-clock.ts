import { Clock } from '../../src/common/time/clock.js';

/**
 * The e2e tests' clock: real time plus an offset that only grows. A test that needs a later timestamp (a
 * last_change_time that moves) advances it instead of sleeping.
 */
export class TestClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}
