import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.service.js';
import { Caller } from '../../common/caller.js';
import { MarkedCache } from '../../common/marked-cache.js';
import { SettingsMarkService } from '../../audit/store/settings-mark.service.js';
import type { CallerResolver, CompanionAsk, PresumedCaller } from '../../common/guards/caller-resolver.js';
import type { CompanionFound, CompanionPlan } from '../../common/http/companion-read.js';
import type { CompanionStatement } from '../../common/http/companion-read.js';
import type { Row, Sql, Statement } from '../../database/sql.js';
import type { Credentials } from '../../common/http/request-params.js';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { storedTimeMs, toDbDateTime } from '../../common/time/datetime.js';
import { ParametersService, type Parameters } from '../../params/parameters.service.js';
import { UserService, type UserRecord } from '../../user/user.service.js';
import { GroupService } from '../../group/group.service.js';
import { digestSecret, hashPassword, passwordNeedsRehash, verifyPassword } from '../../common/credentials.js';
import { LoginFailuresService } from '../login-failures.service.js';
import { AuthRepository } from '../auth.repository.js';
import { CredentialCheckRepository } from './credential-check.repository.js';
import { AppConfig } from '../../config/app-config.js';

/** The key of anonymous requests in lastCallers (the others are `key:<digest>` and `token:<digest>`). */
const ANONYMOUS = '';

/** Login tokens die after this long unused (defaults.md). */
export const TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** last_used of keys and tokens is refreshed at most this often, so reads do not each cost a write. */
const LAST_USED_RESOLUTION_MS = 60 * 1000;

/**
 * A key or token last used before this stored time (`YYYY-MM-DD hh:mm:ss`, UTC, as toDbDateTime writes it) has its
 * last use refreshed. Stored times compare as text, so the check parses no date; the bound is made once a second.
 */
function lastUseRefreshBound(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== refreshBound.second) refreshBound = { second, text: toDbDateTime(new Date(second * 1000 - LAST_USED_RESOLUTION_MS)) };
  return refreshBound.text;
}
let refreshBound = { second: -1, text: '' };

/**
 * The caller a credential named last on this instance, and until when (ms) the credential's last use needs no refresh
 * as it was then: a write presumes the caller only within that time, since its condition refreshes nothing. A write
 * presumes it only while this instance has committed no move of the settings mark since the credential's statement
 * was sent (`settingsMovesBefore`, SettingsMarkService.settingsMovesCommittedHere): the caller is kept under the mark that
 * statement read, and a write presuming it under a mark this instance knows is gone would fail its condition, roll
 * back and run again (its bug id and comment id skipped on MySQL).
 */
interface KnownCaller {
  caller: Caller;
  lastUseFreshUntil: number;
  settingsMovesBefore: number;
}

/** A request's API key or login token (a login token wins, as in Bugzilla), with its digest and lastCallers' key. */
function secretOf(credentials: Credentials): { token?: string; digest?: string; known: string } {
  const token = credentials.token?.trim();
  const secret = token ?? credentials.apiKey;
  if (secret === undefined) return { known: ANONYMOUS };
  const digest = digestSecret(secret);
  return { token, digest, known: `${token !== undefined ? 'token' : 'key'}:${digest}` };
}

/**
 * Resolves the caller of a request from its credentials (misc.md, "Authentication"): login + password first,
 * then a login token, then an API key. Invalid credentials are errors, never a silent anonymous caller.
 */
@Injectable()
export class CallerResolverService implements CallerResolver {
  /**
   * The caller each API key and login token (by digest; one entry for anonymous requests) named last, under its
   * settings mark: the guess a companion read is planned for. A guess is used only when the statement confirms its
   * user and mark (and, for a token, that token).
   */
  private readonly lastCallers = new MarkedCache<string, KnownCaller>();
  /**
   * AppConfig.fastPaths. Off, callers carry no settings mark — so parameters, users, memberships and the catalogue
   * are read afresh for each request (KeptReads, ParametersService.at) and no bug is taken from the update projection
   * — and none is kept as a guess: no companion read is planned and no caller is presumed.
   */
  private readonly fastPaths: boolean;

