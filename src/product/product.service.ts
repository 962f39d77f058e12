import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { Caller } from '../common/caller.js';

export interface ProductRecord {
  id: number;
  name: string;
  description: string;
  isActive: boolean;
  defaultMilestone: string;
  hasUnconfirmed: boolean;
  classificationId: number;
  classification: string;
}

export interface ComponentRecord {
  id: number;
  productId: number;
  name: string;
  description: string;
  isActive: boolean;
  defaultAssigneeId: number;
  defaultQaContactId: number | null;
  defaultCcIds: number[];
  sortKey: number;
}

/** A version or a milestone of a product. */
export interface NamedValueRecord {
  id: number;
  productId: number;
  value: string;
  isActive: boolean;
  sortKey: number;
}

/** Bugzilla's group control values (group_control_map.membercontrol / othercontrol). */
export const Control = { NA: 0, SHOWN: 1, DEFAULT: 2, MANDATORY: 3 } as const;

/** One row of group_control_map with its group. membercontrol/othercontrol: 0 NA, 1 Shown, 2 Default, 3 Mandatory. */
export interface GroupControl {
  productId: number;
  groupId: number;
  groupName: string;
  groupIsActive: boolean;
  isBugGroup: boolean;
  entry: boolean;
  membercontrol: number;
  othercontrol: number;
  canedit: boolean;
}

/** A control row with the product-level rights Bugzilla keeps in the same row (members get them for the product). */
export interface GroupControlDetail extends GroupControl {
  editcomponents: boolean;
  editbugs: boolean;
  canconfirm: boolean;
}

/** A classification row. */
export interface ClassificationRecord {
  id: number;
  name: string;
  description: string;
  sortKey: number;
}

const PRODUCT_COLUMNS = `p.id, p.name, p.description, p.is_active, p.default_milestone, p.has_unconfirmed, p.classification_id,
  c.name AS classification`;
const PRODUCT_FROM = 'products p LEFT JOIN classifications c ON c.id = p.classification_id';

export function toProduct(row: Record<string, any>): ProductRecord {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description ?? '',
    isActive: Number(row.is_active) === 1,
    defaultMilestone: row.default_milestone,
    hasUnconfirmed: Number(row.has_unconfirmed) === 1,
    classificationId: Number(row.classification_id),
    classification: row.classification ?? '',
  };
}

/** `m.group_id NOT IN (…)`, true for a caller in no group (`NOT IN (NULL)` would be NULL, never true). */
function notInGroups(sql: Sql, groups: readonly number[]): string {
  return groups.length ? `m.group_id NOT IN ${sql.in(groups)}` : '1 = 1';
}

function toComponent(row: Record<string, any>, ccIds: number[]): ComponentRecord {
  return {
    id: Number(row.id),
    productId: Number(row.product_id),
    name: row.name,
    description: row.description ?? '',
    isActive: Number(row.is_active) === 1,
    defaultAssigneeId: Number(row.default_assignee_id),
    defaultQaContactId: row.default_qa_contact_id == null ? null : Number(row.default_qa_contact_id),
    defaultCcIds: ccIds,
    sortKey: Number(row.sortkey),
  };
}

export function toNamedValue(row: Record<string, any>): NamedValueRecord {
  return {
    id: Number(row.id),
    productId: Number(row.product_id),
    value: row.value,
    isActive: Number(row.is_active) === 1,
    sortKey: Number(row.sortkey),
  };
}

function toGroupControl(row: Record<string, any>): GroupControlDetail {
  return {
    productId: Number(row.product_id),
    groupId: Number(row.group_id),
    groupName: row.group_name,
    groupIsActive: Number(row.group_is_active) === 1,
    isBugGroup: Number(row.is_bug_group) === 1,
    entry: Number(row.entry) === 1,
    membercontrol: Number(row.membercontrol),
    othercontrol: Number(row.othercontrol),
    canedit: Number(row.canedit) === 1,
    editcomponents: Number(row.editcomponents) === 1,
    editbugs: Number(row.editbugs) === 1,
    canconfirm: Number(row.canconfirm) === 1,
  };
}

/**
 * Products and what hangs on them (components, versions, milestones, group controls), and the access rules of
 * Bugzilla 5.0 (Bugzilla::User get_selectable_products / get_enterable_products / get_accessible_products).
 */
@Injectable()
export class ProductService {
  constructor(private readonly db: Db) {}

  /** Names compare case-insensitively (the column's collation), as Bugzilla's product lookup does. */
  async findByName(name: string, sql: Sql = this.db.read): Promise<ProductRecord | undefined> {
    const row = await sql.one(`SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCT_FROM} WHERE p.name = ?`, [String(name).trim()]);
    return row && toProduct(row);
  }

