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
import { ClassificationService } from './classification.service.js';
import type { ProductCreateInput, ProductUpdateInput } from './dto/product.dto.js';
import {
  applyControlInput, describeControl, isEmptyControl, parseGroupControls, type ControlSettings, type GroupControlInput,
} from './group-controls.js';
import { ProductRepository, type GroupControlRow, type ProductChanges } from './product.repository.js';
import { ProductService, type GroupControlDetail, type ProductRecord } from './product.service.js';
import { MAX_NAME_LENGTH, checkMilestoneName, checkVersionName } from './product-values.service.js';

const PRODUCT_CLASS = 'Tracker::Product';

/**
 * Create Product and Update Product (editcomponents, checked by the route): Bugzilla::Product's validators,
 * the first version and milestone, and the group controls (beyond Bugzilla 5.0). One transaction per call,
 * audited as `Tracker::Product`.
 */
@Injectable()
export class ProductAdminService {
  constructor(
    private readonly db: Db,
    private readonly products: ProductService,
    private readonly productRepository: ProductRepository,
    private readonly classifications: ClassificationService,
    private readonly groups: GroupService,
    private readonly audit: AuditService,
  ) {}

  async create(input: ProductCreateInput, ctx: RequestContext): Promise<number> {
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const name = await this.checkName(tx, input.name?.trim() ?? '');
      const description = input.description?.trim() ?? '';
      if (description === '') throw TrackerError.of(Errors.PRODUCT_MUST_HAVE_DESCRIPTION);
      const version = input.version?.trim() ?? '';
      if (version === '') throw TrackerError.of(Errors.PRODUCT_MUST_HAVE_VERSION);
      checkVersionName(version);
      const defaultMilestone = input.default_milestone?.trim() || '---';
      checkMilestoneName(defaultMilestone);
      const classificationId = await this.classificationFor(tx, input.classification, ctx.caller);
      const controls = parseGroupControls(input.group_controls);
      const resolvedControls = await this.resolveControls(tx, controls, new Map());

      const id = await this.productRepository.insert(tx, {
        name,
        description,
        classificationId,
        isActive: input.is_open !== undefined ? !!input.is_open : true,
        defaultMilestone,
        hasUnconfirmed: input.has_unconfirmed !== undefined ? !!input.has_unconfirmed : true,
      });
      await this.productRepository.insertValue(tx, 'version', { value: version, productId: id, isActive: true, sortkey: 0 });
      await this.productRepository.insertValue(tx, 'milestone', { value: defaultMilestone, productId: id, isActive: true, sortkey: 0 });
      await this.productRepository.insertControls(tx, controlRows(id, resolvedControls));
      await this.audit.recordCreate(tx, { userId: ctx.caller.id, className: PRODUCT_CLASS, objectId: id, added: name, at: now });
      return id;
    });
  }

  /**
   * Update Product: every named product must be accessible (106 otherwise, as Bugzilla's Product->check); a new
   * name for several products is 702; a default milestone must be one of the product's milestones (705).
   */
  async update(target: { ids: number[]; names: string[] }, input: ProductUpdateInput, ctx: RequestContext) {
    if (!target.ids.length && !target.names.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'Product.update', params: ['ids', 'names'] });
    }
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const products = await this.resolveTargets(tx, target, ctx.caller);
      const newName = input.name?.trim();
      if (newName !== undefined && products.length > 1) {
        throw TrackerError.of(Errors.PRODUCT_NAME_ALREADY_IN_USE, { product: newName });
      }
      const description = input.description?.trim();
      if (description === '') throw TrackerError.of(Errors.PRODUCT_MUST_HAVE_DESCRIPTION);
      const defaultMilestone = input.default_milestone?.trim();
      const controlInputs = input.group_controls !== undefined ? parseGroupControls(input.group_controls) : undefined;
      const currentControls = controlInputs ? await this.products.groupControls(products.map((p) => p.id), tx) : [];

      const results: Array<{ id: number; changes: Changes }> = [];
      for (const product of products) {
        const changes: Changes = {};
        const set: ProductChanges = {};
        if (newName !== undefined && newName !== product.name) {
          set.name = await this.checkName(tx, newName, product);
          noteChange(changes, 'name', product.name, newName);
        }
        if (description !== undefined && noteChange(changes, 'description', product.description, description)) set.description = description;
        if (defaultMilestone !== undefined && defaultMilestone !== product.defaultMilestone) {
          if (!(await this.products.milestoneByName(product.id, defaultMilestone, tx))) {
            throw TrackerError.of(Errors.PRODUCT_MUST_DEFINE_DEFAULTMILESTONE, { product: product.name, milestone: defaultMilestone });
          }
          set.defaultMilestone = defaultMilestone;
          noteChange(changes, 'default_milestone', product.defaultMilestone, defaultMilestone);
        }
        if (input.is_open !== undefined && noteChange(changes, 'is_open', product.isActive, !!input.is_open)) {
          set.isActive = !!input.is_open;
        }
        if (input.has_unconfirmed !== undefined && noteChange(changes, 'has_unconfirmed', product.hasUnconfirmed, !!input.has_unconfirmed)) {
          set.hasUnconfirmed = !!input.has_unconfirmed;
        }
        if (Object.keys(set).length) await this.productRepository.update(tx, product.id, set);
        if (controlInputs) {
          const current = new Map(currentControls.filter((c) => c.productId === product.id).map((c) => [c.groupName.toLowerCase(), c]));
          const next = await this.resolveControls(tx, controlInputs, current);
          const before = [...current.values()].map((c) => describeControl(c.groupName, settingsOf(c))).filter(Boolean).join(', ');
          const merged = new Map([...current].map(([key, c]) => [key, { groupId: c.groupId, groupName: c.groupName, settings: settingsOf(c) }]));
          for (const [key, control] of next) merged.set(key, control);
          const after = [...merged.values()]
            .sort((a, b) => a.groupName.localeCompare(b.groupName))
            .map((c) => describeControl(c.groupName, c.settings)).filter(Boolean).join(', ');
          if (noteChange(changes, 'group_controls', before, after)) {
            await this.productRepository.replaceControls(tx, product.id, controlRows(product.id, merged));
          }
        }
        await this.audit.recordMany(tx, auditRowsOf(changes, { userId: ctx.caller.id, className: PRODUCT_CLASS, objectId: product.id, at: now }));
        results.push({ id: product.id, changes });
      }
      return results;
    });
  }

  /** Bugzilla's Product->check over ids then names, duplicates removed; unknown or inaccessible is 106. */
  private async resolveTargets(tx: Sql, target: { ids: number[]; names: string[] }, caller: Caller): Promise<ProductRecord[]> {
    const [byId, byName, accessible] = await Promise.all([
      this.products.findByIds(target.ids, tx),
      this.products.findByNames(target.names, tx),
      this.products.accessibleProductIds(caller, tx),
    ]);
    const visible = new Set(accessible);
    const result = new Map<number, ProductRecord>();
    for (const id of target.ids) {
      const product = byId.get(id);
      if (!product || !visible.has(id)) throw TrackerError.of(Errors.PRODUCT_ACCESS_DENIED, { id });
      result.set(product.id, product);
    }
    for (const name of target.names) {
      const product = byName.get(name.trim().toLowerCase());
      if (!product || !visible.has(product.id)) throw TrackerError.of(Errors.PRODUCT_ACCESS_DENIED, { product: name });
      result.set(product.id, product);
    }
    return [...result.values()];
  }

  /** Bugzilla's Product _check_name: non-blank, at most 64 characters, unique ignoring case (702 either way). */
  private async checkName(tx: Sql, name: string, self?: ProductRecord): Promise<string> {
    if (name === '') throw TrackerError.of(Errors.PRODUCT_BLANK_NAME);
    if (exceedsLimit(name, MAX_NAME_LENGTH)) throw TrackerError.of(Errors.PRODUCT_NAME_TOO_LONG, { name });
    const existing = await this.products.findByName(name, tx);
    if (existing && existing.id !== self?.id) {
      if (existing.name === name) throw TrackerError.of(Errors.PRODUCT_NAME_ALREADY_IN_USE, { product: name });
      throw TrackerError.of(Errors.PRODUCT_NAME_DIFF_IN_CASE, { product: name, existing_product: existing.name });
    }
    return name;
  }

  /** While `useclassification` is off the product goes to classification 1; when on, the name must exist. */
  private async classificationFor(tx: Sql, input: string | undefined, caller: Caller): Promise<number> {
    if (!caller.parameters.bool('useclassification')) return 1;
    const name = input?.trim() ?? '';
    if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'classification' });
    const classification = await this.classifications.findByName(name, tx);
    if (!classification) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'classification', name });
    return classification.id;
  }

  /** The inputs applied to the current rows: each group must exist (51) and be an active bug group. */
  private async resolveControls(tx: Sql, inputs: GroupControlInput[], current: Map<string, GroupControlDetail>) {
    const groups = await this.groups.findByNames(inputs.map((i) => i.group), tx);
    const resolved = new Map<string, { groupId: number; groupName: string; settings: ControlSettings }>();
    for (const input of inputs) {
      const key = input.group.toLowerCase();
      const group = groups.get(key);
      if (!group) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'group', name: input.group });
      const existing = current.get(key);
      const settings = applyControlInput(resolved.get(key)?.settings ?? (existing && settingsOf(existing)), input, group.name);
      // Bugzilla refuses to give a new control to a group that cannot hold bugs; clearing one is always allowed.
      if ((!group.isBugGroup || !group.isActive) && !isEmptyControl(settings)) {
        throw TrackerError.of(Errors.PRODUCT_ILLEGAL_GROUP, { group: group.name });
      }
      resolved.set(key, { groupId: group.id, groupName: group.name, settings });
    }
    return resolved;
  }
}

/** The rows that store some controls of a product: one that controls nothing is not stored (Bugzilla deletes it). */
function controlRows(productId: number, controls: Map<string, { groupId: number; settings: ControlSettings }>): GroupControlRow[] {
  return [...controls.values()].filter((c) => !isEmptyControl(c.settings)).map((c) => ({ productId, groupId: c.groupId, ...c.settings }));
}

function settingsOf(control: GroupControlDetail): ControlSettings {
  return {
    membercontrol: control.membercontrol,
    othercontrol: control.othercontrol,
    entry: control.entry,
    canedit: control.canedit,
    editcomponents: control.editcomponents,
    editbugs: control.editbugs,
    canconfirm: control.canconfirm,
  };
}
