import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import type { Caller } from '../common/caller.js';
import { KeptReads } from '../common/kept-reads.js';
import { GroupService } from '../group/group.service.js';
import { ClassificationRepository } from './classification.repository.js';
import { ComponentRepository, type ComponentWithCc } from './component.repository.js';
import type { Product } from './entities/product.entity.js';
import type { Version } from './entities/version.entity.js';
import { ProductRepository, type ValueKind } from './product.repository.js';

export { Control } from './group-controls.js';

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
  /** BMO's (issue 43): the type of its new bugs (null: the default_bug_type parameter's), its triage owner. */
  defaultBugType: string | null;
  triageOwnerId: number | null;
}

/** A version or a milestone of a product. */
export interface NamedValueRecord {
  id: number;
  productId: number;
  value: string;
  isActive: boolean;
  sortKey: number;
}

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

/** The classification with its one product, component, version and milestone of a fresh install. */
/** ProductService's reads as catalogueAt keeps them (same answers, frozen). */
export interface ProductCatalogue {
  findByName(name: string): Promise<Readonly<ProductRecord> | undefined>;
  componentByName(productId: number, name: string): Promise<Readonly<ComponentRecord> | undefined>;
  versionByName(productId: number, value: string): Promise<Readonly<NamedValueRecord> | undefined>;
  milestoneByName(productId: number, value: string): Promise<Readonly<NamedValueRecord> | undefined>;
  findByIds(ids: readonly number[]): Promise<ReadonlyMap<number, Readonly<ProductRecord>>>;
  componentsByIds(ids: readonly number[]): Promise<ReadonlyMap<number, Readonly<ComponentRecord>>>;
  componentsOfProducts(productIds: readonly number[]): Promise<ReadonlyArray<Readonly<ComponentRecord>>>;
  milestoneCount(productId: number): Promise<number>;
  groupControls(productIds: readonly number[]): Promise<readonly GroupControlDetail[]>;
  canEnter(caller: Caller, product: Readonly<ProductRecord>): Promise<boolean>;
  canEdit(caller: Caller, productId: number): Promise<boolean>;
}

/** The caller may file bugs in a product with these controls: a member of every `entry` group. */
function mayEnter(caller: Caller, controls: ReadonlyArray<{ entry: boolean; groupId: number }>): boolean {
  return controls.every((c) => !c.entry || caller.inGroupId(c.groupId));
}

/** The caller may edit the bugs of a product with these controls: a member of every `canedit` group. */
function mayEdit(caller: Caller, controls: ReadonlyArray<{ canedit: boolean; groupId: number }>): boolean {
  return controls.every((c) => !c.canedit || caller.inGroupId(c.groupId));
}

export interface TestProduct {
  classification: { name: string; description: string };
  product: { name: string; description: string };
  component: { name: string; description: string };
  version: string;
  milestone: string;
}

function toProductRecord(product: Product): ProductRecord {
  return {
    id: product.id,
    name: product.name,
    description: product.description ?? '',
    isActive: product.isActive,
    defaultMilestone: product.defaultMilestone,
    hasUnconfirmed: product.hasUnconfirmed,
    classificationId: product.classificationId,
    classification: product.classification?.name ?? '',
  };
}

function toComponentRecord({ component, defaultCcIds }: ComponentWithCc): ComponentRecord {
  return {
    id: component.id,
    productId: component.productId,
    name: component.name,
    description: component.description ?? '',
    isActive: component.isActive,
    defaultAssigneeId: component.defaultAssigneeId,
    defaultQaContactId: component.defaultQaContactId,
    defaultCcIds,
    sortKey: component.sortkey,
    defaultBugType: component.defaultBugType,
    triageOwnerId: component.triageOwnerId,
  };
}

