import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { CommitSignals } from './commit-signals.js';
import { Db } from './db.service.js';
import { lostLockConflict, retryDelayMs, TRANSACTION_ATTEMPTS } from './lock-conflict.js';

const deadlock = () => Object.assign(new Error('Query failed'), { driverError: { code: 'ER_LOCK_DEADLOCK', errno: 1213 } });

/**
 * A Db on a SQLite data source whose transactions run `work` and then fail at their COMMIT with what `failures`
 * yields, while it yields anything: the worst case, everything of the run done but its commit.
 */
function dbFailingCommits(failures: Array<() => Error>): { db: Db; runs: () => number } {
  let runs = 0;
  const dataSource = {
    options: { type: 'better-sqlite3' },
    manager: {},
    async transaction(work: (manager: object) => Promise<unknown>) {
      runs++;
      const answer = await work({});
      const failure = failures.shift();
      if (failure) throw failure();
      return answer;
    },
  } as unknown as DataSource;
  return { db: new Db(dataSource, { fastPaths: true } as AppConfig), runs: () => runs };
}

describe('lostLockConflict', () => {
  it('is a deadlock victim, a lock wait timeout (wrapped by TypeORM or not) and SQLite busy, nothing else', () => {
    expect(lostLockConflict(deadlock())).toBe(true);
    expect(lostLockConflict({ driverError: { errno: 1205 } })).toBe(true);
    expect(lostLockConflict(Object.assign(new Error('x'), { code: 'ER_LOCK_WAIT_TIMEOUT' }))).toBe(true);
    expect(lostLockConflict({ driverError: { code: 'SQLITE_BUSY' } })).toBe(true);
    expect(lostLockConflict({ driverError: { code: 'SQLITE_BUSY_SNAPSHOT' } })).toBe(true);
    expect(lostLockConflict({ driverError: { code: 'ER_DUP_ENTRY', errno: 1062 } })).toBe(false);
    expect(lostLockConflict({ driverError: { code: 'SQLITE_CONSTRAINT_UNIQUE' } })).toBe(false);
    expect(lostLockConflict({ driverError: { code: 'ER_DATA_OUT_OF_RANGE', errno: 1690 } })).toBe(false);
    expect(lostLockConflict(TrackerError.of(Errors.DATABASE_UNAVAILABLE))).toBe(false);
    expect(lostLockConflict(undefined)).toBe(false);
    expect(lostLockConflict(null)).toBe(false);
  });

  it('waits a random time within a window doubling per attempt', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, () => 0.999))).toEqual([19, 39, 79, 159]);
    expect(retryDelayMs(3, () => 0)).toBe(0);
  });
});

describe('Db.transaction after a lost lock conflict', () => {
  it('runs the transaction again from the start; what waits for a commit sees only the run that committed', async () => {
    const { db, runs } = dbFailingCommits([deadlock, deadlock]);
    const signals = new CommitSignals();
    let woken = 0;
    signals.on('outbox', () => woken++);
    const ends: Array<Promise<boolean>> = [];
    const answer = await db.transaction(async (tx) => {
      ends.push(tx.committed());
      signals.afterCommitOf(tx, 'outbox');
      return 'done';
    });
    expect(answer).toBe('done');
    expect(runs()).toBe(3);
    expect(await Promise.all(ends)).toEqual([false, false, true]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toBe(1);
  });

  it(`answers DATABASE_UNAVAILABLE (503) after ${TRANSACTION_ATTEMPTS} runs that all lost`, async () => {
    const { db, runs } = dbFailingCommits(Array.from({ length: TRANSACTION_ATTEMPTS }, () => deadlock));
    const failure = await db.transaction(async () => 'never').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TrackerError);
    expect(failure).toMatchObject({ errorName: 'database_unavailable', httpStatus: 503 });
    expect(runs()).toBe(TRANSACTION_ATTEMPTS);
  });

  it('runs a transaction that failed otherwise once, its error unchanged', async () => {
    const duplicate = Object.assign(new Error('Duplicate entry'), { driverError: { code: 'ER_DUP_ENTRY', errno: 1062 } });
    const { db, runs } = dbFailingCommits([() => duplicate]);
    await expect(db.transaction(async () => 'never')).rejects.toBe(duplicate);
    const refusing = dbFailingCommits([]);
    const refusal = TrackerError.of(Errors.DATABASE_UNAVAILABLE);
    await expect(refusing.db.transaction(async () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect([runs(), refusing.runs()]).toEqual([1, 1]);
  });
});
