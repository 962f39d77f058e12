import type { InsertResult } from 'typeorm';
import { ADMIN_API_KEY, type ApiResponse, type TestApp } from '../support/test-app.js';
import { ok } from '../support/catalogue-fixtures.js';
import { Comment } from '../../src/comment/entities/comment.entity.js';
import { FieldDefinition } from '../../src/field/entities/field-definition.entity.js';
import { FieldValue } from '../../src/field/entities/field-value.entity.js';
import { FlagInclusion } from '../../src/flag/entities/flag-inclusion.entity.js';
import { FlagType } from '../../src/flag/entities/flag-type.entity.js';
import { Group } from '../../src/group/entities/group.entity.js';
import { Membership } from '../../src/group/entities/membership.entity.js';
import { GroupService } from '../../src/group/group.service.js';
import { Component } from '../../src/product/entities/component.entity.js';
import { GroupControl } from '../../src/product/entities/group-control.entity.js';
import { Milestone } from '../../src/product/entities/milestone.entity.js';
import { Product } from '../../src/product/entities/product.entity.js';
import { Version } from '../../src/product/entities/version.entity.js';

/** Setup shared by the Update Bug e2e files (the bug-fixtures.ts helpers file bugs and assert errors). */

/** A 32000 error (no code of its own in Bugzilla's table), told apart by its message. */
export function expectUncoded(res: ApiResponse, message: RegExp): void {
  expect({ status: res.status, code: res.body?.code, error: res.body?.error }).toEqual({ status: 400, code: 32000, error: true });
  expect(res.body.message).toMatch(message);
}

/** PUT /rest/bug/(id) as `key` (admin by default). */
export function update(t: TestApp, id: number | string, body: Record<string, unknown>, key = ADMIN_API_KEY): Promise<ApiResponse> {
  return t.put(`/bug/${id}`, body, { key });
}

/** The one updated bug of a 200 answer. */
export function updated(res: ApiResponse): { id: number; alias: string[]; last_change_time: string; changes: Record<string, { removed: string; added: string }> } {
  if (res.status !== 200) throw new Error(`Update Bug failed: ${res.status} ${res.text}`);
  expect(res.body.bugs).toHaveLength(1);
  return res.body.bugs[0];
}

/** GET /rest/bug/(id) as `key` (admin by default): the bug object. */
export async function getBug(t: TestApp, id: number, key = ADMIN_API_KEY): Promise<any> {
  const res = await t.get(`/bug/${id}`, { key });
  if (res.status !== 200) throw new Error(`Get Bug failed: ${res.status} ${res.text}`);
  return res.body.bugs[0];
}

/** The history items of a bug (GET /rest/bug/(id)/history). */
export async function historyOf(t: TestApp, id: number, key = ADMIN_API_KEY): Promise<Array<{ when: string; who: string; changes: any[] }>> {
  const res = await t.get(`/bug/${id}/history`, { key });
  if (res.status !== 200) throw new Error(`History failed: ${res.status} ${res.text}`);
  return res.body.bugs[0].history;
}

/** The comments of a bug as stored (the comment endpoints come with another issue). */
export async function commentsOf(t: TestApp, bugId: number): Promise<Array<{ id: number; text: string; type: number; extra_data: string | null; is_private: number; work_time: number }>> {
  const comments = await t.db.read.repository(Comment).find({ where: { bugId }, order: { id: 'ASC' } });
  return comments.map((c) => ({
    id: Number(c.id), text: c.text, type: Number(c.type), extra_data: c.extraData, is_private: c.isPrivate ? 1 : 0, work_time: Number(c.workTime),
  }));
}

/**
 * A user outside `editbugs` (a fresh installation puts everyone in it by regexp), with direct memberships of
 * `groups`: the callers the "who may change what" rules are about.
 */
export async function plainUser(t: TestApp, login: string, groups: string[] = []): Promise<{ id: number; login: string; apiKey: string }> {
  const user = await t.createUser(login, { groups });
  const [editbugs] = await t.app.get(GroupService).requireByNames(['editbugs']);
  await t.db.transaction((tx) => tx.repository(Membership).delete({ userId: user.id, grantType: 2, groupId: editbugs.id }));
  return user;
}

/** A keyword created through Create Keyword (admin). */
export async function addKeyword(t: TestApp, name: string, isActive = true): Promise<number> {
  return ok(await t.post('/keyword', { name, description: `${name} keyword`, is_active: isActive }, { key: ADMIN_API_KEY })).id;
}

