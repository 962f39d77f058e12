import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import type { ComponentFlagType, ProductFlagTypes } from '../product/product.tokens.js';
import type { FlagType } from './entities/flag-type.entity.js';
import { FlagTypeRepository, type ClusionRow } from './flag-type.repository.js';

/** A flag type: what Get Product shows of it (the product module's ComponentFlagType), and its target. */
export interface FlagTypeRecord extends ComponentFlagType {
  targetType: 'bug' | 'attachment';
}

function toFlagType(type: FlagType): FlagTypeRecord {
  return {
    id: type.id,
    name: type.name,
    description: type.description ?? '',
    targetType: type.targetType === 'attachment' ? 'attachment' : 'bug',
    isActive: type.isActive,
    isRequestable: type.isRequestable,
    isRequesteeble: type.isRequesteeble,
    isMultiplicable: type.isMultiplicable,
    sortKey: type.sortkey,
    grantGroupId: type.grantGroupId,
    requestGroupId: type.requestGroupId,
    ccList: type.ccList ?? '',
  };
}

/** One row of flag_inclusions / flag_exclusions: NULL product or component means "any". */
export type Clusion = ClusionRow;

/** The flag types of one component, by target (Get Product's `flag_types`). */
export interface ComponentFlagTypes {
  bug: FlagTypeRecord[];
  attachment: FlagTypeRecord[];
}

/**
 * Bugzilla's FlagType::match for a product and optionally a component: a type applies when an inclusion covers
 * the product (and the component, when one is given) and no exclusion does. Without a component, any inclusion in
 * the product counts and only product-wide exclusions exclude. Exclusions win.
 */
export function typeApplies(
  typeId: number,
  inclusions: readonly Clusion[],
  exclusions: readonly Clusion[],
  productId: number,
  componentId?: number,
): boolean {
  const covers = (c: Clusion, forExclusion: boolean) => {
    if (c.typeId !== typeId) return false;
    if (c.productId !== null && c.productId !== productId) return false;
    if (componentId === undefined) return !forExclusion || c.componentId === null;
    return c.componentId === null || c.componentId === componentId;
  };
  return inclusions.some((c) => covers(c, false)) && !exclusions.some((c) => covers(c, true));
}

const byTypeOrder = (a: FlagTypeRecord, b: FlagTypeRecord) => a.sortKey - b.sortKey || a.name.localeCompare(b.name) || a.id - b.id;

/**
 * Flag types and where they apply (inclusions/exclusions by product and component, NULL meaning "any").
 * Setting flags on bugs and attachments belongs to the bug module.
 */
@Injectable()
export class FlagTypeService implements ProductFlagTypes {
  constructor(private readonly db: Db, private readonly flagTypeRepository: FlagTypeRepository) {}

  /**
   * The flag types of a target type that apply to a product/component, active or not, in sortkey, name order
   * (Bugzilla's match()). The caller decides what an inactive type allows.
   */
  async applicableTypes(productId: number, componentId: number, target: 'bug' | 'attachment', sql: ReadSql = this.db.read): Promise<FlagTypeRecord[]> {
    const types = await this.typesForProduct(productId, componentId, sql);
    return types.filter((t) => t.targetType === target);
  }

  /** Types applying to a product (and component, when given), both targets, in sortkey, name order. */
  async typesForProduct(productId: number, componentId: number | undefined, sql: ReadSql = this.db.read): Promise<FlagTypeRecord[]> {
    const { types, inclusions, exclusions } = await this.loadForProducts([productId], sql);
    return types.filter((t) => typeApplies(t.id, inclusions, exclusions, productId, componentId)).sort(byTypeOrder);
  }

  /** The types of many components at once (three queries whatever their number). */
  async typesForComponents(components: ReadonlyArray<{ id: number; productId: number }>, sql: ReadSql = this.db.read): Promise<Map<number, ComponentFlagTypes>> {
    const result = new Map<number, ComponentFlagTypes>();
    if (!components.length) return result;
    const { types, inclusions, exclusions } = await this.loadForProducts(components.map((c) => c.productId), sql);
    const ordered = [...types].sort(byTypeOrder);
    for (const component of components) {
      const applying = ordered.filter((t) => typeApplies(t.id, inclusions, exclusions, component.productId, component.id));
      result.set(component.id, {
        bug: applying.filter((t) => t.targetType === 'bug'),
        attachment: applying.filter((t) => t.targetType === 'attachment'),
      });
    }
    return result;
  }

  async typesByIds(ids: readonly number[], sql: ReadSql = this.db.read): Promise<Map<number, FlagTypeRecord>> {
    const types = await this.flagTypeRepository.findByIds(sql, [...new Set(ids)]);
    return new Map(types.map((type) => [type.id, toFlagType(type)]));
  }

  /** Flag types by name (names are not unique: several types may share one), in sortkey, name order. */
  async typesByNames(names: readonly string[], sql: ReadSql = this.db.read): Promise<FlagTypeRecord[]> {
    const types = await this.flagTypeRepository.findByNames(sql, [...new Set(names.map((n) => String(n).trim()))]);
    return types.map(toFlagType).sort(byTypeOrder);
  }

  /** The inclusion and exclusion rows of some types. */
  async clusionsOf(typeIds: readonly number[], sql: ReadSql = this.db.read): Promise<{ inclusions: Clusion[]; exclusions: Clusion[] }> {
    const unique = [...new Set(typeIds)];
    const [inclusions, exclusions] = await Promise.all([
      this.flagTypeRepository.clusionsOfTypes(sql, 'inclusions', unique),
      this.flagTypeRepository.clusionsOfTypes(sql, 'exclusions', unique),
    ]);
    return { inclusions, exclusions };
  }

  /** Every type, with the clusion rows that can concern the products (product-wide "any" rows included). */
  private async loadForProducts(productIds: readonly number[], sql: ReadSql): Promise<{ types: FlagTypeRecord[]; inclusions: Clusion[]; exclusions: Clusion[] }> {
    const unique = [...new Set(productIds)];
    const [types, inclusions, exclusions] = await Promise.all([
      this.flagTypeRepository.findAll(sql),
      this.flagTypeRepository.clusionsOfProducts(sql, 'inclusions', unique),
      this.flagTypeRepository.clusionsOfProducts(sql, 'exclusions', unique),
    ]);
    return { types: types.map(toFlagType), inclusions, exclusions };
  }

  /** The components are being deleted: the inclusions and exclusions naming them go too. */
  async forgetComponents(tx: Sql, componentIds: readonly number[]): Promise<void> {
    await this.flagTypeRepository.deleteClusionsOfComponents(tx, componentIds);
  }
}
