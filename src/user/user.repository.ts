import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { findRows, insertRows } from '../database/entity-rows.js';
import { likeEscape } from '../database/dialect.js';
import { User } from './entities/user.entity.js';
import { SavedSearch } from './entities/saved-search.entity.js';
import { SavedReport } from './entities/saved-report.entity.js';

/** A new account's columns (the id and the creation time's defaults are the database's). */
export type NewUser = Pick<User, 'loginName' | 'email' | 'realname' | 'cryptpassword' | 'loginDeniedText' | 'emailEnabled' | 'creationTs'>;

/** The columns Update User may change. */
export type UserChanges = Partial<Pick<User, 'loginName' | 'email' | 'realname' | 'cryptpassword' | 'loginDeniedText' | 'emailEnabled'>>;

/** A saved search or report as Get User shows it to its owner. */
export interface SavedQuery {
  id: number;
  name: string;
  query: string;
}

/** The users, saved_searches and saved_reports tables. Logins compare case-insensitively (the column's collation). */
@Injectable()
export class UserRepository {
  findById(sql: ReadSql, id: number): Promise<User | null> {
    return sql.repository(User).findOneBy({ id });
  }

  /** Locks the user's row for the rest of the transaction (MySQL; SQLite's writer is alone). */
  async lock(tx: Sql, id: number): Promise<void> {
    if (tx.dialect !== 'mysql') return;
    await tx.repository(User).createQueryBuilder('u').select('u.id').where('u.id = :id', { id }).setLock('pessimistic_write').getRawOne();
  }

  findByLogin(sql: ReadSql, login: string): Promise<User | null> {
    return sql.repository(User).findOneBy({ loginName: login });
  }

  findByIds(sql: ReadSql, ids: readonly number[]): Promise<User[]> {
    return findRows(sql.repository(User), { id: ids });
  }

  /** Users by id, ordered by login. */
  listByIds(sql: ReadSql, ids: readonly number[]): Promise<User[]> {
    return sql.repository(User).find({ where: { id: In(ids) }, order: { loginName: 'ASC' } });
  }

  findByLogins(sql: ReadSql, logins: readonly string[]): Promise<User[]> {
    return findRows(sql.repository(User), { loginName: logins });
  }

  /** Every account's id and login. */
  allLogins(sql: ReadSql): Promise<Array<Pick<User, 'id' | 'loginName'>>> {
    return sql.repository(User).find({ select: { id: true, loginName: true } });
  }

  /**
   * Accounts whose login or real name contains `text` (any case), enabled ones only unless `includeDisabled`,
   * ordered by login, at most `limit` of them (0: no cap).
   */
  matching(sql: ReadSql, text: string, options: { includeDisabled: boolean; limit: number }): Promise<User[]> {
    // MySQL's LIKE escapes with a backslash by default; SQLite needs it said.
    const like = sql.dialect === 'mysql' ? 'LIKE :pattern' : "LIKE :pattern ESCAPE '\\'";
    const query = sql.repository(User).createQueryBuilder('u')
      .where(`(u.loginName ${like} OR u.realname ${like})`, { pattern: `%${likeEscape(text)}%` })
      .orderBy('u.loginName');
    if (!options.includeDisabled) query.andWhere("u.loginDeniedText = ''");
    if (options.limit) query.limit(options.limit);
    return query.getMany();
  }

  /**
   * User.suggest's candidates (BMO): enabled accounts whose login begins with `loginPrefix`, or (with `realNameWords`)
   * whose real name has a word beginning with each of them; ordered by login, at most `limit`.
   */
  suggestions(sql: ReadSql, terms: { loginPrefix?: string; realNameWords?: readonly string[] }, limit: number): Promise<User[]> {
    const test = (pattern: string) => (sql.dialect === 'mysql' ? `LIKE :${pattern}` : `LIKE :${pattern} ESCAPE '\\'`);
    const alternatives: string[] = [];
    const params: Record<string, string> = {};
    if (terms.loginPrefix !== undefined) {
      alternatives.push(`u.loginName ${test('login')}`);
      params.login = `${likeEscape(terms.loginPrefix)}%`;
    }
    if (terms.realNameWords?.length) {
      alternatives.push(`(${terms.realNameWords.map((word, i) => {
        params[`first${i}`] = `${likeEscape(word)}%`;
        params[`inner${i}`] = `% ${likeEscape(word)}%`;
        return `(u.realname ${test(`first${i}`)} OR u.realname ${test(`inner${i}`)})`;
      }).join(' AND ')})`);
    }
    return sql.repository(User).createQueryBuilder('u')
      .where(`(${alternatives.join(' OR ')})`, params)
      .andWhere("u.loginDeniedText = ''")
      .orderBy('u.loginName')
      .limit(limit)
      .getMany();
  }

  insert(tx: Sql, user: NewUser): Promise<number> {
    return insertRows(tx.repository(User), [user]);
  }

  async update(tx: Sql, id: number, changes: UserChanges): Promise<void> {
    await tx.repository(User).update({ id }, changes);
  }

  savedSearches(sql: ReadSql, userId: number): Promise<SavedQuery[]> {
    return sql.repository(SavedSearch).find({ select: { id: true, name: true, query: true }, where: { userId }, order: { name: 'ASC' } });
  }

  savedReports(sql: ReadSql, userId: number): Promise<SavedQuery[]> {
    return sql.repository(SavedReport).find({ select: { id: true, name: true, query: true }, where: { userId }, order: { name: 'ASC' } });
  }
}
