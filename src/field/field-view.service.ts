import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { ResourceFields } from '../common/fields/field-selection.js';
import { FieldType } from './field-type.js';
import { ProductService, type NamedValueRecord } from '../product/product.service.js';
import { FieldService, type FieldDefRecord, type FieldValueOfField } from './field.service.js';
import { SELECT_TYPES } from './custom-field-input.js';

/** Fields whose values belong to a product (Bugzilla's PRODUCT_SPECIFIC_FIELDS). */
const PRODUCT_SPECIFIC_FIELDS = ['version', 'target_milestone', 'component'] as const;
type ProductSpecificField = (typeof PRODUCT_SPECIFIC_FIELDS)[number];

/** Select fields whose values live in their own tables, not in field_values (Bugzilla's ABNORMAL_SELECTS). */
/**
 * The keywords field lists the keywords as its values. Bugzilla 5.0 gives the personal tags (`tag`) the same field
 * type and no values; an installation imported from Bugzilla has that type (docs/import.md).
 */
const isKeywords = (field: FieldDefRecord): boolean => field.type === FieldType.KEYWORDS && field.name === 'keywords';

const ABNORMAL_SELECTS = new Set(['product', 'classification', ...PRODUCT_SPECIFIC_FIELDS]);

/** API names of Bug fields that Legal Values also accepts (Bugzilla::Bug FIELD_MAP, the select fields of it). */
const API_FIELD_NAMES: Readonly<Record<string, string>> = {
  status: 'bug_status', severity: 'bug_severity', platform: 'rep_platform',
};

export const FIELD_FIELDS: ResourceFields = { nested: { values: {} } };

const isProductSpecific = (name: string): name is ProductSpecificField => (PRODUCT_SPECIFIC_FIELDS as readonly string[]).includes(name);

/**
 * Get Fields and Legal Values of 5.0 (`GET /rest/field/bug…`, Bugzilla's Bug.fields / Bug.legal_values): every
 * field with its type, flags and visibility, and the values of the select fields — statuses with their
 * transitions, keywords with descriptions, components/versions/milestones of the products the caller may see.
 */
@Injectable()
export class FieldViewService {
  constructor(private readonly fields: FieldService, private readonly products: ProductService) {}

  async getFields(caller: Caller, target?: { ids: number[]; names: string[] }) {
    const all = await this.fields.allFields();
    const fields = target && (target.ids.length || target.names.length) ? await this.fields.fieldsByIdsAndNames(target) : all;
    const values = await this.valuesFor(caller, fields);
    const byId = new Map(all.map((f) => [f.id, f.name]));
    return fields.map((field) => {
      const hasValues = this.hasValues(field);
      return {
        id: field.id,
        type: field.type,
        is_custom: field.isCustom,
        name: field.name,
        display_name: field.description,
        is_mandatory: field.isMandatory,
        is_on_bug_entry: field.enterBug,
        visibility_field: field.visibilityFieldId ? byId.get(field.visibilityFieldId) ?? null : null,
        visibility_values: [] as string[],
        ...(hasValues
          ? {
            value_field: isProductSpecific(field.name) ? 'product' : field.valueFieldId ? byId.get(field.valueFieldId) ?? null : null,
            values: values.get(field.id) ?? [],
          }
          : {}),
      };
    });
  }

  /**
   * Legal Values: the active values of a global select field (API or internal name), or the names of a
   * product's versions, milestones or components (`product_id` required, 50; accessible, 106). Anything else: 108.
   */
  async legalValues(caller: Caller, fieldName: string, productId: number | undefined): Promise<string[]> {
    const name = API_FIELD_NAMES[fieldName] ?? fieldName;
    if (isProductSpecific(name)) {
      if (productId === undefined) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Bug.legal_values', param: 'product_id' });
      if (!(await this.products.canAccess(caller, productId))) throw TrackerError.of(Errors.PRODUCT_ACCESS_DENIED, { id: productId });
      if (name === 'component') return (await this.products.componentsOfProducts([productId])).map((c) => c.name);
      const list = name === 'version' ? await this.products.versionsOfProducts([productId]) : await this.products.milestonesOfProducts([productId]);
      return list.map((v) => v.value);
    }
    const field = (await this.fields.allFields()).find((f) => f.name === name && SELECT_TYPES.has(f.type) && !ABNORMAL_SELECTS.has(f.name));
    if (!field) throw TrackerError.of(Errors.INVALID_FIELD_NAME, { field: fieldName });
    return (await this.fields.legalValues(field.name)).filter((v) => v.isActive).map((v) => v.value);
  }

  private hasValues(field: FieldDefRecord): boolean {
    return (SELECT_TYPES.has(field.type) && field.name !== 'product') || isProductSpecific(field.name) || isKeywords(field);
  }

