import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { exceedsLimit } from '../common/text-limits.js';
import type { RequestContext } from '../common/http/request-context.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { auditRowsOf, noteChange, type Changes } from '../common/changes.js';
import type { ProductValueInput } from './dto/product-value.dto.js';
import { PRODUCT_BUG_USAGE, type ProductBugUsage } from './product.tokens.js';
import { ProductRepository, type NamedValueChanges, type ValueKind } from './product.repository.js';
import { ProductService, type ProductRecord } from './product.service.js';

/** Product, component, version, milestone and classification names: 64 characters (defaults.md). */
export const MAX_NAME_LENGTH = 64;
const MIN_SMALLINT = -32768;
const MAX_SMALLINT = 32767;

const KINDS = {
  version: {
    auditClass: 'Tracker::Version',
    blank: Errors.VERSION_BLANK_NAME, tooLong: Errors.VERSION_NAME_TOO_LONG, exists: Errors.VERSION_ALREADY_EXISTS,
  },
  milestone: {
    auditClass: 'Tracker::Milestone',
    blank: Errors.MILESTONE_BLANK_NAME, tooLong: Errors.MILESTONE_NAME_TOO_LONG, exists: Errors.MILESTONE_ALREADY_EXISTS,
  },
} as const;

function checkValueName(kind: ValueKind, name: string): string {
  if (name === '') throw TrackerError.of(KINDS[kind].blank);
  if (exceedsLimit(name, MAX_NAME_LENGTH)) throw TrackerError.of(KINDS[kind].tooLong, { name });
  return name;
}

export const checkVersionName = (name: string) => checkValueName('version', name);
export const checkMilestoneName = (name: string) => checkValueName('milestone', name);

/** A sort key of a version or milestone: an integer in SMALLINT range (Bugzilla's milestone_sortkey_invalid). */
export function checkValueSortKey(value: unknown): number {
  const text = String(Array.isArray(value) ? value[0] : value).trim();
  if (!/^-?\d+$/.test(text) || Number(text) < MIN_SMALLINT || Number(text) > MAX_SMALLINT) {
    throw TrackerError.of(Errors.MILESTONE_SORTKEY_INVALID, { sortkey: text });
  }
  return Number(text);
}

/**
 * Versions and milestones of a product, beyond Bugzilla 5.0's REST (Bugzilla has them in editversions.cgi and
 * editmilestones.cgi): created and updated by whoever may administer the product. A rename carries the bugs
 * along (they store the value itself, as Bugzilla's do).
 */
@Injectable()
export class ProductValuesService {
  constructor(
    private readonly db: Db,
    private readonly products: ProductService,
    private readonly productRepository: ProductRepository,
    private readonly audit: AuditService,
    @Inject(PRODUCT_BUG_USAGE) private readonly bugs: ProductBugUsage,
  ) {}

  /**
   * Bugzilla's check_can_admin_product: 304 for a caller who administers no product at all, 106 for an unknown or
   * inaccessible product, 706 for a product the caller may see but not administer.
   */
  async productToAdminister(caller: Caller, idOrName: string, sql: Sql, object: string): Promise<ProductRecord> {
    if (!(await this.products.administersAnyProduct(caller))) {
      throw TrackerError.of(Errors.AUTH_FAILURE, { group: 'editcomponents', action: 'edit', object });
    }
    const product = /^\d+$/.test(idOrName)
      ? (await this.products.findByIds([Number(idOrName)], sql)).get(Number(idOrName))
      : await this.products.findByName(idOrName, sql);
    if (!product || !(await this.products.canAccess(caller, product.id, sql))) {
      throw TrackerError.of(Errors.PRODUCT_ACCESS_DENIED, { product: idOrName });
    }
    if (!(await this.products.canAdmin(caller, product.id, sql))) throw TrackerError.of(Errors.PRODUCT_ADMIN_DENIED, { product: product.name });
    return product;
  }

  async create(kind: ValueKind, productIdOrName: string, input: ProductValueInput, ctx: RequestContext): Promise<number> {
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const product = await this.productToAdminister(ctx.caller, productIdOrName, tx, `${kind}s`);
      const name = checkValueName(kind, input.name?.trim() ?? '');
      if (await this.products.valueByName(kind, product.id, name, tx)) throw TrackerError.of(KINDS[kind].exists, { name, product: product.name });
      const sortKeyInput = input.sort_key ?? input.sortkey;
      const id = await this.productRepository.insertValue(tx, kind, {
        value: name,
        productId: product.id,
        isActive: input.is_active !== undefined ? !!input.is_active : true,
        sortkey: sortKeyInput === undefined ? 0 : checkValueSortKey(sortKeyInput),
      });
      await this.audit.recordCreate(tx, { userId: ctx.caller.id, className: KINDS[kind].auditClass, objectId: id, added: name, at: now });
      return id;
    });
  }

  /** Update one version or milestone (by its name in the product): `name`, `sort_key`, `is_active`. */
  async update(kind: ValueKind, productIdOrName: string, valueName: string, input: ProductValueInput, ctx: RequestContext) {
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const product = await this.productToAdminister(ctx.caller, productIdOrName, tx, `${kind}s`);
      const value = await this.products.valueByName(kind, product.id, valueName, tx);
      if (!value) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind, name: valueName, product: product.name });
      const changes: Changes = {};
      const set: NamedValueChanges = {};
      const newName = input.name?.trim();
      if (newName !== undefined && newName !== value.value) {
        checkValueName(kind, newName);
        const clash = await this.products.valueByName(kind, product.id, newName, tx);
        if (clash && clash.id !== value.id) throw TrackerError.of(KINDS[kind].exists, { name: newName, product: product.name });
        set.value = newName;
        noteChange(changes, 'name', value.value, newName);
      }
      const sortKeyInput = input.sort_key ?? input.sortkey;
      if (sortKeyInput !== undefined) {
        const sortKey = checkValueSortKey(sortKeyInput);
        if (noteChange(changes, 'sort_key', value.sortKey, sortKey)) set.sortkey = sortKey;
      }
      if (input.is_active !== undefined) {
        const isActive = !!input.is_active;
        if (kind === 'milestone' && !isActive && value.value === product.defaultMilestone) {
          throw TrackerError.of(Errors.MILESTONE_IS_DEFAULT, { name: value.value, product: product.name });
        }
        if (noteChange(changes, 'is_active', value.isActive, isActive)) set.isActive = isActive;
      }
      if (Object.keys(set).length) await this.productRepository.updateValue(tx, kind, value.id, set);
      if (set.value !== undefined) await this.carryBugsAlong(tx, kind, product, value.value, set.value);
      await this.audit.recordMany(tx, auditRowsOf(changes, { userId: ctx.caller.id, className: KINDS[kind].auditClass, objectId: value.id, at: now }));
      return [{ id: value.id, changes }];
    });
  }

  /** Bugs hold the version/milestone text: a rename rewrites them, and the product's default milestone. */
  private async carryBugsAlong(tx: Sql, kind: ValueKind, product: ProductRecord, from: string, to: string): Promise<void> {
    await this.bugs.renameValue(tx, kind, product.id, from, to);
    if (kind === 'milestone' && product.defaultMilestone === from) await this.productRepository.update(tx, product.id, { defaultMilestone: to });
  }
}
