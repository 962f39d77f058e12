import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';

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
  constructor(private readonly db: Db) {}

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
