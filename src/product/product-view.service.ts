import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { FieldSelection, ResourceFields } from '../common/fields/field-selection.js';
import { UserService } from '../user/user.service.js';
import { CONTROL_NAMES } from './group-controls.js';
import { PRODUCT_FLAG_TYPES, type ComponentFlagType, type ProductFlagTypes } from './product.tokens.js';
import { ProductService, type ComponentRecord, type GroupControlDetail, type NamedValueRecord, type ProductRecord } from './product.service.js';

/** The three product lists of Bugzilla (`type` of Get Product, and the product_* routes). */
export const PRODUCT_LIST_TYPES = ['accessible', 'selectable', 'enterable'] as const;
export type ProductListType = (typeof PRODUCT_LIST_TYPES)[number];

/** Field classes of Get Product: components, versions, milestones and group controls are nested objects. */
export const COMPONENT_FIELDS: ResourceFields = {};
export const PRODUCT_FIELDS: ResourceFields = {
  nested: { components: COMPONENT_FIELDS, versions: {}, milestones: {}, group_controls: {} },
};

/** A flag type as Get Product shows it under each component (service-spec "Flagtype"). */
export function presentFlagType(type: ComponentFlagType) {
  return {
    id: type.id,
    name: type.name,
    description: type.description,
    cc_list: type.ccList,
    sort_key: type.sortKey,
    is_active: type.isActive,
    is_requestable: type.isRequestable,
    is_requesteeble: type.isRequesteeble,
    is_multiplicable: type.isMultiplicable,
    grant_group: type.grantGroupId,
    request_group: type.requestGroupId,
  };
}

function presentNamedValue(value: NamedValueRecord) {
  return { id: value.id, name: value.value, sort_key: value.sortKey, is_active: value.isActive };
}

export function presentGroupControl(control: GroupControlDetail) {
  return {
    group: control.groupName,
    entry: control.entry,
    membercontrol: CONTROL_NAMES[control.membercontrol] ?? 'na',
    othercontrol: CONTROL_NAMES[control.othercontrol] ?? 'na',
    canedit: control.canedit,
    editcomponents: control.editcomponents,
    editbugs: control.editbugs,
    canconfirm: control.canconfirm,
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const item of items) {
    const list = map.get(key(item)) ?? [];
    list.push(item);
    map.set(key(item), list);
  }
  return map;
}

/**
 * Get Product and the product lists: which products a caller may see, and their public shape with components
 * (and their flag types), versions, milestones and, for editcomponents members, group controls. One query per
 * relation for the whole page; relations nobody selected are not loaded.
 */
@Injectable()
export class ProductViewService {
  constructor(
    private readonly products: ProductService,
    private readonly users: UserService,
    @Inject(PRODUCT_FLAG_TYPES) private readonly flagTypes: ProductFlagTypes,
  ) {}

  async listIds(type: ProductListType, caller: Caller): Promise<number[]> {
    if (type === 'selectable') return this.products.selectableProductIds(caller);
    if (type === 'enterable') return this.products.enterableProductIds(caller);
    return this.products.accessibleProductIds(caller);
  }

