import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { findRows, insertRows } from '../database/entity-rows.js';
import { Keyword } from './entities/keyword.entity.js';

/** The settable columns of a keyword. */
export type KeywordChanges = Partial<Omit<Keyword, 'id'>>;

/** The keywords table. */
@Injectable()
export class KeywordRepository {
  /** Every keyword, by name. */
  findAll(sql: ReadSql): Promise<Keyword[]> {
    return sql.repository(Keyword).find({ order: { name: 'ASC' } });
  }

  findByIds(sql: ReadSql, ids: readonly number[]): Promise<Keyword[]> {
    return findRows(sql.repository(Keyword), { id: ids });
  }

  /** Names compare case-insensitively (the column's collation). */
  findByNames(sql: ReadSql, names: readonly string[]): Promise<Keyword[]> {
    return names.length ? sql.repository(Keyword).findBy({ name: In(names) }) : Promise.resolve([]);
  }

  async insert(sql: Sql, keyword: Omit<Keyword, 'id'>): Promise<number> {
    return insertRows(sql.repository(Keyword), [keyword]);
  }

  async update(sql: Sql, id: number, changes: KeywordChanges): Promise<void> {
    await sql.repository(Keyword).update({ id }, changes);
  }
}
