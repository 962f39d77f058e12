import { Injectable } from '@nestjs/common';
import { In, type Repository, type SelectQueryBuilder } from 'typeorm';
import type { ReadRepository, ReadSql, Sql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { Component } from './entities/component.entity.js';
import { GroupControl } from './entities/group-control.entity.js';
import { Milestone } from './entities/milestone.entity.js';
import { Product } from './entities/product.entity.js';
import { Version } from './entities/version.entity.js';
import { Control } from './group-controls.js';

/** The columns of a new product (the generated id and the classification relation aside). */
export type NewProduct = Omit<Product, 'id' | 'classification'>;

/** The settable columns of a product. */
export type ProductChanges = Partial<Pick<Product, 'name' | 'description' | 'defaultMilestone' | 'isActive' | 'hasUnconfirmed'>>;

/** The settable columns of a version or milestone. */
export type NamedValueChanges = Partial<Pick<Version, 'value' | 'sortkey' | 'isActive'>>;

/** One row of group_control_map, without its relations. */
export type GroupControlRow = Omit<GroupControl, 'product' | 'group'>;

export type ValueKind = 'version' | 'milestone';

/** Versions and milestones have the same columns: one repository type serves both tables. */
function valuesOf(sql: Sql, kind: ValueKind): Repository<Version>;
function valuesOf(sql: ReadSql, kind: ValueKind): ReadRepository<Version>;
function valuesOf(sql: ReadSql, kind: ValueKind): ReadRepository<Version> {
  return sql.repository<Version>(kind === 'version' ? Version : Milestone);
}

/** The outer product's id as a subquery names it (the subquery's builder knows only its own aliases), escaped. */
function outerProductId(query: SelectQueryBuilder<Product>): string {
  return `${query.escape('p')}.${query.escape('id')}`;
}

/**
 * The products, versions, milestones and group_control_map tables, and the product lists of Bugzilla's access
 * rules (which read components and versions too, all tables of this module).
 */
@Injectable()
export class ProductRepository {
  /** A query of products (alias `p`) with their classification. */
  private products(sql: ReadSql): SelectQueryBuilder<Product> {
    return sql.repository(Product).createQueryBuilder('p').leftJoinAndSelect('p.classification', 'c');
  }

  /** Names compare case-insensitively (the column's collation). */
  findByName(sql: ReadSql, name: string): Promise<Product | null> {
    return this.products(sql).where('p.name = :name', { name }).getOne();
  }

  findByNames(sql: ReadSql, names: readonly string[]): Promise<Product[]> {
    if (!names.length) return Promise.resolve([]);
    return this.products(sql).where('p.name IN (:...names)', { names }).getMany();
  }

  findByIds(sql: ReadSql, ids: readonly number[]): Promise<Product[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.products(sql).where('p.id IN (:...ids)', { ids }).getMany();
  }

  /** The products of some classifications, by name. */
  findByClassifications(sql: ReadSql, classificationIds: readonly number[]): Promise<Product[]> {
    if (!classificationIds.length) return Promise.resolve([]);
    return sql.repository(Product).find({ where: { classificationId: In(classificationIds) }, order: { name: 'ASC' } });
  }

  async insert(sql: Sql, product: NewProduct): Promise<number> {
    return insertRows(sql.repository(Product), [product]);
  }

  async update(sql: Sql, id: number, changes: ProductChanges): Promise<void> {
    await sql.repository(Product).update({ id }, changes);
  }

  /** Versions or milestones of the products, by product, sort key, value. */
  valuesOfProducts(sql: ReadSql, kind: ValueKind, productIds: readonly number[]): Promise<Version[]> {
    if (!productIds.length) return Promise.resolve([]);
    return valuesOf(sql, kind).find({
      where: { productId: In(productIds) },
      order: { productId: 'ASC', sortkey: 'ASC', value: 'ASC' },
    });
  }

  /** A version or milestone of a product by its value (case-insensitive, the column's collation). */
  valueByName(sql: ReadSql, kind: ValueKind, productId: number, value: string): Promise<Version | null> {
    return valuesOf(sql, kind).findOneBy({ productId, value });
  }

  milestoneCount(sql: ReadSql, productId: number): Promise<number> {
    return sql.repository(Milestone).countBy({ productId });
  }

  async insertValue(sql: Sql, kind: ValueKind, value: Omit<Version, 'id' | 'product'>): Promise<number> {
    return insertRows(valuesOf(sql, kind), [value]);
  }

  async updateValue(sql: Sql, kind: ValueKind, id: number, changes: NamedValueChanges): Promise<void> {
    await valuesOf(sql, kind).update({ id }, changes);
  }

  /** The group control rows of the products, by product. */
  controlsOf(sql: ReadSql, productIds: readonly number[]): Promise<GroupControl[]> {
    if (!productIds.length) return Promise.resolve([]);
    return sql.repository(GroupControl).find({ where: { productId: In(productIds) }, order: { productId: 'ASC' } });
  }

  /** Products whose control row gives one of the groups `editcomponents`. */
  async productIdsAdministeredBy(sql: ReadSql, groupIds: readonly number[]): Promise<number[]> {
    if (!groupIds.length) return [];
    const rows = await sql.repository(GroupControl).createQueryBuilder('m')
      .select('DISTINCT m.productId', 'productId')
      .where('m.editcomponents = 1 AND m.groupId IN (:...groupIds)', { groupIds })
      .getRawMany<{ productId: number }>();
    return rows.map((r) => Number(r.productId));
  }

  async replaceControls(sql: Sql, productId: number, controls: readonly GroupControlRow[]): Promise<void> {
    await sql.repository(GroupControl).delete({ productId });
    await this.insertControls(sql, controls);
  }

  async insertControls(sql: Sql, controls: readonly GroupControlRow[]): Promise<void> {
    await insertRows(sql.repository(GroupControl), controls);
  }

  /** Products without a Mandatory (membercontrol) group outside `groupIds`, by name. */
  async selectableProductIds(sql: ReadSql, groupIds: readonly number[]): Promise<number[]> {
    const query = this.productIds(sql);
    const mandatory = query.subQuery().select('1').from(GroupControl, 'm')
      .where(`m.productId = ${outerProductId(query)}`)
      .andWhere('m.membercontrol = :mandatory', { mandatory: Control.MANDATORY });
    this.outside(mandatory, groupIds);
    return this.ids(query.where(`NOT EXISTS ${mandatory.getQuery()}`).setParameters(mandatory.getParameters()));
  }

  /** Active products with no `entry` group outside `groupIds`, an active component and an active version, by name. */
  async enterableProductIds(sql: ReadSql, groupIds: readonly number[]): Promise<number[]> {
    const query = this.productIds(sql);
    const entry = query.subQuery().select('1').from(GroupControl, 'm').where(`m.productId = ${outerProductId(query)}`).andWhere('m.entry <> 0');
    this.outside(entry, groupIds);
    const component = query.subQuery().select('1').from(Component, 'co')
      .where(`co.productId = ${outerProductId(query)}`).andWhere('co.isActive = 1');
    const version = query.subQuery().select('1').from(Version, 'v')
      .where(`v.productId = ${outerProductId(query)}`).andWhere('v.isActive = 1');
    return this.ids(query
      .where('p.isActive = 1')
      .andWhere(`NOT EXISTS ${entry.getQuery()}`)
      .andWhere(`EXISTS ${component.getQuery()}`)
      .andWhere(`EXISTS ${version.getQuery()}`)
      .setParameters(entry.getParameters()));
  }

  /** The ids of products (alias `p`), by name. */
  private productIds(sql: ReadSql): SelectQueryBuilder<Product> {
    return sql.repository(Product).createQueryBuilder('p').select('p.id', 'id').orderBy('p.name');
  }

  /** Narrows control rows (alias `m`) to groups other than `groupIds` (every group when there are none). */
  private outside(controls: SelectQueryBuilder<GroupControl>, groupIds: readonly number[]): void {
    if (groupIds.length) controls.andWhere('m.groupId NOT IN (:...callerGroups)', { callerGroups: groupIds });
  }

  private async ids(query: SelectQueryBuilder<Product>): Promise<number[]> {
    return (await query.getRawMany<{ id: number }>()).map((r) => Number(r.id));
  }
}