  async findByIds(ids: readonly number[], sql: Sql = this.db.read): Promise<Map<number, ProductRecord>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCT_FROM} WHERE p.id IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [Number(row.id), toProduct(row)]));
  }

  async componentByName(productId: number, name: string, sql: Sql = this.db.read): Promise<ComponentRecord | undefined> {
    const row = await sql.one('SELECT * FROM components WHERE product_id = ? AND name = ?', [productId, String(name).trim()]);
    if (!row) return undefined;
    const cc = await sql.all<{ user_id: number }>('SELECT user_id FROM component_cc WHERE component_id = ? ORDER BY user_id', [row.id]);
    return toComponent(row, cc.map((c) => Number(c.user_id)));
  }

  async componentsByIds(ids: readonly number[], sql: Sql = this.db.read): Promise<Map<number, ComponentRecord>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT * FROM components WHERE id IN ${sql.in(unique)}`, unique);
    const components = await this.withDefaultCc(rows, sql);
    return new Map(components.map((c) => [c.id, c]));
  }

  /** Every component of the products (active or not), by product, sort key, name: one query plus one for the cc. */
  async componentsOfProducts(productIds: readonly number[], sql: Sql = this.db.read): Promise<ComponentRecord[]> {
    const unique = [...new Set(productIds)];
    if (!unique.length) return [];
    const rows = await sql.all(`SELECT * FROM components WHERE product_id IN ${sql.in(unique)} ORDER BY product_id, sortkey, name`, unique);
    return this.withDefaultCc(rows, sql);
  }

  private async withDefaultCc(rows: Array<Record<string, any>>, sql: Sql): Promise<ComponentRecord[]> {
    const ids = rows.map((r) => Number(r.id));
    const cc = ids.length
      ? await sql.all<{ component_id: number; user_id: number }>(
        `SELECT component_id, user_id FROM component_cc WHERE component_id IN ${sql.in(ids)} ORDER BY user_id`, ids)
      : [];
    const ccByComponent = new Map<number, number[]>();
    for (const c of cc) {
      const list = ccByComponent.get(Number(c.component_id)) ?? [];
      list.push(Number(c.user_id));
      ccByComponent.set(Number(c.component_id), list);
    }
    return rows.map((row) => toComponent(row, ccByComponent.get(Number(row.id)) ?? []));
  }

  /** Versions of the products, by product, sort key, value. */
  async versionsOfProducts(productIds: readonly number[], sql: Sql = this.db.read): Promise<NamedValueRecord[]> {
    return this.namedValuesOf('versions', productIds, sql);
  }

  /** Milestones of the products, by product, sort key, value. */
  async milestonesOfProducts(productIds: readonly number[], sql: Sql = this.db.read): Promise<NamedValueRecord[]> {
    return this.namedValuesOf('milestones', productIds, sql);
  }

  private async namedValuesOf(table: 'versions' | 'milestones', productIds: readonly number[], sql: Sql): Promise<NamedValueRecord[]> {
    const unique = [...new Set(productIds)];
    if (!unique.length) return [];
    const rows = await sql.all(`SELECT * FROM ${table} WHERE product_id IN ${sql.in(unique)} ORDER BY product_id, sortkey, value`, unique);
    return rows.map(toNamedValue);
  }

  async versionByName(productId: number, value: string, sql: Sql = this.db.read): Promise<NamedValueRecord | undefined> {
    const row = await sql.one('SELECT * FROM versions WHERE product_id = ? AND value = ?', [productId, String(value).trim()]);
    return row && toNamedValue(row);
  }

  async milestoneByName(productId: number, value: string, sql: Sql = this.db.read): Promise<NamedValueRecord | undefined> {
    const row = await sql.one('SELECT * FROM milestones WHERE product_id = ? AND value = ?', [productId, String(value).trim()]);
    return row && toNamedValue(row);
  }

  /** How many milestones the product has (musthavemilestoneonaccept asks whether there is a choice). */
  async milestoneCount(productId: number, sql: Sql = this.db.read): Promise<number> {
    const row = await sql.one<{ n: number }>('SELECT COUNT(*) AS n FROM milestones WHERE product_id = ?', [productId]);
    return Number(row?.n ?? 0);
  }

  /** The group controls of the products, with their groups (one query). */
  async groupControls(productIds: readonly number[], sql: Sql = this.db.read): Promise<GroupControlDetail[]> {
    const unique = [...new Set(productIds)];
    if (!unique.length) return [];
    const rows = await sql.all(
      `SELECT m.product_id, m.group_id, m.entry, m.membercontrol, m.othercontrol, m.canedit, m.editcomponents, m.editbugs, m.canconfirm,
              g.name AS group_name, g.is_active AS group_is_active, g.is_bug_group
         FROM group_control_map m JOIN groups g ON g.id = m.group_id
        WHERE m.product_id IN ${sql.in(unique)}
        ORDER BY m.product_id, g.name`,
      unique,
    );
    return rows.map(toGroupControl);
  }

  /** Products by name (case-insensitive); the key is the lower-cased name. */
  async findByNames(names: readonly string[], sql: Sql = this.db.read): Promise<Map<string, ProductRecord>> {
    const unique = [...new Set(names.map((n) => String(n).trim()).filter((n) => n !== ''))];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCT_FROM} WHERE p.name IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [String(row.name).toLowerCase(), toProduct(row)]));
  }

  /**
   * Bugzilla's `in_group('editcomponents', product_id)`: global editcomponents, or membership of a group whose
   * control row on the product carries `editcomponents`.
   */
  async canAdmin(caller: Caller, productId: number, sql: Sql = this.db.read): Promise<boolean> {
    if (caller.inGroup('editcomponents')) return true;
    const controls = await this.groupControls([productId], sql);
    return controls.some((c) => c.editcomponents && caller.inGroupId(c.groupId));
  }

  /** Bugzilla's get_products_by_permission('editcomponents'): products the caller administers through a group. */
  async productIdsAdministeredThroughGroups(caller: Caller, sql: Sql = this.db.read): Promise<number[]> {
    const groups = caller.groupIds;
    if (!groups.length) return [];
    const rows = await sql.all<{ product_id: number }>(
      `SELECT DISTINCT product_id FROM group_control_map WHERE editcomponents = 1 AND group_id IN ${sql.in(groups)}`, groups);
    return rows.map((r) => Number(r.product_id));
  }

  /** May manage components/flag types somewhere: global editcomponents or a product-level grant. */
  async administersAnyProduct(caller: Caller): Promise<boolean> {
    return caller.inGroup('editcomponents') || (await this.productIdsAdministeredThroughGroups(caller)).length > 0;
  }

  /**
   * Bugzilla's get_selectable_products: every product without a Mandatory (membercontrol) group the caller
   * is not in.
   */
  async selectableProductIds(caller: Caller, sql: Sql = this.db.read): Promise<number[]> {
    const groups = caller.groupIds;
    const rows = await sql.all<{ id: number }>(
      `SELECT p.id FROM products p
        WHERE NOT EXISTS (SELECT 1 FROM group_control_map m
                           WHERE m.product_id = p.id AND m.membercontrol = ${Control.MANDATORY}
                             AND ${notInGroups(sql, groups)})
        ORDER BY p.name`,
      groups,
    );
    return rows.map((r) => Number(r.id));
  }

  /**
   * Bugzilla's get_enterable_products: active products where the caller is in every `entry` group, and that
   * have at least one active component and one active version.
   */
  async enterableProductIds(caller: Caller, sql: Sql = this.db.read): Promise<number[]> {
    const groups = caller.groupIds;
    const rows = await sql.all<{ id: number }>(
      `SELECT p.id FROM products p
        WHERE p.is_active = 1
          AND NOT EXISTS (SELECT 1 FROM group_control_map m
                           WHERE m.product_id = p.id AND m.entry <> 0 AND ${notInGroups(sql, groups)})
          AND EXISTS (SELECT 1 FROM components c WHERE c.product_id = p.id AND c.is_active = 1)
          AND EXISTS (SELECT 1 FROM versions v WHERE v.product_id = p.id AND v.is_active = 1)
        ORDER BY p.name`,
      groups,
    );
    return rows.map((r) => Number(r.id));
  }

  /** Bugzilla's get_accessible_products: selectable ∪ enterable. */
  async accessibleProductIds(caller: Caller, sql: Sql = this.db.read): Promise<number[]> {
    const [selectable, enterable] = await Promise.all([this.selectableProductIds(caller, sql), this.enterableProductIds(caller, sql)]);
    return [...new Set([...selectable, ...enterable])].sort((a, b) => a - b);
  }

  /** Bugzilla's can_access_product: the product is one of the caller's accessible products. */
  async canAccess(caller: Caller, productId: number, sql: Sql = this.db.read): Promise<boolean> {
    return (await this.accessibleProductIds(caller, sql)).includes(productId);
  }

  /** May file bugs in it: the product is active and the caller is in every `entry` group of its controls. */
  async canEnter(caller: Caller, product: ProductRecord, sql: Sql = this.db.read): Promise<boolean> {
    if (!product.isActive) return false;
    const controls = await this.groupControls([product.id], sql);
    return controls.every((c) => !c.entry || caller.inGroupId(c.groupId));
  }

  /** May edit its bugs: the caller is in every `canedit` group of its controls. */
  async canEdit(caller: Caller, productId: number, sql: Sql = this.db.read): Promise<boolean> {
    const controls = await this.groupControls([productId], sql);
    return controls.every((c) => !c.canedit || caller.inGroupId(c.groupId));
  }
}
