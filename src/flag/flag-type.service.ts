import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';

export interface FlagTypeRecord {
  id: number;
  name: string;
  description: string;
  targetType: 'bug' | 'attachment';
  isActive: boolean;
  isRequestable: boolean;
  /** is_specifically_requestable of Bugzilla (the API spells it is_requesteeble). */
  isRequesteeble: boolean;
  isMultiplicable: boolean;
  sortKey: number;
  grantGroupId: number | null;
  requestGroupId: number | null;
  ccList: string;
}

export function toFlagType(row: Record<string, any>): FlagTypeRecord {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description ?? '',
    targetType: row.target_type === 'attachment' ? 'attachment' : 'bug',
    isActive: Number(row.is_active) === 1,
    isRequestable: Number(row.is_requestable) === 1,
    isRequesteeble: Number(row.is_requesteeble) === 1,
    isMultiplicable: Number(row.is_multiplicable) === 1,
    sortKey: Number(row.sortkey),
    grantGroupId: row.grant_group_id == null ? null : Number(row.grant_group_id),
    requestGroupId: row.request_group_id == null ? null : Number(row.request_group_id),
    ccList: row.cc_list ?? '',
  };
}

/** One row of flag_inclusions / flag_exclusions: NULL product or component means "any". */
export interface Clusion {
  typeId: number;
  productId: number | null;
  componentId: number | null;
}

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

function toClusion(row: Record<string, any>): Clusion {
  return {
    typeId: Number(row.type_id),
    productId: row.product_id == null ? null : Number(row.product_id),
    componentId: row.component_id == null ? null : Number(row.component_id),
  };
}

/**
 * Flag types and where they apply (inclusions/exclusions by product and component, NULL meaning "any").
 * Setting flags on bugs and attachments belongs to the bug module.
 */
@Injectable()
export class FlagTypeService {
  constructor(private readonly db: Db) {}

  /**
   * The flag types of a target type that apply to a product/component, active or not, in sortkey, name order
   * (Bugzilla's match()). The caller decides what an inactive type allows.
   */
  async applicableTypes(productId: number, componentId: number, target: 'bug' | 'attachment', sql: Sql = this.db.read): Promise<FlagTypeRecord[]> {
    const types = await this.typesForProduct(productId, componentId, sql);
    return types.filter((t) => t.targetType === target);
  }

  /** Types applying to a product (and component, when given), both targets, in sortkey, name order. */
  async typesForProduct(productId: number, componentId: number | undefined, sql: Sql = this.db.read): Promise<FlagTypeRecord[]> {
    const { types, inclusions, exclusions } = await this.loadForProducts([productId], sql);
    return types.filter((t) => typeApplies(t.id, inclusions, exclusions, productId, componentId)).sort(byTypeOrder);
  }

  /** The types of many components at once (three queries whatever their number). */
  async typesForComponents(components: ReadonlyArray<{ id: number; productId: number }>, sql: Sql = this.db.read): Promise<Map<number, ComponentFlagTypes>> {
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

  async typesByIds(ids: readonly number[], sql: Sql = this.db.read): Promise<Map<number, FlagTypeRecord>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT * FROM flag_types WHERE id IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [Number(row.id), toFlagType(row)]));
  }

  /** Flag types by name (names are not unique: several types may share one), in sortkey, name order. */
  async typesByNames(names: readonly string[], sql: Sql = this.db.read): Promise<FlagTypeRecord[]> {
    const unique = [...new Set(names.map((n) => String(n).trim()))];
    if (!unique.length) return [];
    const rows = await sql.all(`SELECT * FROM flag_types WHERE name IN ${sql.in(unique)}`, unique);
    return rows.map(toFlagType).sort(byTypeOrder);
  }

  /** The inclusion and exclusion rows of some types. */
  async clusionsOf(typeIds: readonly number[], sql: Sql = this.db.read): Promise<{ inclusions: Clusion[]; exclusions: Clusion[] }> {
    const unique = [...new Set(typeIds)];
    if (!unique.length) return { inclusions: [], exclusions: [] };
    const [inclusions, exclusions] = await Promise.all(
      ['flag_inclusions', 'flag_exclusions'].map((table) =>
        sql.all(`SELECT type_id, product_id, component_id FROM ${table} WHERE type_id IN ${sql.in(unique)} ORDER BY id`, unique)),
    );
    return { inclusions: inclusions.map(toClusion), exclusions: exclusions.map(toClusion) };
  }

  /** Every type, with the clusion rows that can concern the products (product-wide "any" rows included). */
  private async loadForProducts(productIds: readonly number[], sql: Sql): Promise<{ types: FlagTypeRecord[]; inclusions: Clusion[]; exclusions: Clusion[] }> {
    const unique = [...new Set(productIds)];
    const clusions = (table: string) =>
      sql.all(`SELECT type_id, product_id, component_id FROM ${table} WHERE product_id IS NULL OR product_id IN ${sql.in(unique)}`, unique);
    const [types, inclusions, exclusions] = await Promise.all([
      sql.all('SELECT * FROM flag_types'),
      clusions('flag_inclusions'),
      clusions('flag_exclusions'),
    ]);
    return { types: types.map(toFlagType), inclusions: inclusions.map(toClusion), exclusions: exclusions.map(toClusion) };
  }
}
