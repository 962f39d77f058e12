import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { FieldDefinition } from './entities/field-definition.entity.js';
import { FieldValue } from './entities/field-value.entity.js';
import { StatusTransition } from './entities/status-transition.entity.js';

/** A legal value with the internal name of its field. */
export interface FieldValueOfName {
  field: string;
  value: FieldValue;
}

/** A transition of the status workflow by status names (`from` null: a new bug). */
export interface TransitionRow {
  fromStatus: string | null;
  toStatus: string;
  requireComment: boolean;
}

/** The fielddefs, field_values and status_workflow tables. */
@Injectable()
export class FieldRepository {
  /** Fields, obsolete ones only when asked, custom ones only when asked; by sort key, then name. */
  findFields(sql: ReadSql, filter: { customOnly?: boolean } = {}): Promise<FieldDefinition[]> {
    return sql.repository(FieldDefinition).find({
      where: { obsolete: false, ...(filter.customOnly ? { custom: true } : {}) },
      order: { sortkey: 'ASC', name: 'ASC' },
    });
  }

  /** Fields by id or internal name, obsolete ones too. */
  findByIdsOrNames(sql: ReadSql, ids: readonly number[], names: readonly string[]): Promise<FieldDefinition[]> {
    const where = [...(ids.length ? [{ id: In(ids) }] : []), ...(names.length ? [{ name: In(names) }] : [])];
    return where.length ? sql.repository(FieldDefinition).find({ where }) : Promise.resolve([]);
  }

  async exists(sql: Sql, name: string): Promise<boolean> {
    return sql.repository(FieldDefinition).existsBy({ name });
  }

  /** The highest sort key of the fields (0 when there are none). */
  async topSortKey(sql: Sql): Promise<number> {
    return Number((await sql.repository(FieldDefinition).maximum('sortkey')) ?? 0);
  }

  async insertField(sql: Sql, field: Omit<FieldDefinition, 'id'>): Promise<number> {
    return insertRows(sql.repository(FieldDefinition), [field]);
  }

  /** Returns the id of the last value. */
  async insertValues(sql: Sql, values: ReadonlyArray<Omit<FieldValue, 'id' | 'field'>>): Promise<number> {
    return insertRows(sql.repository(FieldValue), values);
  }

  async insertTransitions(sql: Sql, transitions: ReadonlyArray<Pick<StatusTransition, 'fromStatusId' | 'toStatusId' | 'requireComment'>>): Promise<void> {
    await insertRows(sql.repository(StatusTransition), transitions);
  }

  /** The legal values of some fields (by id). */
  valuesOfFieldIds(sql: ReadSql, fieldIds: readonly number[]): Promise<FieldValue[]> {
    return fieldIds.length ? sql.repository(FieldValue).findBy({ fieldId: In(fieldIds) }) : Promise.resolve([]);
  }

  /** The legal values of some fields (by internal name), each with its field's name. */
  async valuesOfFieldNames(sql: ReadSql, names: readonly string[]): Promise<FieldValueOfName[]> {
    if (!names.length) return [];
    const values = await sql.repository(FieldValue).createQueryBuilder('v')
      .innerJoinAndSelect('v.field', 'f')
      .where('f.name IN (:...names)', { names })
      .getMany();
    return values.map((value) => ({ field: value.field!.name, value }));
  }

  /** The status workflow, in the order it was written. */
  async transitions(sql: ReadSql): Promise<TransitionRow[]> {
    const rows = await sql.repository(StatusTransition).createQueryBuilder('w')
      .innerJoin('w.toStatus', 't')
      .leftJoin('w.fromStatus', 'f')
      .select('f.value', 'fromStatus').addSelect('t.value', 'toStatus').addSelect('w.requireComment', 'requireComment')
      .orderBy('w.id')
      .getRawMany<{ fromStatus: string | null; toStatus: string; requireComment: number | string }>();
    return rows.map((r) => ({ fromStatus: r.fromStatus ?? null, toStatus: r.toStatus, requireComment: Number(r.requireComment) === 1 }));
  }
}