  constructor(
    config: AppConfig,
    private readonly db: Db,
    private readonly credentials: AuthRepository,
    private readonly checks: CredentialCheckRepository,
    private readonly marks: SettingsMarkService,
    private readonly parametersService: ParametersService,
    private readonly users: UserService,
    private readonly groups: GroupService,
    private readonly failures: LoginFailuresService,
  ) {
    this.fastPaths = config.fastPaths;
  }

  /**
   * The request's caller. The statement of an API key, a login token or an anonymous request also brings the
   * route's companion read (CompanionRead), planned for the caller this credential named last time; its value is
   * handed on only when the statement names that very caller again — same user, same settings mark, so the same
   * memberships — and dropped otherwise. A login with a password resolves on its own.
   */
  async resolve(credentials: Credentials, ip: string, companion?: CompanionAsk): Promise<{ caller: Caller; companion?: CompanionFound }> {
    if (credentials.login !== undefined && credentials.password !== undefined) {
      const parameters = await this.parametersService.load();
      const user = await this.checkPassword(credentials.login, credentials.password, parameters, ip);
      return { caller: await this.callerFor(user, parameters, { kind: 'password' }) };
    }
    const { token, digest, known: knownKey } = secretOf(credentials);
    const settingsMovesBefore = this.marks.settingsMovesCommittedHere();
    const known = this.fastPaths ? this.lastCallers.latest(knownKey) : undefined;
    const guess = known?.caller;
    const plan = guess && companion && planOf(companion, guess);
    const { caller, companionRows, lastUseFreshUntil } = digest === undefined
      ? await this.anonymousCaller(guess, plan?.statement)
      : token !== undefined
        ? await this.tokenCaller(token, digest, ip, guess, plan?.statement)
        : await this.apiKeyCaller(digest, guess, plan?.statement);
    if (!this.fastPaths) return { caller };
    // A confirmed guess is kept as it is: re-entering it on every request (to refresh its place in the cache's
    // order) cost ~2% of a kept read; a busy credential pushed out by 10,000 newer ones costs one unplanned read.
    if (caller !== guess) this.lastCallers.set(knownKey, caller.settingsMark!, { caller, lastUseFreshUntil, settingsMovesBefore });
    else Object.assign(known!, { lastUseFreshUntil, settingsMovesBefore });
    return { caller, companion: plan && caller === guess ? { read: companion.read, value: plan.read(companionRows) } : undefined };
  }

  /**
   * The caller the request's API key or login token named last here, presumed for a write that carries the
   * credential's check as its commit condition (PresumedCaller). Not on SQLite (the check is MySQL's), not once
   * the credential's last use is due for a refresh (that request resolves its caller the whole way, which refreshes it),
   * and not after this instance committed a settings change (KnownCaller): that request resolves its caller first.
   */
  presume(credentials: Credentials, ip: string): PresumedCaller | undefined {
    if (!this.fastPaths || this.db.dialect !== 'mysql' || (credentials.login !== undefined && credentials.password !== undefined)) return undefined;
    const { token, digest, known: knownKey } = secretOf(credentials);
    const known = digest === undefined ? undefined : this.lastCallers.latest(knownKey);
    if (!known || Date.now() >= known.lastUseFreshUntil || known.settingsMovesBefore !== this.marks.settingsMovesCommittedHere()) return undefined;
    const { caller } = known;
    const q = this.db.read.quote;
    let statement: Statement;
    if (token === undefined) {
      statement = this.checks.presumedKeyCheck(q, digest!, caller.id, caller.settingsMark!);
    } else {
      const tokenId = caller.credential.tokenId!;
      if (tokenUserId(token) !== caller.id) return undefined;
      statement = this.checks.presumedTokenCheck(q, digest!, tokenId, caller.id, ip, caller.settingsMark!);
    }
    return { caller, condition: { statement, met: false }, resolve: async () => (await this.resolve(credentials, ip)).caller };
  }

