import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { AuthRepository } from './auth.repository.js';

/** defaults.md: 5 failed logins within 30 minutes, per account and address, lock that address out. */
export const MAX_LOGIN_ATTEMPTS = 5;
export const LOGIN_LOCKOUT_INTERVAL_MS = 30 * 60 * 1000;

/**
 * Failed-login bookkeeping (Bugzilla's login_failure table): consulted before a password is checked, so that a
 * locked-out address is refused even with the right password until the window passes. Each write commits on its
 * own: the failing request's error must not roll the record back.
 */
@Injectable()
export class LoginFailuresService {
  constructor(private readonly db: Db, private readonly credentials: AuthRepository) {}

  /** The failures of this account from this address inside the window, oldest first. */
  async recent(userId: number, ip: string, now: Date): Promise<Date[]> {
    const times = await this.credentials.failureTimes(this.db.read, userId, ip, toDbDateTime(new Date(now.getTime() - LOGIN_LOCKOUT_INTERVAL_MS)));
    return times.map((time) => new Date(toApiDateTime(time)!));
  }

  /** account_locked (32000) when the address has used up its attempts. */
  assertNotLockedOut(failures: readonly Date[], ip: string): void {
    if (failures.length < MAX_LOGIN_ATTEMPTS) return;
    const until = new Date(failures[failures.length - MAX_LOGIN_ATTEMPTS].getTime() + LOGIN_LOCKOUT_INTERVAL_MS);
    throw TrackerError.of(Errors.ACCOUNT_LOCKED, { ip, until: toApiDateTime(until) });
  }

  /**
   * Records a failure and answers with the error to give: the lockout if this failure used up the attempts,
   * otherwise 300 with the number of attempts left (the message warns when two or fewer remain).
   */
  async recordFailure(userId: number, ip: string, now: Date, earlier: readonly Date[]): Promise<TrackerError> {
    await this.db.transaction((tx) => this.credentials.insertFailure(tx, { userId, ipAddr: ip, loginTime: toDbDateTime(now) }));
    const failures = [...earlier, now];
    try {
      this.assertNotLockedOut(failures, ip);
    } catch (lockout) {
      return lockout as TrackerError;
    }
    return TrackerError.of(Errors.INVALID_LOGIN_OR_PASSWORD, { remaining: MAX_LOGIN_ATTEMPTS - failures.length });
  }

  /** A successful login forgets this address's failures (Bugzilla's clear_login_failures). */
  async clear(userId: number, ip: string): Promise<void> {
    await this.db.transaction((tx) => this.credentials.deleteFailures(tx, userId, ip));
  }
}
