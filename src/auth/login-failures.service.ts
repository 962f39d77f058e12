import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { UserService } from '../user/user.service.js';
import { AuthRepository } from './auth.repository.js';

/** defaults.md: 5 failed logins within 30 minutes, per account and address, lock that address out. */
export const MAX_LOGIN_ATTEMPTS = 5;
export const LOGIN_LOCKOUT_INTERVAL_MS = 30 * 60 * 1000;

/** A password attempt that may go ahead: it already counts as a failure until the password proves right. */
export interface ReservedAttempt {
  userId: number;
  ip: string;
  /** The failures inside the window, this attempt included, oldest first. */
  failures: readonly Date[];
}

/**
 * Failed-login bookkeeping (Bugzilla's login_failure table). Counting and checking are one atomic step: an attempt
 * is recorded as a failure BEFORE its password is compared, in a transaction that holds the account's row lock
 * while it counts, so parallel guesses queue up and the sixth finds the address locked, whoever runs where (the
 * lock and the rows are in the database). A right password then clears the failures. Each write commits on its own:
 * the failing request's error must not roll the record back.
 */
@Injectable()
export class LoginFailuresService {
  constructor(private readonly db: Db, private readonly credentials: AuthRepository, private readonly users: UserService) {}

  /** Reserves one attempt; account_locked (32000) when the address has used up its attempts (nothing recorded). */
  async reserveAttempt(userId: number, ip: string, now: Date): Promise<ReservedAttempt> {
    const failures = await this.db.transaction(async (tx) => {
      await this.users.lock(tx, userId);
      const since = toDbDateTime(new Date(now.getTime() - LOGIN_LOCKOUT_INTERVAL_MS));
      const earlier = (await this.credentials.failureTimes(tx, userId, ip, since)).map((time) => new Date(toApiDateTime(time)!));
      assertNotLockedOut(earlier, ip);
      await this.credentials.insertFailure(tx, { userId, ipAddr: ip, loginTime: toDbDateTime(now) });
      return [...earlier, now];
    });
    return { userId, ip, failures };
  }

  /**
   * The error for a reserved attempt whose password was wrong: the lockout if it used up the attempts, otherwise
   * 300 with the number of attempts left (the message warns when two or fewer remain).
   */
  failed(attempt: ReservedAttempt): TrackerError {
    try {
      assertNotLockedOut(attempt.failures, attempt.ip);
    } catch (lockout) {
      return lockout as TrackerError;
    }
    return TrackerError.of(Errors.INVALID_LOGIN_OR_PASSWORD, { remaining: MAX_LOGIN_ATTEMPTS - attempt.failures.length });
  }

  /** A right password forgets this address's failures, the reserved attempt's too (Bugzilla's clear_login_failures). */
  async succeeded(attempt: ReservedAttempt): Promise<void> {
    await this.db.transaction((tx) => this.credentials.deleteFailures(tx, attempt.userId, attempt.ip));
  }
}

/** account_locked (32000) when these failures use up the attempts; `until` is when the oldest counted one expires. */
function assertNotLockedOut(failures: readonly Date[], ip: string): void {
  if (failures.length < MAX_LOGIN_ATTEMPTS) return;
  const until = new Date(failures[failures.length - MAX_LOGIN_ATTEMPTS].getTime() + LOGIN_LOCKOUT_INTERVAL_MS);
  throw TrackerError.of(Errors.ACCOUNT_LOCKED, { ip, until: toApiDateTime(until) });
}
