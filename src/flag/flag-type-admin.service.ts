import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { exceedsLimit } from '../common/text-limits.js';
import type { RequestContext } from '../common/http/request-context.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import { GroupService } from '../group/group.service.js';
import type { Sql } from '../database/sql.js';
import { auditRowsOf, noteChange, type Changes } from '../common/changes.js';
import { pickByIdsAndNames } from '../common/pick-by-ids-and-names.js';
import { ProductService, type ProductRecord } from '../product/product.service.js';
import type { FlagTypeInput, FlagTypeUpdateInput } from './dto/flag-type.dto.js';
import { FlagTypeRepository, type ClusionKind, type FlagTypeChanges } from './flag-type.repository.js';
import { FlagTypeService, type Clusion, type FlagTypeRecord } from './flag-type.service.js';

const FLAG_TYPE_CLASS = 'Tracker::FlagType';
const MAX_NAME = 50;
const MAX_CC_LIST = 200;
const MAX_SORTKEY = 32767;
/** Bugzilla's check of cc_list addresses (Email::Address addr-spec, ASCII only), not the site's emailregexp. */
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;
const ANY = '__Any__';
/** The 5.0 function names errors cite (the controller's DTO names them the same way). */
const FUNCTION = { create: 'FlagType.create', update: 'FlagType.update' } as const;

/** The boolean settings of a flag type: API name → property. `is_specifically_requestable` is read as is_requesteeble. */
const BOOLEAN_FIELDS = [
  ['is_active', 'isActive'],
  ['is_requestable', 'isRequestable'],
  ['is_requesteeble', 'isRequesteeble'],
  ['is_multiplicable', 'isMultiplicable'],
] as const;

/** The name `changes` reports each settable property under (the column's, the groups' without `_id`). */
const CHANGE_NAMES: Record<keyof FlagTypeChanges, string> = {
  name: 'name', description: 'description', ccList: 'cc_list', sortkey: 'sortkey', isActive: 'is_active',
  isRequestable: 'is_requestable', isRequesteeble: 'is_requesteeble', isMultiplicable: 'is_multiplicable',
  grantGroupId: 'grant_group', requestGroupId: 'request_group',
};
type BooleanField = (typeof BOOLEAN_FIELDS)[number][0] | 'is_specifically_requestable';

/** Fields a product-level administrator may change (Bugzilla's flag_type_not_editable, 1105). */
const CLUSION_FIELDS = new Set(['inclusions', 'exclusions']);
const VALUE_FIELDS = ['name', 'description', 'cc_list', 'sortkey', 'is_active', 'is_requestable', 'is_requesteeble',
  'is_specifically_requestable', 'is_multiplicable', 'grant_group', 'request_group'] as const;

/** Where a type applies or not: a product (null: any) and a component (null: any). */
interface ClusionRow {
  productId: number | null;
  componentId: number | null;
}

type ClusionName = { product: string; component: string | null };

/**
 * A product (and component) list of `inclusions`/`exclusions` as 5.0's `_process_lists` reads it: an array whose
 * items are product names or objects of product → component names, mixed (`["Widget", {"Gadget": ["Gears"]}]`);
 * a bare object or a bare name is taken as one item. Anything else is 53, naming `functionName`.
 */
export function parseClusionNames(raw: unknown, param: string, functionName: string): ClusionName[] {
  if (raw === undefined || raw === null) return [];
  const invalid = () => TrackerError.of(Errors.PARAM_INVALID, { param, function: functionName });
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number';
  return (Array.isArray(raw) ? raw : [raw]).flatMap((item): ClusionName[] => {
    if (scalar(item)) return [{ product: String(item), component: null }];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw invalid();
    return Object.entries(item as Record<string, unknown>).flatMap(([product, components]): ClusionName[] => {
      const list = components === null || components === undefined ? [] : Array.isArray(components) ? components : [components];
      if (!list.every(scalar)) throw invalid();
      // An empty component list means the whole product (Bugzilla's "Product:__Any__").
      return list.length ? list.map((component) => ({ product, component: String(component) })) : [{ product, component: null }];
    });
  });
}

/**
 * Flag type administration (5.0's FlagType.create/update, admin-routes.md): editcomponents members, or members of
 * a group with editcomponents on a product for the products they administer (those may only change the
 * inclusion/exclusion lists of existing types, 1105). One transaction per call, audited as `Tracker::FlagType`.
 */
