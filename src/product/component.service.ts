import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { exceedsLimit } from '../common/text-limits.js';
import type { RequestContext } from '../common/http/request-context.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { UserService } from '../user/user.service.js';
import { auditRowsOf, noteChange, type Changes } from '../common/changes.js';
import { ComponentRepository, type ComponentChanges } from './component.repository.js';
import { legalBugType } from '../params/parameter-definitions.js';
import type { ComponentCreateInput, ComponentUpdateInput } from './dto/component.dto.js';
import { PRODUCT_BUG_USAGE, PRODUCT_FLAG_TYPES, type ProductBugUsage, type ProductFlagTypes } from './product.tokens.js';
import { ProductService, type ComponentRecord, type ProductRecord } from './product.service.js';
import { MAX_NAME_LENGTH, ProductValuesService, checkValueSortKey } from './product-values.service.js';

const COMPONENT_CLASS = 'Tracker::Component';

/** Components named for update/delete: by id, or by product and component name (admin-routes.md). */
export interface ComponentTarget {
  ids: number[];
  names: Array<{ product: string; component: string }>;
}

/** `names` of Update/Delete Component: objects `{product, component}` (error 53 for anything else). */
export function parseComponentNames(raw: unknown): Array<{ product: string; component: string }> {
  if (raw === undefined || raw === null) return [];
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw TrackerError.of(Errors.PARAM_INVALID, { param: 'names' });
    const { product, component } = item as Record<string, unknown>;
    if (typeof product !== 'string' || typeof component !== 'string') throw TrackerError.of(Errors.PARAM_INVALID, { param: 'names' });
    return { product, component };
  });
}

/**
 * Create, update and delete components (Bugzilla's Component webservice, admin-routes.md): for global
 * editcomponents members and for members of a group with `editcomponents` on the product. One transaction per
 * call, audited as `Tracker::Component`.
 */
@Injectable()
export class ComponentService {
  constructor(
    private readonly db: Db,
    private readonly products: ProductService,
    private readonly componentRepository: ComponentRepository,
    private readonly values: ProductValuesService,
    private readonly users: UserService,
    private readonly audit: AuditService,
    @Inject(PRODUCT_BUG_USAGE) private readonly bugs: ProductBugUsage,
    @Inject(PRODUCT_FLAG_TYPES) private readonly flagTypes: ProductFlagTypes,
  ) {}