  private async apiKeyCaller(digest: string, guess: Caller | undefined, companion: CompanionStatement | undefined): Promise<ResolvedCaller> {
    const { userId, settingsMark, companionRows, lastUseFreshUntil } = await this.checkApiKey(digest, companion);
    const caller = await this.callerOf(userId, settingsMark, { kind: 'api_key' }, () => TrackerError.of(Errors.API_KEY_NOT_VALID), guess);
    return { caller, companionRows, lastUseFreshUntil };
  }

  private async tokenCaller(token: string, digest: string, ip: string, guess: Caller | undefined, companion: CompanionStatement | undefined): Promise<ResolvedCaller> {
    const { userId, tokenId, settingsMark, companionRows, lastUseFreshUntil } = await this.checkToken(token, digest, ip, companion);
    const caller = await this.callerOf(userId, settingsMark, { kind: 'token', tokenId }, () => TrackerError.of(Errors.INVALID_COOKIES_OR_TOKEN), guess);
    return { caller, companionRows, lastUseFreshUntil };
  }

  private async anonymousCaller(guess: Caller | undefined, companion: CompanionStatement | undefined): Promise<ResolvedCaller> {
    if (!this.fastPaths) return { caller: Caller.anonymous(await this.parametersService.load()), companionRows: [], lastUseFreshUntil: 0 };
    const { mark, companionRows } = await this.marks.settingsMark(companion);
    const caller = guess?.settingsMark === mark ? guess : Caller.anonymous(await this.parametersService.at(mark), mark);
    return { caller, companionRows, lastUseFreshUntil: 0 };
  }

  async callerFor(user: UserRecord, parameters: Parameters, credential: Caller['credential']): Promise<Caller> {
    const groups = await this.groups.membershipsOf(user.id);
    return new Caller({ id: user.id, login: user.login, realName: user.realName, email: user.email }, groups, parameters, credential);
  }

  /**
   * The caller behind a verified key or token. Parameters, the user row and memberships live in settings tables, so
   * they are kept per instance while the settings mark read with the credential is unchanged (any write to them moves
   * it, ChangeMarkSubscriber): a warm request costs the credential's statement alone, and filing or changing bugs —
   * activity, which leaves the settings mark alone — leaves them kept. The `guess` (the caller this credential
   * named last) is the answer itself when it is that user, with that credential, under that mark.
   */
  private async callerOf(userId: number, mark: number, credential: Caller['credential'], unknownUser: () => TrackerError, guess?: Caller): Promise<Caller> {
    if (guess?.id === userId && guess.settingsMark === mark && guess.credential.kind === credential.kind && guess.credential.tokenId === credential.tokenId) return guess;
    const keptUnder = this.fastPaths ? mark : undefined;
    const [user, groups, parameters] = await Promise.all([
      this.users.findByIdsAt(keptUnder, [userId]).then((found) => found.get(userId)),
      this.groups.membershipsOfManyAt(keptUnder, [userId]).then((found) => found.get(userId)!),
      this.parametersService.at(keptUnder),
    ]);
    if (!user) throw unknownUser();
    this.assertEnabled(user, parameters);
    return new Caller({ id: user.id, login: user.login, realName: user.realName, email: user.email }, groups, parameters, credential, keptUnder);
  }

  /**
   * Password check for any request. With the caller's address, the lockout rule applies (defaults.md): a locked
   * address is refused before the password is looked at, each failure is recorded, and a success clears them.
   */
  async checkPassword(login: string, password: string, parameters: Parameters, ip?: string): Promise<UserRecord> {
    const user = await this.users.findByLogin(login);
    if (!user) throw TrackerError.of(Errors.INVALID_LOGIN_OR_PASSWORD);
    const now = new Date();
    const attempt = ip === undefined ? undefined : await this.failures.reserveAttempt(user.id, ip, now);
    if (!(await verifyPassword(password, user.cryptpassword))) {
      throw attempt ? this.failures.failed(attempt) : TrackerError.of(Errors.INVALID_LOGIN_OR_PASSWORD);
    }
    if (attempt) await this.failures.succeeded(attempt);
    this.assertEnabled(user, parameters);
    if (passwordNeedsRehash(user.cryptpassword)) await this.users.rehashPassword(user.id, user.cryptpassword!, await hashPassword(password));
    return user;
  }

