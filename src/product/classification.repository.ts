import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { Classification } from './entities/classification.entity.js';

/** The settable columns of a classification. */
export type ClassificationChanges = Partial<Omit<Classification, 'id'>>;

/** The classifications table. */
@Injectable()
export class ClassificationRepository {
  /** Names compare case-insensitively (the column's collation). */
  findByName(sql: ReadSql, name: string): Promise<Classification | null> {
    return sql.repository(Classification).findOneBy({ name });
  }

  findByIdsOrNames(sql: ReadSql, ids: readonly number[], names: readonly string[]): Promise<Classification[]> {
    const where = [...(ids.length ? [{ id: In(ids) }] : []), ...(names.length ? [{ name: In(names) }] : [])];
    return where.length ? sql.repository(Classification).find({ where }) : Promise.resolve([]);
  }

  /** Every classification in Bugzilla's order (Bugzilla::Classification's LIST_ORDER: sort key, then name). */
  findAll(sql: ReadSql): Promise<Classification[]> {
    return sql.repository(Classification).find({ order: { sortkey: 'ASC', name: 'ASC' } });
  }

  insert(sql: Sql, classification: Omit<Classification, 'id'>): Promise<number> {
    return insertRows(sql.repository(Classification), [classification]);
  }

  async update(sql: Sql, id: number, changes: ClassificationChanges): Promise<void> {
    await sql.repository(Classification).update({ id }, changes);
  }
}
