import { Injectable } from '@nestjs/common';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { ProductService } from '../../product/product.service.js';
import { FieldService } from '../../field/field.service.js';
import { UserService } from '../../user/user.service.js';
import { BugWork, userNamed } from './bug-work.js';
import { roundHours } from './update-request.js';
import { legalBugType } from '../../params/parameter-definitions.js';

const MAX_SUMMARY = 255;

/** The select fields of the bugs row: its property, the API name and the internal field name (FieldService). */
const SELECT_FIELDS = [
  { key: 'opSys', field: 'op_sys', legal: 'op_sys' },
  { key: 'platform', field: 'platform', legal: 'rep_platform' },
  { key: 'priority', field: 'priority', legal: 'priority' },
  { key: 'severity', field: 'severity', legal: 'bug_severity' },
] as const;

const TEXT_FIELDS = ['url', 'whiteboard'] as const;

/**
 * The columns of the bugs row on Update Bug: product with component, version and milestone (rule 5's field side),
 * assignee and QA contact (with their resets), the select, text, time and accessibility fields.
 */
@Injectable()
export class FieldSteps {
  constructor(
    private readonly products: ProductService,
    private readonly fields: FieldService,
    private readonly users: UserService,
  ) {}

  // ---- Product, component, version, milestone (rule 5) ----------------------------------------------------

