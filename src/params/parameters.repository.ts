import { Injectable } from '@nestjs/common';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { Parameter } from './entities/parameter.entity.js';

/** The parameters table: one row per parameter set away from its default (and the site secret). */
@Injectable()
export class ParametersRepository {
  all(sql: ReadSql): Promise<Parameter[]> {
    return sql.repository(Parameter).find();
  }

  async insertAll(tx: Sql, parameters: readonly Parameter[]): Promise<void> {
    await insertRows(tx.repository(Parameter), parameters);
  }

  /** Sets a value, inserting the row when the parameter still had its default. */
  async save(tx: Sql, name: string, value: string): Promise<void> {
    await tx.repository(Parameter).upsert({ name, value }, ['name']);
  }
}
