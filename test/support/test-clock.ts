import { Clock } from '../../src/common/time/clock.js';

/**
 * The e2e tests' clock: real time plus an offset that only grows. A test that needs a later timestamp (a
 * last_change_time that moves) advances it instead of sleeping.
 */
export class TestClock extends Clock {
  private offsetMs = 0;
  private stoppedAt: number | undefined;

  now(): Date {
    return new Date(this.stoppedAt ?? Date.now() + this.offsetMs);
  }

  /**
   * Stops the clock while `run` runs, then lets it go on at real time plus the offset: for answers compared byte for
   * byte that carry the request's second (update_token), which would differ whenever the second turned between them.
   */
  async stopped<T>(run: () => Promise<T>): Promise<T> {
    this.stoppedAt = Date.now() + this.offsetMs;
    try {
      return await run();
    } finally {
      this.stoppedAt = undefined;
    }
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}