  async applyProduct(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const { request: r } = run;
    const oldProduct = w.product;

    if (r.product !== undefined) {
      const name = r.product.trim();
      if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'product' });
      if (name.toLowerCase() !== oldProduct.name.toLowerCase()) {
        const product = await run.products.findByName(name);
        // Rule 5: the caller must be able to file bugs in the new product; an unknown one gives the same error.
        if (!product || !(await run.products.canEnter(run.caller, product))) {
          throw TrackerError.of(Errors.ENTRY_ACCESS_DENIED, { product: name });
        }
        w.allow('product', oldProduct.name, product.name);
        w.product = product;
        w.productChanged = true;
        w.set('productId', 'product', oldProduct.name, product.name, product.id);
      }
    }
    const product = w.product;

    // On a product change, component and version keep their names and must exist in the new product.
    const componentName = r.component ?? (w.productChanged ? bug.component : undefined);
    if (componentName !== undefined) {
      const name = componentName.trim();
      if (name === '') throw TrackerError.of(Errors.REQUIRE_COMPONENT);
      if (w.productChanged || name.toLowerCase() !== bug.component.toLowerCase()) {
        const component = await run.products.componentByName(product.id, name);
        if (!component) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'component', name, product: product.name });
        if (!component.isActive && component.id !== bug.row.componentId) {
          throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'component', value: component.name });
        }
        w.component = component;
        if (component.id !== bug.row.componentId) {
          w.allow('component', bug.component, component.name);
          w.componentId = component.id;
          w.componentName = component.name;
          w.set('componentId', 'component', bug.component, component.name, component.id);
        }
      }
    }

    const versionName = r.version ?? (w.productChanged ? bug.row.version : undefined);
    if (versionName !== undefined) {
      const name = versionName.trim();
      if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'version' });
      if (w.productChanged || name !== bug.row.version) {
        const version = await run.products.versionByName(product.id, name);
        if (!version) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'version', name, product: product.name });
        if (!version.isActive && version.value !== bug.row.version) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'version', value: version.value });
        if (version.value !== bug.row.version) {
          w.allow('version', bug.row.version, version.value);
          w.set('version', 'version', bug.row.version, version.value);
        }
      }
    }

    let milestoneName = r.targetMilestone;
    let fallBackToDefault = false;
    if (milestoneName === undefined && w.productChanged) {
      // Without usetargetmilestone the field is not shown, so the bug takes the new product's default;
      // with it, the bug keeps its milestone when the new product has one of that name.
      fallBackToDefault = true;
      milestoneName = run.params.bool('usetargetmilestone') ? bug.row.targetMilestone : product.defaultMilestone;
    }
    if (milestoneName !== undefined) {
      const name = milestoneName.trim();
      if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'milestone' });
      if (w.productChanged || name !== bug.row.targetMilestone) {
        let milestone = await run.products.milestoneByName(product.id, name);
        if (!milestone && fallBackToDefault) milestone = await run.products.milestoneByName(product.id, product.defaultMilestone);
        if (!milestone) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'milestone', name, product: product.name });
        if (!milestone.isActive && milestone.value !== bug.row.targetMilestone && !fallBackToDefault) {
          throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'milestone', value: milestone.value });
        }
        if (milestone.value !== bug.row.targetMilestone) {
          w.allow('target_milestone', bug.row.targetMilestone, milestone.value);
          w.targetMilestone = milestone.value;
          w.set('targetMilestone', 'target_milestone', bug.row.targetMilestone, milestone.value);
        }
      }
    }
  }

  // ---- Assignee and QA contact ----------------------------------------------------------------------------

  async applyPeople(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const r = run.request;
    const component = async () => w.component ?? (await run.products.componentsByIds([w.componentId])).get(w.componentId)!;

    let assignee: { id: number; login: string } | undefined;
    if (r.resetAssignedTo) {
      const id = (await component()).defaultAssigneeId;
      assignee = { id, login: (await this.users.findById(id, run.tx))?.login ?? '' };
    } else if (r.assignedTo !== undefined) {
      if (r.assignedTo.trim() === '') throw TrackerError.of(Errors.REASSIGN_TO_EMPTY);
      assignee = userNamed(run, r.assignedTo);
    }
    if (assignee && assignee.id !== bug.row.assignedToId) {
      w.allow('assigned_to', bug.assignee.login, assignee.login);
      w.set('assignedToId', 'assigned_to', bug.assignee.login, assignee.login, assignee.id);
      w.formerIds.push(bug.row.assignedToId);
      w.assigneeId = assignee.id;
      // The assignee being replaced keeps the assignee's rights for the rest of this update (rule 6).
      w.fieldCaller.isAssignee ||= run.caller.id === assignee.id;
    }

    let qa: { id: number; login: string } | null | undefined;
    if (r.resetQaContact) {
      const id = (await component()).defaultQaContactId;
      qa = id === null ? null : { id, login: (await this.users.findById(id, run.tx))?.login ?? '' };
    } else if (r.qaContact !== undefined) {
      qa = r.qaContact.trim() === '' ? null : userNamed(run, r.qaContact);
    }
    if (qa !== undefined && (qa?.id ?? null) !== bug.row.qaContactId) {
      const oldLogin = bug.qaContact?.login ?? '';
      w.allow('qa_contact', oldLogin, qa?.login ?? '');
      w.set('qaContactId', 'qa_contact', oldLogin, qa?.login ?? '', qa?.id ?? null);
      if (bug.row.qaContactId !== null) w.formerIds.push(bug.row.qaContactId);
      w.qaContactId = qa?.id ?? null;
      w.fieldCaller.isQaContact ||= qa !== null && run.caller.id === qa.id;
    }
  }

  // ---- The plain fields -----------------------------------------------------------------------------------

  /** BMO's bug type (set_type): one of its types; an empty one is refused as an empty select field is. */
  private applyType(w: BugWork, value: string): void {
    const type = legalBugType(value);
    const current = w.bug.row.type;
    if (type === current) return;
    w.allow('type', current, type);
    w.set('type', 'type', current, type);
  }

  async applyPlainFields(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const r = run.request;
    const row = bug.row;

    for (const f of SELECT_FIELDS) {
      const value = r[f.key];
      if (value === undefined) continue;
      const name = value.trim();
      if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: f.field });
      const current = row[f.key];
      if (name === current) continue;
      const legal = (await run.fields.legalValues(f.legal)).find((v) => v.value.toLowerCase() === name.toLowerCase());
      if (!legal) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: f.field, name });
      if (legal.value === current) continue;
      if (!legal.isActive) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: f.field, value: legal.value });
      w.allow(f.field, current, legal.value);
      w.set(f.key, f.field, current, legal.value);
    }

    if (r.type !== undefined) this.applyType(w, r.type);

    if (r.summary !== undefined) {
      const summary = r.summary.trim();
      if (summary === '') throw TrackerError.of(Errors.REQUIRE_SUMMARY);
      if ([...summary].length > MAX_SUMMARY) throw TrackerError.of(Errors.FREETEXT_TOO_LONG, { field: 'summary', length: [...summary].length, max: MAX_SUMMARY });
      if (summary !== row.summary) {
        w.allow('summary', row.summary, summary);
        w.set('summary', 'summary', row.summary, summary);
      }
    }
    for (const key of TEXT_FIELDS) {
      const value = r[key];
      if (value === undefined) continue;
      const text = value.trim();
      if (text === row[key]) continue;
      w.allow(key, row[key], text);
      w.set(key, key, row[key], text);
    }

    if (r.deadline !== undefined && (r.deadline ?? '') !== (row.deadline ?? '')) {
      w.allow('deadline', row.deadline ?? '', r.deadline ?? '');
      w.set('deadline', 'deadline', row.deadline ?? '', r.deadline ?? '', r.deadline);
    }
    if (r.estimatedTime !== undefined && roundHours(r.estimatedTime.hours) !== row.estimatedTime) {
      w.allow('estimated_time', row.estimatedTime, r.estimatedTime.asSent);
      w.set('estimatedTime', 'estimated_time', row.estimatedTime, r.estimatedTime.asSent, roundHours(r.estimatedTime.hours));
    }
    if (r.isCcAccessible !== undefined && r.isCcAccessible !== row.isCcAccessible) {
      w.allow('is_cc_accessible', row.isCcAccessible, r.isCcAccessible);
      w.set('isCcAccessible', 'is_cc_accessible', row.isCcAccessible, r.isCcAccessible);
    }
    if (r.isCreatorAccessible !== undefined && r.isCreatorAccessible !== row.isCreatorAccessible) {
      w.allow('is_creator_accessible', row.isCreatorAccessible, r.isCreatorAccessible);
      w.set('isCreatorAccessible', 'is_creator_accessible', row.isCreatorAccessible, r.isCreatorAccessible);
    }
  }
}