  assertEnabled(user: UserRecord, parameters: Parameters): void {
    if (user.loginDeniedText.trim() !== '') {
      throw TrackerError.of(Errors.ACCOUNT_DISABLED, { reason: user.loginDeniedText, maintainer: parameters.get('maintainer') });
    }
  }

  /**
   * A live login token's user (the token trimmed, and its digest), with the settings mark and a companion read's
   * rows; refreshes its last use (at most once a minute).
   */
  private async checkToken(token: string, digest: string, ip: string, companion: CompanionStatement | undefined): Promise<CheckedCredential & { tokenId: number }> {
    const invalid = () => TrackerError.of(Errors.INVALID_COOKIES_OR_TOKEN);
    const userId = tokenUserId(token);
    if (userId === undefined) throw invalid();
    const { token: row, companionRows } = await this.checks.tokenByDigest(this.db.read, digest, companion);
    if (!row || row.userId !== userId) throw invalid();
    if (row.ipAddr && row.ipAddr !== ip) throw invalid();
    if (Date.now() - storedTimeMs(row.lastUsed) > TOKEN_LIFETIME_MS) {
      await this.db.transaction((tx) => this.credentials.deleteToken(tx, row.id));
      throw invalid();
    }
    const lastUseFreshUntil = await this.refreshLastUse(row.lastUsed, (tx, now) => this.credentials.touchToken(tx, row.id, now));
    return { userId: row.userId, tokenId: row.id, settingsMark: row.settingsMark, companionRows, lastUseFreshUntil };
  }

  /**
   * The user id of a valid, unrevoked key (by its digest), with the settings mark and a companion read's rows;
   * refreshes its last use (at most once a minute).
   */
  private async checkApiKey(digest: string, companion: CompanionStatement | undefined): Promise<CheckedCredential> {
    const { key: row, companionRows } = await this.checks.apiKeyByDigest(this.db.read, digest, companion);
    if (!row) throw TrackerError.of(Errors.API_KEY_NOT_VALID);
    if (row.revoked) throw TrackerError.of(Errors.API_KEY_REVOKED);
    const lastUseFreshUntil = await this.refreshLastUse(row.lastUsed, (tx, now) => this.credentials.touchApiKey(tx, row.id, now));
    return { userId: row.userId, settingsMark: row.settingsMark, companionRows, lastUseFreshUntil };
  }

  /** Refreshes a credential's last use when due (`touch`); answers until when it needs no refresh. */
  private async refreshLastUse(lastUsed: string | null, touch: (tx: Sql, now: string) => Promise<void>): Promise<number> {
    if (lastUsed !== null && lastUsed >= lastUseRefreshBound()) return storedTimeMs(lastUsed) + LAST_USED_RESOLUTION_MS;
    const now = new Date();
    await this.db.transaction((tx) => touch(tx, toDbDateTime(now)));
    return now.getTime() + LAST_USED_RESOLUTION_MS;
  }
}

/** A credential's statement, checked. */
interface CheckedCredential {
  userId: number;
  settingsMark: number;
  companionRows: Row[];
  lastUseFreshUntil: number;
}

interface ResolvedCaller {
  caller: Caller;
  companionRows: Row[];
  lastUseFreshUntil: number;
}

/** The user id a login token starts with (`<user id>-<secret>`), or undefined when it is not of that form. */
function tokenUserId(token: string): number | undefined {
  const match = /^(\d+)-(.+)$/.exec(token);
  return match ? Number(match[1]) : undefined;
}

/**
 * The companion's plan for the guessed caller. A companion read only saves a round trip: a request it cannot plan
 * (a malformed parameter, say) reads for itself and meets its own error there, never here in the caller's.
 */
function planOf(companion: CompanionAsk, guess: Caller): CompanionPlan<unknown> | undefined {
  try {
    return companion.read.plan(companion.request, guess);
  } catch (error) {
    if (error instanceof TrackerError) return undefined;
    throw error;
  }
}
