import { Injectable } from '@nestjs/common';
import { LessThan, MoreThan } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { ApiKey } from './entities/api-key.entity.js';
import { LoginToken } from './entities/login-token.entity.js';
import { LoginFailure } from './entities/login-failure.entity.js';

/** The columns of an API key its owner may change. */
export type ApiKeyChanges = Partial<Pick<ApiKey, 'description' | 'revoked'>>;

/**
 * The api_keys, login_tokens and login_failures tables. Secrets are stored as digests only. The credential reads of
 * every request are CredentialCheckRepository's (src/auth/store).
 */
@Injectable()
export class AuthRepository {
  async insertToken(tx: Sql, token: Pick<LoginToken, 'userId' | 'tokenHash' | 'ipAddr' | 'lastUsed'>): Promise<void> {
    await insertRows(tx.repository(LoginToken), [token]);
  }

  async touchToken(tx: Sql, id: number, lastUsed: string): Promise<void> {
    await tx.repository(LoginToken).update({ id }, { lastUsed });
  }

  async deleteToken(tx: Sql, id: number): Promise<void> {
    await tx.repository(LoginToken).delete({ id });
  }

  async deleteTokensOf(tx: Sql, userId: number): Promise<void> {
    await tx.repository(LoginToken).delete({ userId });
  }

  async deleteTokensUnusedSince(tx: Sql, lastUsed: string): Promise<void> {
    await tx.repository(LoginToken).delete({ lastUsed: LessThan(lastUsed) });
  }

  insertApiKey(tx: Sql, key: Pick<ApiKey, 'userId' | 'keyHash' | 'description' | 'revoked' | 'creationTs'>): Promise<number> {
    return insertRows(tx.repository(ApiKey), [key]);
  }

  /** A user's keys, oldest first. */
  apiKeysOf(sql: ReadSql, userId: number): Promise<ApiKey[]> {
    return sql.repository(ApiKey).find({ where: { userId }, order: { id: 'ASC' } });
  }

  apiKeyOf(sql: Sql, userId: number, id: number): Promise<ApiKey | null> {
    return sql.repository(ApiKey).findOneBy({ id, userId });
  }

  async updateApiKey(tx: Sql, id: number, changes: ApiKeyChanges): Promise<void> {
    await tx.repository(ApiKey).update({ id }, changes);
  }

  async touchApiKey(tx: Sql, id: number, lastUsed: string): Promise<void> {
    await tx.repository(ApiKey).update({ id }, { lastUsed });
  }

  /** The times of this account's failed logins from this address after `since`, oldest first. */
  async failureTimes(sql: Sql, userId: number, ipAddr: string, since: string): Promise<string[]> {
    const rows = await sql.repository(LoginFailure).find({
      select: { loginTime: true }, where: { userId, ipAddr, loginTime: MoreThan(since) }, order: { loginTime: 'ASC' },
    });
    return rows.map((row) => row.loginTime);
  }

  async insertFailure(tx: Sql, failure: Pick<LoginFailure, 'userId' | 'ipAddr' | 'loginTime'>): Promise<void> {
    await insertRows(tx.repository(LoginFailure), [failure]);
  }

  async deleteFailures(tx: Sql, userId: number, ipAddr: string): Promise<void> {
    await tx.repository(LoginFailure).delete({ userId, ipAddr });
  }
}
