/**
 * Whether a transaction failed only because another one held what it needed: MySQL/MariaDB chose it as a deadlock
 * victim (1213) or its lock wait timed out (1205), or SQLite found the database locked by another connection past
 * its busy timeout (SQLITE_BUSY and its extended codes: another process or instance writing the same file). Nothing
 * of such a transaction committed — the statement that failed is never a COMMIT that ran — so running it again is
 * safe, and is what Db.transaction does (TRANSACTION_ATTEMPTS). TypeORM wraps driver errors (`driverError`).
 */
export function lostLockConflict(error: unknown): boolean {
  const driver = (error as { driverError?: unknown } | null)?.driverError ?? error;
  const { code, errno } = (driver ?? {}) as { code?: unknown; errno?: unknown };
  if (code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || errno === 1213 || errno === 1205) return true;
  return typeof code === 'string' && /^SQLITE_BUSY(_|$)/.test(code);
}

/** How many times Db.transaction runs a transaction that keeps losing lock conflicts before it answers 503. */
export const TRANSACTION_ATTEMPTS = 5;

/**
 * The wait before attempt `attempt + 1`: random within a window doubling per attempt (20, 40, 80, 160 ms), so that the
 * transactions that deadlocked each other do not meet again in step.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * 20 * 2 ** (attempt - 1));
}