  async create(input: ComponentCreateInput, ctx: RequestContext): Promise<number> {
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const productName = input.product?.trim() ?? '';
      if (productName === '') {
        await this.requireSomeAdminRight(ctx.caller);
        throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'product' });
      }
      const product = await this.values.productToAdminister(ctx.caller, productName, tx, 'components');
      const name = await this.checkName(tx, product, (input.name ?? input.component)?.trim() ?? '');
      const description = this.checkDescription(input.description, name);
      const assignee = await this.assigneeId(tx, input.default_assignee);
      const qaContact = await this.optionalUserId(tx, input.default_qa_contact);
      const cc = await this.userIds(tx, input.default_cc ?? []);
      const bmo = ctx.caller.parameters.bool('bmo_bug_fields') ? await this.bmoSettings(tx, input) : {};
      const id = await this.componentRepository.insert(tx, {
        ...bmo,
        name,
        productId: product.id,
        defaultAssigneeId: assignee,
        defaultQaContactId: qaContact,
        description,
        isActive: input.is_open !== undefined ? !!input.is_open : true,
        sortkey: input.sort_key !== undefined ? checkValueSortKey(input.sort_key) : 0,
      }, cc);
      await this.audit.recordCreate(tx, { userId: ctx.caller.id, className: COMPONENT_CLASS, objectId: id, added: name, at: now });
      return id;
    });
  }

  /** A value given as null counts as given and empty (a null assignee is 1213, a null cc list empties it), but a null description as absent. */
  async update(target: ComponentTarget, input: ComponentUpdateInput, ctx: RequestContext) {
    await this.requireSomeAdminRight(ctx.caller);
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const components = await this.resolveTargets(tx, target, ctx.caller);
      const newName = input.name?.trim();
      if (newName !== undefined) {
        const products = components.map((c) => c.productId);
        if (new Set(products).size !== products.length) throw TrackerError.of(Errors.MULTIPLE_COMPONENTS_UPDATE_NOT_ALLOWED);
      }
      const description = input.description ?? undefined;
      const assignee = input.default_assignee !== undefined ? await this.assigneeId(tx, input.default_assignee) : undefined;
      const qaContact = input.default_qa_contact !== undefined ? await this.optionalUserId(tx, input.default_qa_contact) : undefined;
      const cc = input.default_cc !== undefined ? await this.userIds(tx, input.default_cc ?? []) : undefined;
      const sortKey = input.sort_key !== undefined ? checkValueSortKey(input.sort_key) : undefined;
      const bmo = ctx.caller.parameters.bool('bmo_bug_fields') ? await this.bmoSettings(tx, input) : {};
      const productsById = await this.products.findByIds(components.map((c) => c.productId), tx);
      const logins = await this.users.findByIds(components.flatMap((c) => [
        c.defaultAssigneeId, ...(c.defaultQaContactId ? [c.defaultQaContactId] : []), ...c.defaultCcIds,
        ...(c.triageOwnerId ? [c.triageOwnerId] : []),
      ]).concat(assignee ?? [], qaContact ?? [], cc ?? [], bmo.triageOwnerId ?? []), tx);
      const login = (id: number | null) => (id ? logins.get(id)?.login ?? '' : '');
      const ccLogins = (ids: number[]) => ids.map(login).sort().join(', ');

      const results: Array<{ id: number; changes: Changes }> = [];
      for (const component of components) {
        const changes: Changes = {};
        const set: ComponentChanges = {};
        if (newName !== undefined && newName !== component.name) {
          set.name = await this.checkName(tx, productsById.get(component.productId)!, newName, component.id);
          noteChange(changes, 'name', component.name, newName);
        }
        if (description !== undefined) {
          const checked = this.checkDescription(description, component.name);
          if (noteChange(changes, 'description', component.description, checked)) set.description = checked;
        }
        if (assignee !== undefined && noteChange(changes, 'default_assignee', login(component.defaultAssigneeId), login(assignee))) {
          set.defaultAssigneeId = assignee;
        }
        if (qaContact !== undefined && noteChange(changes, 'default_qa_contact', login(component.defaultQaContactId), login(qaContact))) {
          set.defaultQaContactId = qaContact;
        }
        if (input.is_open !== undefined && noteChange(changes, 'is_open', component.isActive, !!input.is_open)) {
          set.isActive = !!input.is_open;
        }
        if (sortKey !== undefined && noteChange(changes, 'sort_key', component.sortKey, sortKey)) set.sortkey = sortKey;
        if (bmo.triageOwnerId !== undefined && noteChange(changes, 'triage_owner', login(component.triageOwnerId), login(bmo.triageOwnerId))) {
          set.triageOwnerId = bmo.triageOwnerId;
        }
        if (bmo.defaultBugType !== undefined && noteChange(changes, 'default_bug_type', component.defaultBugType ?? '', bmo.defaultBugType ?? '')) {
          set.defaultBugType = bmo.defaultBugType;
        }
        if (Object.keys(set).length) await this.componentRepository.update(tx, component.id, set);
        if (cc !== undefined && noteChange(changes, 'default_cc', ccLogins(component.defaultCcIds), ccLogins(cc))) {
          await this.componentRepository.replaceDefaultCc(tx, component.id, cc);
        }
        await this.audit.recordMany(tx, auditRowsOf(changes, { userId: ctx.caller.id, className: COMPONENT_CLASS, objectId: component.id, at: now }));
        results.push({ id: component.id, changes });
      }
      return results;
    });
  }

  /** Delete Component: never the last component of a product (1201), never one that still has bugs (1202). */
  async delete(target: ComponentTarget, ctx: RequestContext) {
    await this.requireSomeAdminRight(ctx.caller);
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const components = await this.resolveTargets(tx, target, ctx.caller);
      const ids = components.map((c) => c.id);
      const productIds = [...new Set(components.map((c) => c.productId))];
      const [bugCounts, remaining, products] = await Promise.all([
        this.bugs.bugCountsByComponent(tx, ids),
        this.componentRepository.countByProducts(tx, productIds),
        this.products.findByIds(productIds, tx),
      ]);
      for (const component of components) {
        const bugs = bugCounts.get(component.id) ?? 0;
        const left = remaining.get(component.productId) ?? 0;
        if (left <= 1) throw TrackerError.of(Errors.COMPONENT_IS_LAST, { name: component.name, product: products.get(component.productId)?.name });
        // Bugzilla deletes the bugs too when `allowbugdeletion` is on; deleting bugs belongs to the bug module, so
        // Tracker always refuses (decisions.md).
        if (bugs > 0) throw TrackerError.of(Errors.COMPONENT_HAS_BUGS, { name: component.name, count: bugs });
        remaining.set(component.productId, left - 1);
      }
      await this.flagTypes.forgetComponents(tx, ids);
      await this.componentRepository.delete(tx, ids);
      await this.audit.recordMany(tx, components.map((c) => ({
        userId: ctx.caller.id, className: COMPONENT_CLASS, objectId: c.id, field: '__remove__', removed: c.name, added: null, at: now,
      })));
      return components.map((c) => ({ id: c.id }));
    });
  }

  /** 304 unless the caller holds editcomponents globally or for some product. */
  private async requireSomeAdminRight(caller: Caller): Promise<void> {
    if (!(await this.products.administersAnyProduct(caller))) {
      throw TrackerError.of(Errors.AUTH_FAILURE, { group: 'editcomponents', action: 'edit', object: 'components' });
    }
  }

  /**
   * Bugzilla's _component_params_to_objects: ids and product/component names; unknown components are skipped
   * silently, a named product must be administrable (106/706), and so must the product of every component found.
   */
  private async resolveTargets(tx: Sql, target: ComponentTarget, caller: Caller): Promise<ComponentRecord[]> {
    if (!target.ids.length && !target.names.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'Component.update', params: ['ids', 'names'] });
    }
    const found = [...(await this.products.componentsByIds(target.ids, tx)).values()];
    for (const name of target.names) {
      const product = await this.values.productToAdminister(caller, name.product, tx, 'components');
      const component = await this.products.componentByName(product.id, name.component, tx);
      if (component) found.push(component);
    }
    const unique = [...new Map(found.map((c) => [c.id, c])).values()];
    const checked = new Set<number>();
    for (const component of unique) {
      if (checked.has(component.productId)) continue;
      await this.values.productToAdminister(caller, String(component.productId), tx, 'components');
      checked.add(component.productId);
    }
    return unique;
  }

  private async checkName(tx: Sql, product: ProductRecord, name: string, selfId?: number): Promise<string> {
    if (name === '') throw TrackerError.of(Errors.COMPONENT_BLANK_NAME);
    if (exceedsLimit(name, MAX_NAME_LENGTH)) throw TrackerError.of(Errors.COMPONENT_NAME_TOO_LONG, { name });
    const existing = await this.products.componentByName(product.id, name, tx);
    if (existing && existing.id !== selfId) throw TrackerError.of(Errors.COMPONENT_ALREADY_EXISTS, { name, product: product.name });
    return name;
  }

  private checkDescription(value: string | undefined, name: string): string {
    const description = value?.trim() ?? '';
    if (description === '') throw TrackerError.of(Errors.COMPONENT_BLANK_DESCRIPTION, { name });
    return description;
  }

  private async assigneeId(tx: Sql, login: string | undefined): Promise<number> {
    const id = await this.optionalUserId(tx, login);
    if (id === null) throw TrackerError.of(Errors.COMPONENT_NEED_INITIALOWNER);
    return id;
  }

  /**
   * BMO's settings of a component (bmo_bug_fields on), those given: its triage owner (a login, blank for none; an
   * unknown login is 51) and the type of its new bugs (blank: the installation's default).
   */
  private async bmoSettings(tx: Sql, input: ComponentUpdateInput): Promise<Pick<ComponentChanges, 'triageOwnerId' | 'defaultBugType'>> {
    const triageOwnerId = input.triage_owner !== undefined ? await this.optionalUserId(tx, input.triage_owner) : undefined;
    const type = input.default_bug_type?.trim();
    const defaultBugType = type === undefined ? undefined : type === '' ? null : legalBugType(type);
    return { ...(triageOwnerId !== undefined ? { triageOwnerId } : {}), ...(defaultBugType !== undefined ? { defaultBugType } : {}) };
  }

  /** A login to its user id; blank is null; an unknown login is 51. */
  private async optionalUserId(tx: Sql, login: string | undefined): Promise<number | null> {
    const trimmedLogin = login?.trim() ?? '';
    if (trimmedLogin === '') return null;
    return (await this.userIds(tx, [trimmedLogin]))[0];
  }

  private async userIds(tx: Sql, logins: string[]): Promise<number[]> {
    const wanted = logins.map((l) => l.trim()).filter((l) => l !== '');
    const users = await this.users.findByLogins(wanted, tx);
    const ids = wanted.map((login) => {
      const user = users.get(login.toLowerCase());
      if (!user) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'user', name: login });
      return user.id;
    });
    return [...new Set(ids)];
  }
}