function toNamedValue(value: Version): NamedValueRecord {
  return { id: value.id, productId: value.productId, value: value.value, isActive: value.isActive, sortKey: value.sortkey };
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/**
 * Products and what hangs on them (components, versions, milestones, group controls), and the access rules of
 * Bugzilla 5.0 (Bugzilla::User get_selectable_products / get_enterable_products / get_accessible_products).
 */
@Injectable()
export class ProductService {
  private readonly kept = new KeptReads();

  constructor(
    private readonly db: Db,
    private readonly productRepository: ProductRepository,
    private readonly componentRepository: ComponentRepository,
    private readonly classificationRepository: ClassificationRepository,
    private readonly groups: GroupService,
  ) {}

  /**
   * The product reads Create Bug makes on every request, kept under the settings mark (KeptReads): pass
   * `caller.settingsMark`. The answers are frozen and as fresh as the mark; without a mark they are read afresh.
   * Inside a transaction pass it as `sql`: a read through the pool there can wait for a connection that other
   * transactions, waiting for this one's locks, hold.
   */
  catalogueAt(settingsMark: number | undefined, sql: ReadSql = this.db.read): ProductCatalogue {
    const keep = <V>(kind: string, key: readonly unknown[], load: () => Promise<V>) => this.kept.through(settingsMark, kind, key, load);
    const controlsOf = (productId: number) => keep('controlsOf', [productId], () => this.productRepository.controlsOf(sql, [productId]));
    return {
      findByName: (name) => keep('productByName', [name], () => this.findByName(name, sql)),
      componentByName: (productId, name) => keep('componentByName', [productId, name], () => this.componentByName(productId, name, sql)),
      versionByName: (productId, value) => keep('versionByName', [productId, value], () => this.versionByName(productId, value, sql)),
      milestoneByName: (productId, value) => keep('milestoneByName', [productId, value], () => this.milestoneByName(productId, value, sql)),
      findByIds: (ids) => keep('productsByIds', ids, () => this.findByIds(ids, sql)),
      componentsByIds: (ids) => keep('componentsByIds', ids, () => this.componentsByIds(ids, sql)),
      componentsOfProducts: (ids) => keep('componentsOfProducts', ids, () => this.componentsOfProducts(ids, sql)),
      milestoneCount: (productId) => keep('milestoneCount', [productId], () => this.milestoneCount(productId, sql)),
      groupControls: (productIds) => keep('groupControls', productIds, () => this.groupControls(productIds, sql)),
      canEnter: async (caller, product) => product.isActive && mayEnter(caller, await controlsOf(product.id)),
      canEdit: async (caller, productId) => mayEdit(caller, await controlsOf(productId)),
    };
  }

  /** The test product of a fresh install, its milestone the default one, its component assigned to `assigneeId`. */
  async installTestProduct(tx: Sql, test: TestProduct, assigneeId: number): Promise<void> {
    const classificationId = await this.classificationRepository.insert(tx, { ...test.classification, sortkey: 0 });
    const productId = await this.productRepository.insert(tx, {
      ...test.product, classificationId, isActive: true, defaultMilestone: test.milestone, hasUnconfirmed: true,
    });
    await this.componentRepository.insert(tx, {
      ...test.component, productId, defaultAssigneeId: assigneeId, defaultQaContactId: null, isActive: true, sortkey: 0,
    }, []);
    await this.productRepository.insertValue(tx, 'version', { value: test.version, productId, isActive: true, sortkey: 0 });
    await this.productRepository.insertValue(tx, 'milestone', { value: test.milestone, productId, isActive: true, sortkey: 0 });
  }

  /** Names compare case-insensitively (the column's collation), as Bugzilla's product lookup does. */
  async findByName(name: string, sql: ReadSql = this.db.read): Promise<ProductRecord | undefined> {
    const product = await this.productRepository.findByName(sql, String(name).trim());
    return product ? toProductRecord(product) : undefined;
  }

  /** Every classification, by sort key then name (the classification field's values). */
  async allClassifications(sql: ReadSql = this.db.read): Promise<ClassificationRecord[]> {
    return (await this.classificationRepository.findAll(sql)).map((c) => ({ id: c.id, name: c.name, description: c.description ?? '', sortKey: c.sortkey }));
  }

  async findByIds(ids: readonly number[], sql: ReadSql = this.db.read): Promise<Map<number, ProductRecord>> {
    const products = await this.productRepository.findByIds(sql, unique(ids));
    return new Map(products.map((p) => [p.id, toProductRecord(p)]));
  }

  /** Products by name (case-insensitive); the key is the lower-cased name. */
  async findByNames(names: readonly string[], sql: ReadSql = this.db.read): Promise<Map<string, ProductRecord>> {
    const wanted = unique(names.map((n) => String(n).trim()).filter((n) => n !== ''));
    const products = await this.productRepository.findByNames(sql, wanted);
    return new Map(products.map((p) => [p.name.toLowerCase(), toProductRecord(p)]));
  }

  async componentByName(productId: number, name: string, sql: ReadSql = this.db.read): Promise<ComponentRecord | undefined> {
    const component = await this.componentRepository.findByName(sql, productId, String(name).trim());
    return component && toComponentRecord(component);
  }

  async componentsByIds(ids: readonly number[], sql: ReadSql = this.db.read): Promise<Map<number, ComponentRecord>> {
    const components = await this.componentRepository.findByIds(sql, unique(ids));
    return new Map(components.map((c) => [c.component.id, toComponentRecord(c)]));
  }

  /** Every component of the products (active or not), by product, sort key, name: one query plus one for the cc. */
  async componentsOfProducts(productIds: readonly number[], sql: ReadSql = this.db.read): Promise<ComponentRecord[]> {
    return (await this.componentRepository.findByProducts(sql, unique(productIds))).map(toComponentRecord);
  }

  /** Versions of the products, by product, sort key, value. */
  async versionsOfProducts(productIds: readonly number[], sql: ReadSql = this.db.read): Promise<NamedValueRecord[]> {
    return (await this.productRepository.valuesOfProducts(sql, 'version', unique(productIds))).map(toNamedValue);
  }

  /** Milestones of the products, by product, sort key, value. */
  async milestonesOfProducts(productIds: readonly number[], sql: ReadSql = this.db.read): Promise<NamedValueRecord[]> {
    return (await this.productRepository.valuesOfProducts(sql, 'milestone', unique(productIds))).map(toNamedValue);
  }

  /** A version or milestone of a product by its value. */
  async valueByName(kind: ValueKind, productId: number, value: string, sql: ReadSql = this.db.read): Promise<NamedValueRecord | undefined> {
    const found = await this.productRepository.valueByName(sql, kind, productId, String(value).trim());
    return found ? toNamedValue(found) : undefined;
  }

  async versionByName(productId: number, value: string, sql: ReadSql = this.db.read): Promise<NamedValueRecord | undefined> {
    return this.valueByName('version', productId, value, sql);
  }

  async milestoneByName(productId: number, value: string, sql: ReadSql = this.db.read): Promise<NamedValueRecord | undefined> {
    return this.valueByName('milestone', productId, value, sql);
  }

  /** How many milestones the product has (musthavemilestoneonaccept asks whether there is a choice). */
  async milestoneCount(productId: number, sql: ReadSql = this.db.read): Promise<number> {
    return this.productRepository.milestoneCount(sql, productId);
  }

  /** The group controls of the products with their groups, by product and group name. */
  async groupControls(productIds: readonly number[], sql: ReadSql = this.db.read): Promise<GroupControlDetail[]> {
    const controls = await this.productRepository.controlsOf(sql, unique(productIds));
    // The group service lists groups in name order (the database's collation): that order is kept per product.
    const ordered = await this.groups.findByIds(controls.map((c) => c.groupId), sql);
    const groups = new Map(ordered.map((g) => [g.id, g]));
    const rank = new Map(ordered.map((g, index) => [g.id, index]));
    return controls
      .filter((c) => groups.has(c.groupId))
      .map((c) => {
        const group = groups.get(c.groupId)!;
        return {
          productId: c.productId,
          groupId: c.groupId,
          groupName: group.name,
          groupIsActive: group.isActive,
          isBugGroup: group.isBugGroup,
          entry: c.entry,
          membercontrol: c.membercontrol,
          othercontrol: c.othercontrol,
          canedit: c.canedit,
          editcomponents: c.editcomponents,
          editbugs: c.editbugs,
          canconfirm: c.canconfirm,
        };
      })
      .sort((a, b) => a.productId - b.productId || rank.get(a.groupId)! - rank.get(b.groupId)!);
  }

  /**
   * Bugzilla's `in_group('editcomponents', product_id)`: global editcomponents, or membership of a group whose
   * control row on the product carries `editcomponents`.
   */
  async canAdmin(caller: Caller, productId: number, sql: ReadSql = this.db.read): Promise<boolean> {
    if (caller.inGroup('editcomponents')) return true;
    const controls = await this.productRepository.controlsOf(sql, [productId]);
    return controls.some((c) => c.editcomponents && caller.inGroupId(c.groupId));
  }

  /** Bugzilla's get_products_by_permission('editcomponents'): products the caller administers through a group. */
  async productIdsAdministeredThroughGroups(caller: Caller, sql: ReadSql = this.db.read): Promise<number[]> {
    return this.productRepository.productIdsAdministeredBy(sql, caller.groupIds);
  }

  /** May manage components/flag types somewhere: global editcomponents or a product-level grant. */
  async administersAnyProduct(caller: Caller): Promise<boolean> {
    return caller.inGroup('editcomponents') || (await this.productIdsAdministeredThroughGroups(caller)).length > 0;
  }

  /**
   * Bugzilla's get_selectable_products: every product without a Mandatory (membercontrol) group the caller
   * is not in.
   */
  async selectableProductIds(caller: Caller, sql: ReadSql = this.db.read): Promise<number[]> {
    return this.productRepository.selectableProductIds(sql, caller.groupIds);
  }

  /**
   * Bugzilla's get_enterable_products: active products where the caller is in every `entry` group, and that
   * have at least one active component and one active version.
   */
  async enterableProductIds(caller: Caller, sql: ReadSql = this.db.read): Promise<number[]> {
    return this.productRepository.enterableProductIds(sql, caller.groupIds);
  }

  /** Bugzilla's get_accessible_products: selectable ∪ enterable. */
  async accessibleProductIds(caller: Caller, sql: ReadSql = this.db.read): Promise<number[]> {
    const [selectable, enterable] = await Promise.all([this.selectableProductIds(caller, sql), this.enterableProductIds(caller, sql)]);
    return [...new Set([...selectable, ...enterable])].sort((a, b) => a - b);
  }

  /** Bugzilla's can_access_product: the product is one of the caller's accessible products. */
  async canAccess(caller: Caller, productId: number, sql: ReadSql = this.db.read): Promise<boolean> {
    return (await this.accessibleProductIds(caller, sql)).includes(productId);
  }

  /** May file bugs in it: the product is active and the caller is in every `entry` group of its controls. */
  async canEnter(caller: Caller, product: ProductRecord, sql: ReadSql = this.db.read): Promise<boolean> {
    if (!product.isActive) return false;
    return mayEnter(caller, await this.productRepository.controlsOf(sql, [product.id]));
  }
}