@Injectable()
export class FlagTypeAdminService {
  constructor(
    private readonly db: Db,
    private readonly flagTypes: FlagTypeService,
    private readonly flagTypeRepository: FlagTypeRepository,
    private readonly products: ProductService,
    private readonly groups: GroupService,
    private readonly audit: AuditService,
  ) {}

  async create(input: FlagTypeInput, ctx: RequestContext): Promise<number> {
    await this.requireSomeAdminRight(ctx.caller, 'add');
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      for (const key of ['name', 'description'] as const) {
        if ((input[key] ?? '') === '') throw TrackerError.of(Errors.PARAM_REQUIRED, { function: FUNCTION.create, param: key });
      }
      const name = checkName(input.name!);
      const description = checkDescription(input.description!);
      const targetType = (input.target_type ?? 'bug').trim();
      if (targetType !== 'bug' && targetType !== 'attachment') throw TrackerError.of(Errors.FLAG_TYPE_TARGET_TYPE_INVALID, { target_type: targetType });
      const ccList = checkCcList(input.cc_list, FUNCTION.create);
      const sortKey = input.sortkey !== undefined ? checkSortKey(input.sortkey) : 1;
      const groups = await this.groupIds(tx, input);
      const isGlobal = ctx.caller.inGroup('editcomponents');
      const inclusions = input.inclusions !== undefined ? await this.resolveClusions(tx, ctx.caller, parseClusionNames(input.inclusions, 'inclusions', FUNCTION.create)) : [];
      const exclusions = input.exclusions !== undefined ? await this.resolveClusions(tx, ctx.caller, parseClusionNames(input.exclusions, 'exclusions', FUNCTION.create)) : [];
      // No inclusion means every product; only editcomponents members may reach beyond their own products.
      if (!inclusions.length && !isGlobal) {
        throw TrackerError.of(Errors.AUTH_FAILURE, { group: 'editcomponents', action: 'add', object: 'flag types for every product' });
      }
      const flag = (key: BooleanField, fallback = true) => (input[key] !== undefined ? !!input[key] : fallback);
      const id = await this.flagTypeRepository.insert(tx, {
        name,
        description,
        ccList,
        targetType,
        isActive: flag('is_active'),
        isRequestable: flag('is_requestable'),
        isRequesteeble: input.is_specifically_requestable !== undefined ? flag('is_specifically_requestable') : flag('is_requesteeble'),
        isMultiplicable: flag('is_multiplicable'),
        sortkey: sortKey,
        grantGroupId: groups.grant ?? null,
        requestGroupId: groups.request ?? null,
      });
      await this.writeClusions(tx, id, inclusions.length ? inclusions : [{ productId: null, componentId: null }], exclusions);
      await this.audit.recordCreate(tx, { userId: ctx.caller.id, className: FLAG_TYPE_CLASS, objectId: id, added: name, at: now });
      return id;
    });
  }

  async update(target: { ids: number[]; names: string[] }, input: FlagTypeUpdateInput, ctx: RequestContext) {
    await this.requireSomeAdminRight(ctx.caller, 'edit');
    if (!target.ids.length && !target.names.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: FUNCTION.update, params: ['ids', 'names'] });
    }
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const types = await this.resolveTargets(tx, target);
      if (!ctx.caller.inGroup('editcomponents')) {
        const other = VALUE_FIELDS.find((key) => input[key] !== undefined && !CLUSION_FIELDS.has(key));
        if (other) throw TrackerError.of(Errors.FLAG_TYPE_NOT_EDITABLE, { name: types[0].name });
      }
      const set: FlagTypeChanges = {};
      if (input.name !== undefined) set.name = checkName(input.name ?? '');
      if (input.description !== undefined) set.description = checkDescription(input.description ?? '');
      if (input.cc_list !== undefined) set.ccList = checkCcList(input.cc_list, FUNCTION.update);
      if (input.sortkey !== undefined) set.sortkey = checkSortKey(input.sortkey);
      for (const [key, property] of BOOLEAN_FIELDS) if (input[key] !== undefined) set[property] = !!input[key];
      if (input.is_specifically_requestable !== undefined) set.isRequesteeble = !!input.is_specifically_requestable;
      const groups = await this.groupIds(tx, input);
      if (groups.grant !== undefined) set.grantGroupId = groups.grant;
      if (groups.request !== undefined) set.requestGroupId = groups.request;
      const inclusions = input.inclusions !== undefined ? await this.resolveClusions(tx, ctx.caller, parseClusionNames(input.inclusions, 'inclusions', FUNCTION.update)) : undefined;
      const exclusions = input.exclusions !== undefined ? await this.resolveClusions(tx, ctx.caller, parseClusionNames(input.exclusions, 'exclusions', FUNCTION.update)) : undefined;

      const current = await this.flagTypes.clusionsOf(types.map((t) => t.id), tx);
      const describe = await this.clusionDescriber(tx, [...current.inclusions, ...current.exclusions, ...(inclusions ?? []), ...(exclusions ?? [])]);
      const groupIds = types.flatMap((t) => [t.grantGroupId, t.requestGroupId]).concat(groups.grant ?? null, groups.request ?? null);
      const groupNames = new Map((await this.groups.findByIds(groupIds.filter((id): id is number => id !== null), tx)).map((g) => [g.id, g.name]));
      const groupName = (id: number | null | undefined) => (id ? groupNames.get(id) ?? '' : '');

      const results: Array<{ id: number; name: string; changes: Changes }> = [];
      for (const type of types) {
        const changes: Changes = {};
        const before = rowOf(type);
        for (const [property, value] of Object.entries(set) as Array<[keyof FlagTypeChanges, FlagTypeChanges[keyof FlagTypeChanges]]>) {
          const isGroup = property === 'grantGroupId' || property === 'requestGroupId';
          noteChange(changes, CHANGE_NAMES[property],
            isGroup ? groupName(before[property]) : before[property],
            isGroup ? groupName(value as number | null) : value);
        }
        if (Object.keys(set).length) await this.flagTypeRepository.update(tx, type.id, set);
        for (const [field, next] of [['inclusions', inclusions], ['exclusions', exclusions]] as const) {
          if (!next) continue;
          const old = current[field].filter((c) => c.typeId === type.id);
          // An empty inclusion list would hide the type everywhere; Bugzilla stores "any product" instead.
          const rows = field === 'inclusions' && !next.length ? [{ productId: null, componentId: null }] : next;
          if (noteChange(changes, field, describe(old), describe(rows))) {
            await this.flagTypeRepository.replaceClusions(tx, field, type.id, rows.map((r) => ({ typeId: type.id, ...r })));
          }
        }
        await this.audit.recordMany(tx, auditRowsOf(changes, { userId: ctx.caller.id, className: FLAG_TYPE_CLASS, objectId: type.id, at: now }));
        results.push({ id: type.id, name: String(set.name ?? type.name), changes });
      }
      return results;
    });
  }

  /** 304 unless the caller holds editcomponents globally or for some product. */
  private async requireSomeAdminRight(caller: Caller, action: string): Promise<void> {
    if (!(await this.products.administersAnyProduct(caller))) {
      throw TrackerError.of(Errors.AUTH_FAILURE, { group: 'editcomponents', action, object: 'flagtypes' });
    }
  }

  /** ids then names (every type of that name); an unknown id or name is 51. */
  private async resolveTargets(tx: Sql, target: { ids: number[]; names: string[] }): Promise<FlagTypeRecord[]> {
    const byId = await this.flagTypes.typesByIds(target.ids, tx);
    const byName = await this.flagTypes.typesByNames(target.names, tx);
    return pickByIdsAndNames([...byId.values(), ...byName], target, 'flag type');
  }

  /** grant_group / request_group by name: undefined when absent, null when emptied (blank or null), 51 for an unknown group. */
  private async groupIds(tx: Sql, input: Pick<FlagTypeInput, 'grant_group' | 'request_group'>): Promise<{ grant?: number | null; request?: number | null }> {
    const names = { grant: input.grant_group !== undefined ? input.grant_group?.trim() ?? '' : undefined,
      request: input.request_group !== undefined ? input.request_group?.trim() ?? '' : undefined };
    const groups = await this.groups.findByNames([names.grant, names.request].filter((n): n is string => !!n), tx);
    const resolve = (name: string | undefined) => {
      if (name === undefined) return undefined;
      if (name === '') return null;
      const group = groups.get(name.toLowerCase());
      if (!group) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'group', name });
      return group.id;
    };
    return { grant: resolve(names.grant), request: resolve(names.request) };
  }

  /**
   * Product and component names to rows: each product must exist, be visible and administered by the caller
   * (106 otherwise), each component must be one of the product's (105).
   */
  private async resolveClusions(tx: Sql, caller: Caller, names: Array<{ product: string; component: string | null }>): Promise<ClusionRow[]> {
    const products = await this.products.findByNames(names.map((n) => n.product), tx);
    const accessible = new Set(await this.products.accessibleProductIds(caller, tx));
    const rows: ClusionRow[] = [];
    const checked = new Set<number>();
    for (const name of names) {
      const product = products.get(name.product.trim().toLowerCase());
      if (!product || !accessible.has(product.id)) throw TrackerError.of(Errors.PRODUCT_ACCESS_DENIED, { product: name.product });
      if (!checked.has(product.id)) {
        if (!(await this.products.canAdmin(caller, product.id, tx))) throw TrackerError.of(Errors.PRODUCT_ACCESS_DENIED, { product: name.product });
        checked.add(product.id);
      }
      rows.push({ productId: product.id, componentId: name.component === null ? null : await this.componentId(tx, product, name.component) });
    }
    const unique = new Map(rows.map((r) => [`${r.productId}:${r.componentId}`, r]));
    return [...unique.values()];
  }

  private async componentId(tx: Sql, product: ProductRecord, name: string): Promise<number> {
    const component = await this.products.componentByName(product.id, name, tx);
    if (!component) throw TrackerError.of(Errors.PRODUCT_UNKNOWN_COMPONENT, { product: product.name, component: name });
    return component.id;
  }

  private async writeClusions(tx: Sql, typeId: number, inclusions: ClusionRow[], exclusions: ClusionRow[]): Promise<void> {
    for (const [kind, rows] of [['inclusions', inclusions], ['exclusions', exclusions]] as Array<[ClusionKind, ClusionRow[]]>) {
      await this.flagTypeRepository.insertClusions(tx, kind, rows.map((r) => ({ typeId, ...r })));
    }
  }

  /** Renders clusion rows as `Product:Component` (`__Any__` for "any"), sorted, for `changes`. */
  private async clusionDescriber(tx: Sql, rows: ReadonlyArray<ClusionRow | Clusion>) {
    const products = await this.products.findByIds(rows.flatMap((r) => (r.productId === null ? [] : [r.productId])), tx);
    const components = await this.products.componentsByIds(rows.flatMap((r) => (r.componentId === null ? [] : [r.componentId])), tx);
    return (list: ReadonlyArray<ClusionRow | Clusion>) => list
      .map((r) => `${r.productId === null ? ANY : products.get(r.productId)?.name ?? r.productId}:${r.componentId === null ? ANY : components.get(r.componentId)?.name ?? r.componentId}`)
      .sort()
      .join(', ');
  }
}

