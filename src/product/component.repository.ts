import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { findRows, insertRows } from '../database/entity-rows.js';
import { ComponentCc } from './entities/component-cc.entity.js';
import { Component } from './entities/component.entity.js';

/** A component with the ids of its default cc list (component_cc), in user id order. */
export interface ComponentWithCc {
  component: Component;
  defaultCcIds: number[];
}

/** The columns of a new component (the generated id and the relations aside). */
export type NewComponent = Pick<Component, 'name' | 'productId' | 'defaultAssigneeId' | 'defaultQaContactId' | 'description' | 'isActive' | 'sortkey'>
  & Partial<Pick<Component, 'defaultBugType' | 'triageOwnerId'>>;

/** The settable columns of a component. */
export type ComponentChanges = Partial<Omit<NewComponent, 'productId'>>;

/** The components and component_cc tables. */
@Injectable()
export class ComponentRepository {
  async findByName(sql: ReadSql, productId: number, name: string): Promise<ComponentWithCc | undefined> {
    const component = await sql.repository(Component).findOneBy({ productId, name });
    return component ? (await this.withDefaultCc(sql, [component]))[0] : undefined;
  }

  async findByIds(sql: ReadSql, ids: readonly number[]): Promise<ComponentWithCc[]> {
    if (!ids.length) return [];
    return this.withDefaultCc(sql, await findRows(sql.repository(Component), { id: ids }));
  }

  /** Every component of the products (active or not), by product, sort key, name. */
  async findByProducts(sql: ReadSql, productIds: readonly number[]): Promise<ComponentWithCc[]> {
    if (!productIds.length) return [];
    const components = await sql.repository(Component).find({
      where: { productId: In(productIds) },
      order: { productId: 'ASC', sortkey: 'ASC', name: 'ASC' },
    });
    return this.withDefaultCc(sql, components);
  }

  /** How many components each product has. */
  async countByProducts(sql: Sql, productIds: readonly number[]): Promise<Map<number, number>> {
    if (!productIds.length) return new Map();
    const rows = await sql.repository(Component).createQueryBuilder('c')
      .select('c.productId', 'productId').addSelect('COUNT(*)', 'n')
      .where('c.productId IN (:...productIds)', { productIds })
      .groupBy('c.productId')
      .getRawMany<{ productId: number; n: number }>();
    return new Map(rows.map((r) => [Number(r.productId), Number(r.n)]));
  }

  async insert(sql: Sql, component: NewComponent, defaultCcIds: readonly number[]): Promise<number> {
    const id = await insertRows(sql.repository(Component), [component]);
    await this.insertCc(sql, id, defaultCcIds);
    return id;
  }

  async update(sql: Sql, id: number, changes: ComponentChanges): Promise<void> {
    await sql.repository(Component).update({ id }, changes);
  }

  async replaceDefaultCc(sql: Sql, componentId: number, userIds: readonly number[]): Promise<void> {
    await sql.repository(ComponentCc).delete({ componentId });
    await this.insertCc(sql, componentId, userIds);
  }

  /** Deletes the components and their default cc lists. */
  async delete(sql: Sql, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await sql.repository(ComponentCc).delete({ componentId: In(ids) });
    await sql.repository(Component).delete({ id: In(ids) });
  }

  private async insertCc(sql: Sql, componentId: number, userIds: readonly number[]): Promise<void> {
    await insertRows(sql.repository(ComponentCc), userIds.map((userId) => ({ componentId, userId })));
  }

  /** The default cc lists of the components, one query for all of them. */
  private async withDefaultCc(sql: ReadSql, components: Component[]): Promise<ComponentWithCc[]> {
    const ids = components.map((c) => c.id);
    const cc = ids.length ? await sql.repository(ComponentCc).find({ where: { componentId: In(ids) }, order: { userId: 'ASC' } }) : [];
    const ccByComponent = new Map<number, number[]>();
    for (const row of cc) ccByComponent.set(row.componentId, [...(ccByComponent.get(row.componentId) ?? []), row.userId]);
    return components.map((component) => ({ component, defaultCcIds: ccByComponent.get(component.id) ?? [] }));
  }
}
