import type { AdmissionLimits } from '../../config/app-config.js';
import { Errors, TrackerError } from '../errors/index.js';
import { countAtScrape, observeAtScrape } from '../metrics/metrics.js';

interface Waiter {
  /** The start of the turn that read it: its wait counts from there (so the queue is in the order of `since`). */
  since: number;
  admit: () => void;
  refuse: (error: TrackerError) => void;
}

/** Why requests were refused, for /metrics. */
type Refusal = 'queue_full' | 'waited_too_long' | 'loop_busy';

/**
 * Admission (issue 40): at most `maxInFlight` API requests of an instance are worked on at once; the others wait in
 * arrival order, at most `maxQueue` of them and each at most `maxWaitMs`. A request that cannot be taken in time is
 * refused before it does any work: OVERLOADED, 503 with Retry-After. So under more load than the instance can
 * serve, a request is answered or refused within about `maxWaitMs`, in the order requests came, instead of some
 * waiting for many seconds while later ones are served (MariaDB: each statement of a request queueing again for one
 * of the pool's connections behind everybody's).
 *
 * Where a request's work runs synchronously (SQLite's statements), the event loop's turns are what must stay short:
 * Node 24's libuv accepts one new connection per turn, and a turn that worked on every request it read (200
 * connections: up to 1.8 s) kept new connections out for up to 20 s (bench/RESULTS.md). There a turn takes requests
 * in for `turnBudgetMs` at most; the next ones wait for a later turn, where they are taken in one by one (each
 * leaving in the same turn hands its slot on while the budget lasts). A wait counts from the start of the turn in
 * which the request was read: requests that came while a turn worked waited in their sockets, where no queue sees
 * them, so one read more than `maxWaitMs` after its turn began is refused at once (`loop_busy`).
 */
export class Admission {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private head = 0;
  private waiting = 0;
  private turnStart = 0;
  private turnOpen = false;
  private drainScheduled = false;
  /** Set for the deadline of the longest waiting request (the queue's head), while requests wait. */
  private timer: NodeJS.Timeout | undefined;
  private readonly refused: Record<Refusal, number> = { queue_full: 0, waited_too_long: 0, loop_busy: 0 };
  private queued = 0;

  /** How long a turn takes requests in: `limits.turnBudgetMs`, unbounded when 0. */
  private readonly turnBudgetMs: number;

  /** `now` in milliseconds: a monotonic clock (a test's may move without timers running, as during a busy turn). */
  constructor(private readonly limits: AdmissionLimits, private readonly now: () => number = () => performance.now()) {
    this.turnBudgetMs = limits.turnBudgetMs || Infinity;
  }

  /** Admission with `limits`, or none when they turn it off (TRACKER_MAX_IN_FLIGHT=0); reported in /metrics. */
  static of(limits: AdmissionLimits): Admission | undefined {
    if (limits.maxInFlight === 0) return undefined;
    const admission = new Admission(limits);
    admission.observe();
    return admission;
  }

  /**
   * Takes a slot for a request: `undefined` when it is taken now, a promise when the request waits for one (it
   * rejects with OVERLOADED when the request is refused after all); throws OVERLOADED when it is refused at once.
   * Every taken slot is given back with `leave()`.
   */
  enter(): Promise<void> | undefined {
    const now = this.now();
    const elapsed = this.turnElapsed(now);
    if (elapsed > this.limits.maxWaitMs) throw this.refuse('loop_busy');
    if (this.inFlight < this.limits.maxInFlight && this.waiting === 0 && elapsed < this.turnBudgetMs) {
      this.inFlight++;
      return undefined;
    }
    if (this.waiting >= this.limits.maxQueue) throw this.refuse('queue_full');
    this.queued++;
    const since = this.turnStart;
    const wait = new Promise<void>((admit, refuse) => {
      this.queue.push({ since, admit, refuse });
    });
    this.waiting++;
    this.timer ??= setTimeout(this.expire, Math.max(0, since + this.limits.maxWaitMs - now)).unref();
    if (this.inFlight < this.limits.maxInFlight) this.scheduleDrain();
    return wait;
  }