/** The settable properties of a type as it is, to compare with what an update sets. */
function rowOf(type: FlagTypeRecord): Required<FlagTypeChanges> {
  return {
    name: type.name, description: type.description, ccList: type.ccList, sortkey: type.sortKey, isActive: type.isActive,
    isRequestable: type.isRequestable, isRequesteeble: type.isRequesteeble, isMultiplicable: type.isMultiplicable,
    grantGroupId: type.grantGroupId, requestGroupId: type.requestGroupId,
  };
}

/** 1–50 characters, no spaces or commas (1101). */
function checkName(value: string): string {
  const name = value.trim();
  if (name === '' || exceedsLimit(name, MAX_NAME) || /[\s,]/.test(name)) throw TrackerError.of(Errors.FLAG_TYPE_NAME_INVALID, { name });
  return name;
}

function checkDescription(value: string): string {
  const description = value.trim();
  if (description === '') throw TrackerError.of(Errors.FLAG_TYPE_DESCRIPTION_INVALID);
  return description;
}

/** An array of addresses or one string of them; at most 200 characters (1103), each a valid address (501). */
function checkCcList(raw: unknown, functionName: string): string {
  if (raw === undefined || raw === null) return '';
  const items = Array.isArray(raw) ? raw : [raw];
  if (items.some((i) => i !== null && typeof i === 'object')) throw TrackerError.of(Errors.PARAM_INVALID, { param: 'cc_list', function: functionName });
  const addresses = items.flatMap((i) => String(i).split(/[,\s]+/)).filter((a) => a !== '');
  const list = addresses.join(', ');
  if (exceedsLimit(list, MAX_CC_LIST)) throw TrackerError.of(Errors.FLAG_TYPE_CC_LIST_INVALID);
  for (const address of addresses) if (!ADDRESS.test(address)) throw TrackerError.of(Errors.ILLEGAL_EMAIL_ADDRESS, { addr: address });
  return list;
}

/** A natural number up to 32767 (1104). */
function checkSortKey(raw: unknown): number {
  const text = String(Array.isArray(raw) ? raw[0] : raw).trim();
  if (!/^\d+$/.test(text) || Number(text) > MAX_SORTKEY) throw TrackerError.of(Errors.FLAG_TYPE_SORTKEY_INVALID, { sortkey: text });
  return Number(text);
}
