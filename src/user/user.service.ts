import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import { AuditService } from '../audit/audit.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { GroupService, type AccountDirectory } from '../group/group.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { hashPassword } from '../common/credentials.js';
import { normalisePassword, validateEmail, validatePassword } from './user-rules.js';
import { UserRepository } from './user.repository.js';
import type { User } from './entities/user.entity.js';
import { KeptReads } from '../common/kept-reads.js';

export const USER_AUDIT_CLASS = 'Tracker::User';

/** Runs inside the transaction that changed a user's login, password or disable text (the auth module ends their tokens). */
export type CredentialsChangedListener = (tx: Sql, userId: number) => Promise<void>;

/** A user row as the rest of the service needs it. */
export interface UserRecord {
  id: number;
  login: string;
  email: string;
  realName: string;
  cryptpassword: string | null;
  loginDeniedText: string;
  emailEnabled: boolean;
}

function toUser(user: User): UserRecord {
  return {
    id: user.id,
    login: user.loginName,
    email: user.email,
    realName: user.realname,
    cryptpassword: user.cryptpassword,
    loginDeniedText: user.loginDeniedText,
    emailEnabled: user.emailEnabled,
  };
}

@Injectable()
export class UserService implements AccountDirectory, OnModuleInit {
  private readonly credentialsChangedListeners: CredentialsChangedListener[] = [];

  private readonly kept = new KeptReads();

  constructor(
    private readonly db: Db,
    private readonly groups: GroupService,
    private readonly audit: AuditService,
    private readonly parameters: ParametersService,
    private readonly accounts: UserRepository,
  ) {}

  /** The group module reads accounts (logins for regexp memberships, members' details) through this service. */
  onModuleInit(): void {
    this.groups.useAccounts(this);
  }

  /**
   * Create User (seed "Users and login"), also used by the admin command line: the address is trimmed and
   * checked (32000 when empty, 501, 500 when taken), a non-blank password trimmed and checked (502/305; blank
   * means the account cannot log in with a password), regexp memberships applied, the creation audited.
   */
  async create(input: { email: string; fullName?: string; password?: string }, actor: { userId: number | null; now: Date }): Promise<number> {
    const parameters = await this.parameters.load();
    const email = (input.email ?? '').trim();
    if (!email) throw TrackerError.of(Errors.USER_LOGIN_REQUIRED);
    validateEmail(email, parameters.get('emailregexp'), parameters.get('emailregexpdesc'));
    const password = normalisePassword(input.password);
    if (password) validatePassword(password, parameters.get('password_complexity'));
    const cryptpassword = password ? await hashPassword(password) : null;
    const at = toDbDateTime(actor.now);
    return this.db.transaction(async (tx) => {
      await this.assertLoginFree(tx, email);
      const id = await this.accounts.insert(tx, {
        loginName: email, email, realname: (input.fullName ?? '').trim(), cryptpassword,
        loginDeniedText: '', emailEnabled: true, creationTs: at,
      });
      await this.groups.joinRegexpGroups(tx, id, email);
      await this.audit.recordCreate(tx, { userId: actor.userId, className: USER_AUDIT_CLASS, objectId: id, added: email, at });
      return id;
    });
  }

  /**
   * The administrator of a fresh install, without the checks and the audit of Create User: the install writes its
   * memberships itself (GroupService.installMemberships). Returns the new id.
   */
  async installAdministrator(tx: Sql, admin: { login: string; realName: string; cryptpassword: string; at: string }): Promise<number> {
    return this.accounts.insert(tx, {
      loginName: admin.login, email: admin.login, realname: admin.realName, cryptpassword: admin.cryptpassword,
      loginDeniedText: '', emailEnabled: true, creationTs: admin.at,
    });
  }

