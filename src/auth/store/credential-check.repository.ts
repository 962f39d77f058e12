import { Injectable } from '@nestjs/common';
import type { Row, Sql, Statement, ReadSql } from '../../database/sql.js';
import { companionJoin, companionRows } from '../../database/companion.js';
import type { CompanionStatement } from '../../common/http/companion-read.js';
import { settingsMarkSql } from '../../audit/store/settings-mark.service.js';

/** A login token as the caller resolver checks it, with the settings mark read in the same statement. */
export interface TokenCheck {
  id: number;
  userId: number;
  ipAddr: string | null;
  lastUsed: string;
  settingsMark: number;
}

/** An API key as the caller resolver checks it, with the settings mark read in the same statement. */
export interface ApiKeyCheck {
  id: number;
  userId: number;
  revoked: boolean;
  lastUsed: string | null;
  settingsMark: number;
}

/**
 * The credential statements of every request on the api_keys and login_tokens tables (AuthRepository writes them):
 * hand-written, one statement each, every name quoted, carrying the settings mark and, when a route asks for it, its
 * companion read; and the checks a write that presumed its caller commits under.
 */
@Injectable()
export class CredentialCheckRepository {
  /** The token with the settings mark; with a companion read, its rows in the same statement (companionJoin). */
  async tokenByDigest(sql: ReadSql, tokenHash: string, companion?: CompanionStatement): Promise<{ token?: TokenCheck; companionRows: Row[] }> {
    const q = sql.quote;
    const join = companionJoin(companion);
    const rows = await sql.all<{ id: number; user_id: number; ip_addr: string | null; last_used: string; settings_mark: number | null }>(
      `SELECT ${join.columns}${q('t.id')}, ${q('t.user_id')}, ${q('t.ip_addr')}, ${q('t.last_used')}, ${settingsMarkSql(q)} AS ${q('settings_mark')}
         FROM ${q('login_tokens')} t ${join.join} WHERE ${q('t.token_hash')} = ?`,
      [...join.params, tokenHash],
    );
    const row = rows[0];
    const token = row && { id: Number(row.id), userId: Number(row.user_id), ipAddr: row.ip_addr, lastUsed: row.last_used, settingsMark: Number(row.settings_mark ?? 0) };
    return { token, companionRows: companionRows(rows) };
  }

  /** The key with the settings mark; with a companion read, its rows in the same statement (companionJoin). */
  async apiKeyByDigest(sql: ReadSql, keyHash: string, companion?: CompanionStatement): Promise<{ key?: ApiKeyCheck; companionRows: Row[] }> {
    const q = sql.quote;
    const join = companionJoin(companion);
    const rows = await sql.all<{ id: number; user_id: number; revoked: number; last_used: string | null; settings_mark: number | null }>(
      `SELECT ${join.columns}${q('k.id')}, ${q('k.user_id')}, ${q('k.revoked')}, ${q('k.last_used')}, ${settingsMarkSql(q)} AS ${q('settings_mark')}
         FROM ${q('api_keys')} k ${join.join} WHERE ${q('k.key_hash')} = ?`,
      [...join.params, keyHash],
    );
    const row = rows[0];
    const key = row && {
      id: Number(row.id), userId: Number(row.user_id), revoked: Number(row.revoked) === 1, lastUsed: row.last_used,
      settingsMark: Number(row.settings_mark ?? 0),
    };
    return { key, companionRows: companionRows(rows) };
  }

  /**
   * A statement that fails unless the key (by digest) is unrevoked and still names `userId` under settings mark
   * `mark`: the commit condition of a write that presumed its caller (PresumedCaller). MySQL only (failUnless).
   */
  presumedKeyCheck(q: Sql['quote'], keyHash: string, userId: number, mark: number): Statement {
    return failUnless(
      `SELECT 1 FROM ${q('api_keys')} k WHERE ${q('k.key_hash')} = ? AND ${q('k.revoked')} = 0 AND ${q('k.user_id')} = ?
         AND COALESCE(${settingsMarkSql(q)}, 0) = ?`,
      [keyHash, userId, mark],
    );
  }

  /** As presumedKeyCheck, for login token `tokenId` (by digest) used from `ip`. */
  presumedTokenCheck(q: Sql['quote'], tokenHash: string, tokenId: number, userId: number, ip: string, mark: number): Statement {
    return failUnless(
      `SELECT 1 FROM ${q('login_tokens')} t WHERE ${q('t.token_hash')} = ? AND ${q('t.id')} = ? AND ${q('t.user_id')} = ?
         AND (${q('t.ip_addr')} IS NULL OR ${q('t.ip_addr')} IN ('', ?)) AND COALESCE(${settingsMarkSql(q)}, 0) = ?`,
      [tokenHash, tokenId, userId, ip, mark],
    );
  }
}

/**
 * A statement failing unless `exists` finds a row: the largest BIGINT UNSIGNED plus one is an error in MySQL and
 * MariaDB whatever the SQL mode (1690, ER_DATA_OUT_OF_RANGE), plus zero is a value. No temporary table, no derived
 * one: it costs the database the EXISTS alone. SQLite computes such a sum in floating point, so there is no such
 * statement there.
 */
function failUnless(exists: string, params: Statement['params']): Statement {
  return { sql: `SELECT ~0 + (NOT EXISTS (${exists})) AS \`caller_unchanged\``, params };
}