/** The id of the one row an entity repository's insert wrote. */
function insertedId(result: InsertResult): number {
  return Number(result.identifiers[0].id);
}

/** A bug flag type for every product and component (grant/request groups by name). */
export async function addFlagType(
  t: TestApp,
  name: string,
  options: { grantGroup?: string; requestGroup?: string; multiplicable?: boolean; requesteeble?: boolean; requestable?: boolean; active?: boolean } = {},
): Promise<number> {
  const groups = await t.app.get(GroupService).findByNames([options.grantGroup, options.requestGroup].filter((g): g is string => !!g));
  const groupId = (group?: string) => (group ? groups.get(group)!.id : null);
  return t.db.transaction(async (tx) => {
    const id = insertedId(await tx.repository(FlagType).insert({
      name, description: `${name} flag`, ccList: '', targetType: 'bug', isActive: options.active !== false,
      isRequestable: options.requestable !== false, isRequesteeble: options.requesteeble !== false,
      isMultiplicable: !!options.multiplicable, sortkey: 0,
      grantGroupId: groupId(options.grantGroup), requestGroupId: groupId(options.requestGroup),
    }));
    await tx.repository(FlagInclusion).insert({ typeId: id, productId: null, componentId: null });
    return id;
  });
}

/** A custom field (Bugzilla field type numbers: 1 free text, 2 single select, 3 multi select, 6 bug id, 9 date, 10 integer). */
export async function addCustomField(t: TestApp, name: string, type: number, values: string[] = [], options: { mandatory?: boolean } = {}): Promise<number> {
  return t.db.transaction(async (tx) => {
    const id = insertedId(await tx.repository(FieldDefinition).insert({
      name, description: name, type, custom: true, obsolete: false, mailhead: false, sortkey: 1000 + type, enterBug: true, buglist: true,
      isMandatory: !!options.mandatory, isNumeric: false,
    }));
    for (const [i, value] of ['---', ...values].entries()) {
      if (type === 2 || type === 3) await tx.repository(FieldValue).insert({ fieldId: id, value, sortkey: i * 100, isActive: true });
    }
    return id;
  });
}

/**
 * A product inserted straight into the database through the entities' repositories, with its components (default
 * assignee: the admin), versions and milestones. Answers the product id.
 */
export async function addProduct(
  t: TestApp,
  name: string,
  options: { components?: string[]; versions?: string[]; milestones?: string[]; defaultMilestone?: string; hasUnconfirmed?: boolean } = {},
): Promise<number> {
  return t.db.transaction(async (tx) => {
    const defaultMilestone = options.defaultMilestone ?? '---';
    const id = insertedId(await tx.repository(Product).insert({
      name, classificationId: 1, description: `${name} product`, isActive: true, defaultMilestone,
      hasUnconfirmed: options.hasUnconfirmed !== false,
    }));
    for (const component of options.components ?? ['General']) {
      await tx.repository(Component).insert({ name: component, productId: id, defaultAssigneeId: 1, description: component, isActive: true, sortkey: 0 });
    }
    for (const value of options.versions ?? ['unspecified']) await tx.repository(Version).insert({ value, productId: id, isActive: true, sortkey: 0 });
    for (const value of new Set([defaultMilestone, ...(options.milestones ?? [])])) {
      await tx.repository(Milestone).insert({ value, productId: id, isActive: true, sortkey: 0 });
    }
    return id;
  });
}

/** A bug group with a control on each named product (membercontrol/othercontrol: 0 NA, 1 Shown, 2 Default, 3 Mandatory). */
export async function addGroup(
  t: TestApp,
  name: string,
  controls: Array<{ product: string; membercontrol?: number; othercontrol?: number; entry?: boolean; canedit?: boolean }>,
  members: number[] = [],
): Promise<number> {
  return t.db.transaction(async (tx) => {
    const groupId = insertedId(await tx.repository(Group).insert({ name, description: `${name} group`, isBugGroup: true, userRegexp: '', isActive: true }));
    for (const control of controls) {
      const product = await tx.repository(Product).findOneByOrFail({ name: control.product });
      await tx.repository(GroupControl).insert({
        productId: product.id, groupId, entry: !!control.entry,
        membercontrol: control.membercontrol ?? 1, othercontrol: control.othercontrol ?? 0, canedit: !!control.canedit,
        editcomponents: false, editbugs: false, canconfirm: false,
      });
    }
    for (const userId of members) await tx.repository(Membership).insert({ userId, groupId, isBless: 0, grantType: 0 });
    return groupId;
  });
}