  /**
   * Bugzilla's Product.get: the union of the `type` lists (accessible by default), narrowed to `ids` and `names`
   * when either is given. Unknown and inaccessible products are silently left out.
   */
  async get(caller: Caller, query: { ids?: number[]; names?: string[]; types?: string[] }, selection: FieldSelection) {
    const { ids, names, types } = query;
    if (!ids && !names && !types) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'Product.get', params: ['ids', 'names', 'type'] });
    }
    for (const type of types ?? []) {
      if (!PRODUCT_LIST_TYPES.includes(type as ProductListType)) throw TrackerError.of(Errors.GET_PRODUCTS_INVALID_TYPE, { type });
    }
    const lists = types?.length ? [...new Set(types)] as ProductListType[] : ['accessible' as const];
    const visible = new Set((await Promise.all(lists.map((t) => this.listIds(t, caller)))).flat());
    const products = [...(await this.products.findByIds([...visible])).values()];
    let requested = products;
    if (ids || names) {
      const wantedIds = new Set(ids ?? []);
      const wantedNames = new Set((names ?? []).map((n) => n.toLowerCase()));
      requested = products.filter((p) => wantedIds.has(p.id) || wantedNames.has(p.name.toLowerCase()));
    }
    requested.sort((a, b) => a.name.localeCompare(b.name));
    return this.present(requested, caller, selection);
  }

  /** The public objects of some products, loading only the selected relations. */
  async present(products: ProductRecord[], caller: Caller, selection: FieldSelection) {
    const ids = products.map((p) => p.id);
    const wants = (name: string) => selection.wants(name, PRODUCT_FIELDS);
    const showControls = caller.inGroup('editcomponents') && wants('group_controls');
    const wantsComponents = wants('components');
    const bmoFields = caller.parameters.bool('bmo_bug_fields');
    const [components, versions, milestones, controls] = await Promise.all([
      wantsComponents ? this.products.componentsOfProducts(ids) : Promise.resolve([] as ComponentRecord[]),
      wants('versions') ? this.products.versionsOfProducts(ids) : Promise.resolve([] as NamedValueRecord[]),
      wants('milestones') ? this.products.milestonesOfProducts(ids) : Promise.resolve([] as NamedValueRecord[]),
      showControls ? this.products.groupControls(ids) : Promise.resolve([] as GroupControlDetail[]),
    ]);
    const wantsFlagTypes = wantsComponents && this.wantsComponentSubfield(selection, 'flag_types');
    const [users, flagTypes] = await Promise.all([
      this.users.findByIds(components.flatMap((c) => [
        c.defaultAssigneeId, ...(c.defaultQaContactId ? [c.defaultQaContactId] : []), ...(bmoFields && c.triageOwnerId ? [c.triageOwnerId] : []),
      ])),
      wantsFlagTypes ? this.flagTypes.typesForComponents(components) : Promise.resolve(undefined),
    ]);
    const componentsByProduct = groupBy(components, (c) => c.productId);
    const versionsByProduct = groupBy(versions, (v) => v.productId);
    const milestonesByProduct = groupBy(milestones, (m) => m.productId);
    const controlsByProduct = groupBy(controls, (c) => c.productId);

    const presentComponent = (c: ComponentRecord) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      default_assigned_to: users.get(c.defaultAssigneeId)?.login ?? '',
      default_qa_contact: c.defaultQaContactId ? users.get(c.defaultQaContactId)?.login ?? '' : '',
      sort_key: c.sortKey,
      is_active: c.isActive,
      // BMO's Product.get (issue 43).
      ...(bmoFields
        ? { triage_owner: c.triageOwnerId ? users.get(c.triageOwnerId)?.login ?? '' : '', default_bug_type: c.defaultBugType ?? caller.parameters.get('default_bug_type') }
        : {}),
      ...(flagTypes
        ? {
          flag_types: {
            bug: (flagTypes.get(c.id)?.bug ?? []).map(presentFlagType),
            attachment: (flagTypes.get(c.id)?.attachment ?? []).map(presentFlagType),
          },
        }
        : {}),
    });

    return products.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      is_active: p.isActive,
      default_milestone: p.defaultMilestone,
      has_unconfirmed: p.hasUnconfirmed,
      classification: p.classification,
      ...(wantsComponents ? { components: (componentsByProduct.get(p.id) ?? []).map(presentComponent) } : {}),
      ...(wants('versions') ? { versions: (versionsByProduct.get(p.id) ?? []).map(presentNamedValue) } : {}),
      ...(wants('milestones') ? { milestones: (milestonesByProduct.get(p.id) ?? []).map(presentNamedValue) } : {}),
      ...(showControls ? { group_controls: (controlsByProduct.get(p.id) ?? []).map(presentGroupControl) } : {}),
    }));
  }

  /** Whether `components.<name>` survives the selection (asked in advance, so flag types are loaded only when shown). */
  private wantsComponentSubfield(selection: FieldSelection, name: string): boolean {
    const probe = selection.apply({ components: [{ [name]: true }] }, PRODUCT_FIELDS) as { components?: Array<Record<string, unknown>> };
    return !!probe.components?.[0] && name in probe.components[0];
  }
}
