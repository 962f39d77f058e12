import type { Logger } from '@nestjs/common';

export interface WorkerLoopOptions {
  /** What the logs call it ("Mail delivery"). */
  name: string;
  /**
   * How often an idle worker looks again (it is also woken right after a commit that queued work, and a pass may
   * ask to run again sooner: the next retry's time).
   */
  pollMs: number;
  /** After a pass that failed as a whole (the database is unreachable …): wait longer, log less. */
  failedPassDelayMs: number;
  logger: Logger;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The rhythm of an outbox worker (mail, webhooks): one pass at a time, a pass right after a wake-up (or right after
 * the current pass, if one runs), a poll when idle, a longer pause after a failed pass, and a stop that waits for
 * the pass in progress. The pass itself (claim rows atomically, send, record) is the worker's own.
 */
export class WorkerLoop {
  private timer: NodeJS.Timeout | undefined;
  private cycle: Promise<void> | undefined;
  private wakeAgain = false;
  private running = false;

  /** `pass` answers in how many ms it wants to run again, if sooner than the poll (nothing: at the next poll). */
  constructor(private readonly options: WorkerLoopOptions, private readonly pass: () => Promise<number | void>) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts the loop: the first pass now, or after `firstPassInMs` (capped at the poll) unless woken sooner. */
  start(firstPassInMs = 0): void {
    this.running = true;
    if (firstPassInMs <= 0) {
      this.wake();
      return;
    }
    this.timer = setTimeout(() => this.wake(), Math.min(firstPassInMs, this.options.pollMs));
    this.timer.unref();
  }

  /** Stops polling and waits for the pass in progress. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.cycle;
  }

  /** Runs a pass now (or right after the current one). */
  wake(): void {
    if (!this.running) return;
    if (this.cycle) {
      this.wakeAgain = true;
      return;
    }
    clearTimeout(this.timer);
    let delay = this.options.pollMs;
    this.cycle = this.pass()
      .then((soonerMs) => {
        if (typeof soonerMs === 'number') delay = Math.max(0, Math.min(soonerMs, delay));
      })
      .catch((err) => {
        delay = this.options.failedPassDelayMs;
        this.options.logger.error(`${this.options.name} pass failed (next try in ${delay / 1000} s): ${reasonOf(err)}`);
      })
      .finally(() => {
        this.cycle = undefined;
        if (!this.running) return;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), delay);
        this.timer.unref();
      });
  }
}

/** At most once per `intervalMs` in this instance: the housekeeping an outbox worker does beside its passes. */
export class EveryInterval {
  private last = 0;

  constructor(private readonly intervalMs: number) {}

  /** True when the interval has passed since the last time it said so (and from then on counts again). */
  due(now = Date.now()): boolean {
    if (now - this.last < this.intervalMs) return false;
    this.last = now;
    return true;
  }
}