  /** The `values` of every field that has some, one query per kind of source. */
  private async valuesFor(caller: Caller, fields: FieldDefRecord[]): Promise<Map<number, unknown[]>> {
    const result = new Map<number, unknown[]>();
    const withValues = fields.filter((f) => this.hasValues(f));
    const plain = withValues.filter((f) => !isProductSpecific(f.name) && !isKeywords(f) && f.name !== 'classification');
    const specific = withValues.filter((f) => isProductSpecific(f.name));
    const keywordFields = withValues.filter(isKeywords);

    const [fieldValues, transitions] = await Promise.all([
      this.fields.valuesOfFields(plain.map((f) => f.id)),
      plain.some((f) => f.name === 'bug_status') ? this.fields.transitions() : Promise.resolve([]),
    ]);
    const valueNames = new Map(fieldValues.map((v) => [v.id, v.value]));
    for (const field of plain) {
      const own = fieldValues.filter((v) => v.fieldId === field.id);
      result.set(field.id, field.name === 'bug_status'
        ? this.statusValues(own, transitions)
        : own.map((v) => ({
          name: v.value, sort_key: v.sortKey, sortkey: v.sortKey,
          visibility_values: v.visibilityValueId ? [valueNames.get(v.visibilityValueId) ?? ''] : [], is_active: v.isActive,
        })));
    }

    if (specific.length) {
      const productIds = await this.products.accessibleProductIds(caller);
      const [products, components, versions, milestones] = await Promise.all([
        this.products.findByIds(productIds),
        specific.some((f) => f.name === 'component') ? this.products.componentsOfProducts(productIds) : Promise.resolve([]),
        specific.some((f) => f.name === 'version') ? this.products.versionsOfProducts(productIds) : Promise.resolve([]),
        specific.some((f) => f.name === 'target_milestone') ? this.products.milestonesOfProducts(productIds) : Promise.resolve([]),
      ]);
      const productName = (id: number) => products.get(id)?.name ?? '';
      type Value = Pick<NamedValueRecord, 'id' | 'productId' | 'isActive' | 'sortKey'> & { name: string };
      // In each class's LIST_ORDER, as Bugzilla's get_all lists them: Component by product id and name, Version by
      // id, Milestone by sort key and value (across products); the id last, for ties.
      const order: Record<ProductSpecificField, (a: Value, b: Value) => number> = {
        component: (a, b) => a.productId - b.productId || a.name.localeCompare(b.name) || a.id - b.id,
        version: (a, b) => a.id - b.id,
        target_milestone: (a, b) => a.sortKey - b.sortKey || a.name.localeCompare(b.name) || a.id - b.id,
      };
      const present = (field: ProductSpecificField, list: Value[]) => list
        .sort(order[field])
        .map((v) => ({ name: v.name, sort_key: v.sortKey, sortkey: v.sortKey, visibility_values: [productName(v.productId)], is_active: v.isActive }));
      for (const field of specific) {
        if (field.name === 'component') result.set(field.id, present('component', components.map((c) => ({ ...c }))));
        if (field.name === 'version') result.set(field.id, present('version', versions.map((v) => ({ ...v, name: v.value }))));
        if (field.name === 'target_milestone') result.set(field.id, present('target_milestone', milestones.map((m) => ({ ...m, name: m.value }))));
      }
    }

    const classificationField = withValues.find((f) => f.name === 'classification');
    if (classificationField) {
      // Bugzilla::Classification is the field's choice class: every classification, whoever asks, with no is_active.
      result.set(classificationField.id, (await this.products.allClassifications()).map((c) => ({
        name: c.name, sort_key: c.sortKey, sortkey: c.sortKey, visibility_values: [],
      })));
    }

    if (keywordFields.length) {
      const keywords = (await this.fields.allKeywords()).filter((k) => k.isActive);
      for (const field of keywordFields) result.set(field.id, keywords.map((k) => ({ name: k.name, description: k.description })));
    }
    return result;
  }

  /**
   * bug_status values as Bugzilla lists them: first the "(new bug)" pseudo-status with the statuses a bug may be
   * filed in, then every status with the active statuses it may change to. The pseudo-status's name is null: 5.0
   * builds it with a `name` key, but a status's name is read from `value`, which it lacks.
   */
  private statusValues(statuses: FieldValueOfField[], transitions: Awaited<ReturnType<FieldService['transitions']>>) {
    const active = new Set(statuses.filter((s) => s.isActive).map((s) => s.value));
    const canChangeTo = (from: string | null) => transitions
      .filter((t) => t.from === from && t.to !== from && active.has(t.to))
      .map((t) => ({ name: t.to, comment_required: t.requireComment }));
    return [
      { name: null, is_open: true, sort_key: 0, sortkey: 0, can_change_to: canChangeTo(null), visibility_values: [] },
      ...statuses.map((s) => ({
        name: s.value, is_open: s.isOpen !== false, sort_key: s.sortKey, sortkey: s.sortKey,
        can_change_to: canChangeTo(s.value), visibility_values: [],
      })),
    ];
  }
}
