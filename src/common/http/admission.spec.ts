import { jest } from '@jest/globals';
import { Admission } from './admission.js';
import { TrackerError } from '../errors/index.js';

/** What became of a request that waits: 'admitted', 'refused' or still 'waiting'. */
function outcomeOf(wait: Promise<void> | undefined): { state: 'admitted' | 'refused' | 'waiting' } {
  const outcome: { state: 'admitted' | 'refused' | 'waiting' } = { state: wait ? 'waiting' : 'admitted' };
  wait?.then(() => (outcome.state = 'admitted'), (error: unknown) => {
    expect(error).toBeInstanceOf(TrackerError);
    expect((error as TrackerError).httpStatus).toBe(503);
    outcome.state = 'refused';
  });
  return outcome;
}

const settle = () => jest.advanceTimersByTimeAsync(0);

describe('Admission', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('takes requests at once up to the limit, queues the next ones in order, refuses one more than the queue holds', async () => {
    const admission = new Admission({ maxInFlight: 2, maxQueue: 2, maxWaitMs: 1000, turnBudgetMs: 0 });
    expect(admission.enter()).toBeUndefined();
    expect(admission.enter()).toBeUndefined();
    const third = outcomeOf(admission.enter());
    const fourth = outcomeOf(admission.enter());
    expect(() => admission.enter()).toThrow(TrackerError);
    await settle();
    expect([third.state, fourth.state]).toEqual(['waiting', 'waiting']);

    admission.leave();
    await settle();
    expect([third.state, fourth.state]).toEqual(['admitted', 'waiting']);
    admission.leave();
    await settle();
    expect(fourth.state).toBe('admitted');
    // Two in flight again, none waiting: the next one waits, and is taken once a slot is given back.
    const fifth = outcomeOf(admission.enter());
    admission.leave();
    await settle();
    expect(fifth.state).toBe('admitted');
    // Nobody waits: no timer is left to keep the process up (a test's instance would hold Jest for TRACKER_MAX_WAIT_MS).
    expect(jest.getTimerCount()).toBe(0);
  });

  it('refuses each waiting request at its own deadline, in order, while the slot stays taken; the next gets the slot', async () => {
    const admission = new Admission({ maxInFlight: 1, maxQueue: 10, maxWaitMs: 1000, turnBudgetMs: 0 });
    expect(admission.enter()).toBeUndefined();
    const waiters = [];
    for (let i = 0; i < 3; i++) {
      waiters.push(outcomeOf(admission.enter()));
      await jest.advanceTimersByTimeAsync(300);
    }
    // t = 900: none has waited 1 s yet.
    expect(waiters.map((w) => w.state)).toEqual(['waiting', 'waiting', 'waiting']);
    await jest.advanceTimersByTimeAsync(100);
    expect(waiters.map((w) => w.state)).toEqual(['refused', 'waiting', 'waiting']);
    await jest.advanceTimersByTimeAsync(300);
    expect(waiters.map((w) => w.state)).toEqual(['refused', 'refused', 'waiting']);
    admission.leave();
    await settle();
    expect(waiters[2].state).toBe('admitted');
  });

  it('a request that arrives while the slots are free but others wait goes behind them', async () => {
    const admission = new Admission({ maxInFlight: 1, maxQueue: 10, maxWaitMs: 1000, turnBudgetMs: 0 });
    expect(admission.enter()).toBeUndefined();
    const first = outcomeOf(admission.enter());
    const second = outcomeOf(admission.enter());
    admission.leave();
    await settle();
    expect([first.state, second.state]).toEqual(['admitted', 'waiting']);
  });

  it('refuses at once a request read after its event loop turn has been busy longer than the longest wait', async () => {
    const admission = new Admission({ maxInFlight: 100, maxQueue: 100, maxWaitMs: 1000, turnBudgetMs: 0 }, () => Date.now());
    expect(admission.enter()).toBeUndefined();
    // The same turn, 1.5 s later (synchronous work, as SQLite's statements): no timer ran in between.
    jest.setSystemTime(Date.now() + 1500);
    expect(() => admission.enter()).toThrow(TrackerError);
    // The next turn starts its own count.
    await settle();
    expect(admission.enter()).toBeUndefined();
  });

  /** One request in flight, one waiting; the clock is Date.now, which a test moves without timers running. */
  function oneInFlightOneWaiting(turnBudgetMs: number) {
    const admission = new Admission({ maxInFlight: 1, maxQueue: 10, maxWaitMs: 1000, turnBudgetMs }, () => Date.now());
    expect(admission.enter()).toBeUndefined();
    return { admission, waiting: outcomeOf(admission.enter()) };
  }

  it('a waiter whose deadline passed during a busy turn is refused when its turn comes, not admitted late', async () => {
    const { admission, waiting } = oneInFlightOneWaiting(0);
    // Its timer cannot run: the turn is still busy (time moves without timers).
    jest.setSystemTime(Date.now() + 1200);
    admission.leave();
    await settle();
    expect(waiting.state).toBe('refused');
    // Its slot was given back, not kept by the refused one.
    expect(admission.enter()).toBeUndefined();
  });

  it('a turn takes requests in for its budget; the next ones wait for later turns, in order, though slots are free', async () => {
    const admission = new Admission({ maxInFlight: 10, maxQueue: 10, maxWaitMs: 1000, turnBudgetMs: 10 }, () => Date.now());
    expect(admission.enter()).toBeUndefined();
    jest.setSystemTime(Date.now() + 11);
    const [second, third, fourth] = [outcomeOf(admission.enter()), outcomeOf(admission.enter()), outcomeOf(admission.enter())];
    await Promise.resolve();
    expect([second.state, third.state, fourth.state]).toEqual(['waiting', 'waiting', 'waiting']);
    // The next turn takes one in; its work has not ended when the turn's intake ends, so the one after it waits again.
    await jest.advanceTimersToNextTimerAsync();
    expect([second.state, third.state, fourth.state]).toEqual(['admitted', 'waiting', 'waiting']);
    // One leaving within the budget of its turn hands its slot on at once (as SQLite's synchronous work does).
    admission.leave();
    await Promise.resolve();
    expect([third.state, fourth.state]).toEqual(['admitted', 'waiting']);
    await jest.advanceTimersToNextTimerAsync();
    expect(fourth.state).toBe('admitted');
  });

  it('a slot given back after the turn budget goes to the next waiter in a later turn, not in this one', async () => {
    const { admission, waiting } = oneInFlightOneWaiting(10);
    // The request in flight worked synchronously for 20 ms (as SQLite's statements do) and leaves in the same turn.
    jest.setSystemTime(Date.now() + 20);
    admission.leave();
    await Promise.resolve();
    expect(waiting.state).toBe('waiting');
    await settle();
    expect(waiting.state).toBe('admitted');
  });
});
