import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { AuditService } from '../audit/audit.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { GroupService } from '../group/group.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { hashPassword } from '../auth/credentials.js';
import { normalisePassword, validateEmail, validatePassword } from './user-rules.js';

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

const USER_COLUMNS = 'id, login_name, email, realname, cryptpassword, login_denied_text, email_enabled';

function toUser(row: Record<string, any>): UserRecord {
  return {
    id: Number(row.id),
    login: row.login_name,
    email: row.email,
    realName: row.realname ?? '',
    cryptpassword: row.cryptpassword,
    loginDeniedText: row.login_denied_text ?? '',
    emailEnabled: Number(row.email_enabled) === 1,
  };
}

@Injectable()
export class UserService {
  private readonly credentialsChangedListeners: CredentialsChangedListener[] = [];

  constructor(
    private readonly db: Db,
    private readonly groups: GroupService,
    private readonly audit: AuditService,
    private readonly parameters: ParametersService,
  ) {}

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
      const id = await tx.insert('users', {
        login_name: email, email, realname: (input.fullName ?? '').trim(), cryptpassword,
        login_denied_text: '', email_enabled: 1, creation_ts: at,
      });
      await this.groups.deriveRegexpGroupsOfUser(tx, id, email);
      await this.audit.recordCreate(tx, { userId: actor.userId, className: USER_AUDIT_CLASS, objectId: id, added: email, at });
      return id;
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

  async findById(id: number, sql: Sql = this.db.read): Promise<UserRecord | undefined> {
    const row = await sql.one(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
    return row && toUser(row);
  }

  /** Logins compare case-insensitively (the column's collation). */
  async findByLogin(login: string, sql: Sql = this.db.read): Promise<UserRecord | undefined> {
    const row = await sql.one(`SELECT ${USER_COLUMNS} FROM users WHERE login_name = ?`, [login.trim()]);
    return row && toUser(row);
  }

  /** Many users by id in one query (for the *_detail objects of a page of bugs). */
  async findByIds(ids: readonly number[], sql: Sql = this.db.read): Promise<Map<number, UserRecord>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT ${USER_COLUMNS} FROM users WHERE id IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [Number(row.id), toUser(row)]));
  }

  async findByLogins(logins: readonly string[], sql: Sql = this.db.read): Promise<Map<string, UserRecord>> {
    const unique = [...new Set(logins.map((l) => l.trim()))];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT ${USER_COLUMNS} FROM users WHERE login_name IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [String(row.login_name).toLowerCase(), toUser(row)]));
  }
}