  /** Gives a slot back: to the longest waiting request, in this turn while its budget lasts, else in the next. */
  leave(): void {
    this.inFlight--;
    this.admitWaiting(this.now(), 1);
  }

  /** Takes in up to `count` waiting requests while slots are free and the turn's budget lasts; a later turn the rest. */
  private admitWaiting(now: number, count: number): void {
    for (let admitted = 0; admitted < count && this.waiting > 0 && this.inFlight < this.limits.maxInFlight;) {
      if (this.turnElapsed(now) >= this.turnBudgetMs) {
        this.scheduleDrain();
        return;
      }
      const waiter = this.next()!;
      // A busy turn can keep the deadline's timer from firing on time.
      if (now - waiter.since > this.limits.maxWaitMs) {
        waiter.refuse(this.refuse('waited_too_long'));
        continue;
      }
      this.inFlight++;
      admitted++;
      waiter.admit();
    }
  }

  /**
   * A later turn's intake (its check phase, after the poll phase read what it could). The requests it takes in run
   * once it returns (their promises): with a turn budget it takes one, and each one leaving hands its slot on while
   * the budget lasts; without one, as many as slots are free.
   */
  private readonly drain = () => {
    this.drainScheduled = false;
    const now = this.now();
    this.turnStart = now;
    this.openTurn();
    if (this.turnBudgetMs === Infinity) {
      this.admitWaiting(now, this.limits.maxInFlight);
      return;
    }
    this.admitWaiting(now, 1);
    // One whose work does not end in this turn (it waits for a transaction, a file) leaves its slots to later turns.
    if (this.waiting > 0 && this.inFlight < this.limits.maxInFlight) this.scheduleDrain();
  };

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(this.drain);
  }

  /** How long the current turn has been going; a request is the first of a turn when none is open. */
  private turnElapsed(now: number): number {
    if (!this.turnOpen) {
      this.turnStart = now;
      this.openTurn();
    }
    return now - this.turnStart;
  }

  private openTurn(): void {
    if (this.turnOpen) return;
    this.turnOpen = true;
    // The check phase comes once the poll phase has handled every socket it read: the turn ends there.
    setImmediate(this.closeTurn);
  }

  private readonly closeTurn = () => {
    this.turnOpen = false;
  };

  private next(): Waiter | undefined {
    if (this.waiting === 0) return undefined;
    const waiter = this.queue[this.head++];
    if (--this.waiting === 0) {
      // Nobody left to refuse: no timer outlives the queue (an instance closing, a test ending).
      clearTimeout(this.timer);
      this.timer = undefined;
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return waiter;
  }

  /** The head's deadline came: refuses every request that has waited its longest, and waits for the next deadline. */
  private readonly expire = () => {
    this.timer = undefined;
    const now = this.now();
    while (this.waiting > 0 && now - this.queue[this.head].since >= this.limits.maxWaitMs) this.next()!.refuse(this.refuse('waited_too_long'));
    if (this.waiting > 0) this.timer = setTimeout(this.expire, this.queue[this.head].since + this.limits.maxWaitMs - now).unref();
  };

  private refuse(reason: Refusal): TrackerError {
    this.refused[reason]++;
    return TrackerError.of(Errors.OVERLOADED);
  }

  private observe(): void {
    observeAtScrape('tracker_admission_requests', 'API requests worked on (in_flight) and waiting for their turn (waiting) now (TRACKER_MAX_IN_FLIGHT, TRACKER_MAX_QUEUE).', ['state'], async () => [
      [{ state: 'in_flight' }, this.inFlight], [{ state: 'waiting' }, this.waiting],
    ]);
    countAtScrape('tracker_admission_total', 'API requests that waited for their turn (queued), and those refused with 503 by reason (queue_full, waited_too_long, loop_busy).', ['outcome'], () => [
      [{ outcome: 'queued' }, this.queued],
      ...(Object.entries(this.refused) as Array<[Refusal, number]>).map(([outcome, count]): [{ outcome: string }, number] => [{ outcome }, count]),
    ]);
  }
}