  /**
   * Replaces a password hash in an older scheme (one imported from Bugzilla) by one in the current scheme, after a
   * login proved the password: the same password, so no credential changes and no audit. Only while the stored hash
   * is still the one the login checked (two logins at once rehash once).
   */
  async rehashPassword(userId: number, checked: string, cryptpassword: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.accounts.findById(tx, userId);
      if (current?.cryptpassword === checked) await this.accounts.update(tx, userId, { cryptpassword });
    });
  }

  /** 500 when another account already has this login (logins compare case-insensitively). */
  async assertLoginFree(tx: Sql, login: string, exceptUserId?: number): Promise<void> {
    const existing = await this.findByLogin(login, tx);
    if (existing && existing.id !== exceptUserId) throw TrackerError.of(Errors.ACCOUNT_EXISTS, { email: login });
  }

  /** The auth module registers here so that the user module never writes login tokens itself. */
  onCredentialsChanged(listener: CredentialsChangedListener): void {
    this.credentialsChangedListeners.push(listener);
  }

  async credentialsChanged(tx: Sql, userId: number): Promise<void> {
    for (const listener of this.credentialsChangedListeners) await listener(tx, userId);
  }

  /**
   * Serialises the transaction with every other that locks this user (login attempts count and reserve under it),
   * until it ends.
   */
  lock(tx: Sql, userId: number): Promise<void> {
    return this.accounts.lock(tx, userId);
  }

  async findById(id: number, sql: ReadSql = this.db.read): Promise<UserRecord | undefined> {
    const user = await this.accounts.findById(sql, id);
    return user ? toUser(user) : undefined;
  }

  /** Logins compare case-insensitively (the column's collation). */
  async findByLogin(login: string, sql: ReadSql = this.db.read): Promise<UserRecord | undefined> {
    const user = await this.accounts.findByLogin(sql, login.trim());
    return user ? toUser(user) : undefined;
  }

  /** Many users by id in one query (for the *_detail objects of a page of bugs). */
  async findByIds(ids: readonly number[], sql: ReadSql = this.db.read): Promise<Map<number, UserRecord>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    return new Map((await this.accounts.findByIds(sql, unique)).map((user) => [user.id, toUser(user)]));
  }

  /**
   * findByIds kept under a settings mark (KeptReads): users is a settings table, so no change to a user can leave
   * the mark where it was. For caller resolution and bug mail, which name the same few people again and again.
   */
  findByIdsAt(settingsMark: number | undefined, ids: readonly number[], sql: ReadSql = this.db.read): Promise<ReadonlyMap<number, UserRecord>> {
    return this.kept.throughEach(settingsMark, 'usersById', ids, (missing) => this.findByIds(missing, sql));
  }

  /**
   * findByLogins kept under a settings mark, as findByIdsAt, each login kept as it was asked (trimmed): Update and
   * Create Bug name the same few people (cc, assignee) again and again. Keyed by lower-cased login, as findByLogins.
   */
  async findByLoginsAt(settingsMark: number | undefined, logins: readonly string[], sql: ReadSql = this.db.read): Promise<Map<string, UserRecord>> {
    const asked = logins.map((login) => login.trim()).filter((login) => login !== '');
    const byAsked = await this.kept.throughEach(settingsMark, 'usersByLogin', asked, async (missing) => {
      const found = await this.findByLogins(missing, sql);
      return new Map(missing.flatMap((login) => {
        const user = found.get(login.toLowerCase());
        return user ? [[login, user] as const] : [];
      }));
    });
    return new Map([...byAsked.values()].map((user) => [user.login.toLowerCase(), user]));
  }

  /** Users by id, ordered by login; unknown ids are skipped. */
  async listByIds(ids: readonly number[], sql: ReadSql = this.db.read): Promise<UserRecord[]> {
    const unique = [...new Set(ids)];
    if (!unique.length) return [];
    return (await this.accounts.listByIds(sql, unique)).map(toUser);
  }

  /** Many users by login, keyed by lower-cased login. */
  async findByLogins(logins: readonly string[], sql: ReadSql = this.db.read): Promise<Map<string, UserRecord>> {
    const unique = [...new Set(logins.map((l) => l.trim()))];
    if (!unique.length) return new Map();
    return new Map((await this.accounts.findByLogins(sql, unique)).map((user) => [user.loginName.toLowerCase(), toUser(user)]));
  }

  /** Every account's id and login. */
  async allLogins(sql: ReadSql = this.db.read): Promise<Array<{ id: number; login: string }>> {
    return (await this.accounts.allLogins(sql)).map((user) => ({ id: user.id, login: user.loginName }));
  }

  /**
   * Accounts whose login or real name contains `text`, enabled ones only unless `includeDisabled`, ordered by login,
   * at most `limit` of them (0: no cap).
   */
  async matching(text: string, options: { includeDisabled: boolean; limit: number }, sql: ReadSql = this.db.read): Promise<UserRecord[]> {
    return (await this.accounts.matching(sql, text, options)).map(toUser);
  }

  /** User.suggest's candidates (UserRepository.suggestions). */
  async suggestions(terms: { loginPrefix?: string; realNameWords?: readonly string[] }, limit: number, sql: ReadSql = this.db.read): Promise<UserRecord[]> {
    return (await this.accounts.suggestions(sql, terms, limit)).map(toUser);
  }
}
