import { Injectable } from '@nestjs/common';
import { In, IsNull, type Repository } from 'typeorm';
import type { ReadRepository, ReadSql, Sql } from '../database/sql.js';
import { findRows, insertRows } from '../database/entity-rows.js';
import { FlagExclusion } from './entities/flag-exclusion.entity.js';
import { FlagInclusion } from './entities/flag-inclusion.entity.js';
import { FlagType } from './entities/flag-type.entity.js';

/** Which list a clusion row is on: inclusions say where a type applies, exclusions where it does not. */
export type ClusionKind = 'inclusions' | 'exclusions';

/** One row of flag_inclusions / flag_exclusions: NULL product or component means "any". */
export type ClusionRow = Pick<FlagInclusion, 'typeId' | 'productId' | 'componentId'>;

/** The columns of a new flag type (the generated id and the group relations aside). */
export type NewFlagType = Omit<FlagType, 'id' | 'grantGroup' | 'requestGroup'>;

/** The settable columns of a flag type. */
export type FlagTypeChanges = Partial<Omit<NewFlagType, 'targetType'>>;

/** Both clusion tables have the same columns: one repository type serves them. */
function clusions(sql: Sql, kind: ClusionKind): Repository<FlagInclusion>;
function clusions(sql: ReadSql, kind: ClusionKind): ReadRepository<FlagInclusion>;
function clusions(sql: ReadSql, kind: ClusionKind): ReadRepository<FlagInclusion> {
  return sql.repository<FlagInclusion>(kind === 'inclusions' ? FlagInclusion : FlagExclusion);
}

const CLUSION_COLUMNS = { typeId: true, productId: true, componentId: true } as const;

/** The flag_types, flag_inclusions and flag_exclusions tables. */
@Injectable()
export class FlagTypeRepository {
  findAll(sql: ReadSql): Promise<FlagType[]> {
    return sql.repository(FlagType).find();
  }

  findByIds(sql: ReadSql, ids: readonly number[]): Promise<FlagType[]> {
    return findRows(sql.repository(FlagType), { id: ids });
  }

  /** Names compare case-insensitively (the column's collation); several types may share one. */
  findByNames(sql: ReadSql, names: readonly string[]): Promise<FlagType[]> {
    return names.length ? sql.repository(FlagType).findBy({ name: In(names) }) : Promise.resolve([]);
  }

  async insert(sql: Sql, type: NewFlagType): Promise<number> {
    return insertRows(sql.repository(FlagType), [type]);
  }

  async update(sql: Sql, id: number, changes: FlagTypeChanges): Promise<void> {
    await sql.repository(FlagType).update({ id }, changes);
  }

  /** The clusion rows of some types, in the order they were written. */
  clusionsOfTypes(sql: ReadSql, kind: ClusionKind, typeIds: readonly number[]): Promise<ClusionRow[]> {
    if (!typeIds.length) return Promise.resolve([]);
    return clusions(sql, kind).find({ select: CLUSION_COLUMNS, where: { typeId: In(typeIds) }, order: { id: 'ASC' } });
  }

  /** The clusion rows that can concern the products: theirs and the product-wide "any" ones. */
  clusionsOfProducts(sql: ReadSql, kind: ClusionKind, productIds: readonly number[]): Promise<ClusionRow[]> {
    const where = [{ productId: IsNull() }, ...(productIds.length ? [{ productId: In(productIds) }] : [])];
    return clusions(sql, kind).find({ select: CLUSION_COLUMNS, where });
  }

  async insertClusions(sql: Sql, kind: ClusionKind, rows: readonly ClusionRow[]): Promise<void> {
    await insertRows(clusions(sql, kind), rows);
  }

  async replaceClusions(sql: Sql, kind: ClusionKind, typeId: number, rows: readonly ClusionRow[]): Promise<void> {
    await clusions(sql, kind).delete({ typeId });
    await this.insertClusions(sql, kind, rows);
  }

  /** Deletes the inclusion and exclusion rows naming the components. */
  async deleteClusionsOfComponents(sql: Sql, componentIds: readonly number[]): Promise<void> {
    if (!componentIds.length) return;
    for (const kind of ['inclusions', 'exclusions'] as const) await clusions(sql, kind).delete({ componentId: In(componentIds) });
  }
}
