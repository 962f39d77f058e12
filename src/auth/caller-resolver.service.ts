import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { Caller, type CallerGroups } from '../common/caller.js';
import { MarkedCache } from '../common/marked-cache.js';
import { AuditService } from '../audit/audit.service.js';
import type { CallerResolver } from '../common/guards/caller-resolver.js';
import type { Credentials } from '../common/http/request-params.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { ParametersService, type Parameters } from '../params/parameters.service.js';
import { UserService, type UserRecord } from '../user/user.service.js';
import { GroupService } from '../group/group.service.js';
import { digestSecret, verifyPassword } from '../common/credentials.js';
import { LoginFailuresService } from './login-failures.service.js';
import { AuthRepository } from './auth.repository.js';


/** Login tokens die after this long unused (defaults.md). */
export const TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** last_used of keys and tokens is refreshed at most this often, so reads do not each cost a write. */
const LAST_USED_RESOLUTION_MS = 60 * 1000;

/**
 * Resolves the caller of a request from its credentials (misc.md, "Authentication"): login + password first,
 * then a login token, then an API key. Invalid credentials are errors, never a silent anonymous caller.
 */
@Injectable()
export class CallerResolverService implements CallerResolver {
  private readonly usersByMark = new MarkedCache<number, UserRecord | undefined>();
  private readonly membershipsByMark = new MarkedCache<number, CallerGroups>();

  constructor(
    private readonly db: Db,
    private readonly credentials: AuthRepository,
    private readonly audit: AuditService,
    private readonly parametersService: ParametersService,
    private readonly users: UserService,
    private readonly groups: GroupService,
    private readonly failures: LoginFailuresService,
  ) {}

  async resolve(credentials: Credentials, ip: string): Promise<Caller> {
    if (credentials.login !== undefined && credentials.password !== undefined) {
      const parameters = await this.parametersService.load();
      const user = await this.checkPassword(credentials.login, credentials.password, parameters, ip);
      return this.callerFor(user, parameters, { kind: 'password' });
    }
    if (credentials.token !== undefined) {
      const { userId, tokenId, settingsMark } = await this.checkToken(credentials.token, ip);
      return this.callerOf(userId, settingsMark, { kind: 'token', tokenId }, () => TrackerError.of(Errors.INVALID_COOKIES_OR_TOKEN));
    }
    if (credentials.apiKey !== undefined) {
      const { userId, settingsMark } = await this.checkApiKey(credentials.apiKey);
      return this.callerOf(userId, settingsMark, { kind: 'api_key' }, () => TrackerError.of(Errors.API_KEY_NOT_VALID));
    }
    const settingsMark = await this.audit.settingsMark();
    return Caller.anonymous(await this.parametersService.at(settingsMark), settingsMark);
  }

  async callerFor(user: UserRecord, parameters: Parameters, credential: Caller['credential']): Promise<Caller> {
    const groups = await this.groups.membershipsOf(user.id);
    return new Caller({ id: user.id, login: user.login, realName: user.realName, email: user.email }, groups, parameters, credential);
  }

  /**
   * The caller behind a verified key or token. Parameters, the user row and memberships live in settings tables, so
   * they are kept per instance while the settings mark read with the credential is unchanged (any write to them moves
   * it, ChangeMarkSubscriber): a warm request costs the credential's statement alone, and filing or changing bugs —
   * which moves the audit mark, not the settings mark — leaves them kept.
   */
  private async callerOf(userId: number, mark: number, credential: Caller['credential'], unknownUser: () => TrackerError): Promise<Caller> {
    const [user, groups, parameters] = await Promise.all([
      this.usersByMark.through(userId, mark, () => this.users.findById(userId)),
      this.membershipsByMark.through(userId, mark, () => this.groups.membershipsOf(userId)),
      this.parametersService.at(mark),
    ]);
    if (!user) throw unknownUser();
    this.assertEnabled(user, parameters);
    return new Caller({ id: user.id, login: user.login, realName: user.realName, email: user.email }, groups, parameters, credential, mark);
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
    return user;
  }

  assertEnabled(user: UserRecord, parameters: Parameters): void {
    if (user.loginDeniedText.trim() !== '') {
      throw TrackerError.of(Errors.ACCOUNT_DISABLED, { reason: user.loginDeniedText, maintainer: parameters.get('maintainer') });
    }
  }

  /** A live login token's user, with the settings mark; refreshes its last use (at most once a minute). */
  private async checkToken(token: string, ip: string): Promise<{ userId: number; tokenId: number; settingsMark: number }> {
    const invalid = () => TrackerError.of(Errors.INVALID_COOKIES_OR_TOKEN);
    const match = /^(\d+)-(.+)$/.exec(token.trim());
    if (!match) throw invalid();
    const row = await this.credentials.tokenByDigest(this.db.read, digestSecret(token.trim()));
    if (!row || row.userId !== Number(match[1])) throw invalid();
    if (row.ipAddr && row.ipAddr !== ip) throw invalid();
    const lastUsed = Date.parse(toApiDateTime(row.lastUsed)!);
    if (Date.now() - lastUsed > TOKEN_LIFETIME_MS) {
      await this.db.transaction((tx) => this.credentials.deleteToken(tx, row.id));
      throw invalid();
    }
    if (Date.now() - lastUsed > LAST_USED_RESOLUTION_MS) {
      await this.db.transaction((tx) => this.credentials.touchToken(tx, row.id, toDbDateTime(new Date())));
    }
    return { userId: row.userId, tokenId: row.id, settingsMark: row.settingsMark };
  }

  /** The user id of a valid, unrevoked key, with the settings mark; refreshes its last use (at most once a minute). */
  private async checkApiKey(apiKey: string): Promise<{ userId: number; settingsMark: number }> {
    const row = await this.credentials.apiKeyByDigest(this.db.read, digestSecret(apiKey));
    if (!row) throw TrackerError.of(Errors.API_KEY_NOT_VALID);
    if (row.revoked) throw TrackerError.of(Errors.API_KEY_REVOKED);
    const lastUsed = row.lastUsed ? Date.parse(toApiDateTime(row.lastUsed)!) : 0;
    if (Date.now() - lastUsed > LAST_USED_RESOLUTION_MS) {
      await this.db.transaction((tx) => this.credentials.touchApiKey(tx, row.id, toDbDateTime(new Date())));
    }
    return { userId: row.userId, settingsMark: row.settingsMark };
  }
}
