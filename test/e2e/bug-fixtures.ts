import { ADMIN_API_KEY, type ApiResponse, type TestApp } from '../support/test-app.js';
import { MoreThan } from 'typeorm';
import { createBugGroup, ok } from '../support/catalogue-fixtures.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { BugGroup } from '../../src/bug/entities/bug-group.entity.js';
import { FieldDefinition } from '../../src/field/entities/field-definition.entity.js';
import { FieldValue } from '../../src/field/entities/field-value.entity.js';
import { QueuedMail } from '../../src/mail/entities/queued-mail.entity.js';

/** The product, component and version of a fresh installation (defaults.md). */
export const DEFAULT_BUG = { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'A bug' };

/** Asserts a coded error: the exact code and HTTP status, with a message and the documentation link. */
export function expectError(res: ApiResponse, code: number, status: number): void {
  expect({ status: res.status, code: res.body?.code, error: res.body?.error }).toEqual({ status, code, error: true });
  expect(typeof res.body.message).toBe('string');
  expect(typeof res.body.documentation).toBe('string');
}

/** Files a bug through the API (admin by default) and answers its id. */
export async function fileBug(t: TestApp, fields: Record<string, unknown> = {}, key = ADMIN_API_KEY): Promise<number> {
  const res = await t.post('/bug', { ...DEFAULT_BUG, ...fields }, { key });
  if (res.status !== 200) throw new Error(`Create Bug failed: ${res.status} ${res.text}`);
  return res.body.id;
}

/** A product's control on a group, as Update Product's `group_controls` takes it (membercontrol/othercontrol: 0 NA … 3 Mandatory). */
export interface ProductControl {
  product?: string;
  membercontrol?: number;
  othercontrol?: number;
  entry?: boolean;
  canedit?: boolean;
  editbugs?: boolean;
}

/**
 * Sets a product's control on a group through Update Product (admin): every setting, those not given Shown/Shown and
 * off, so that nothing of a former control stays; a control of nothing removes it.
 */
export async function setProductControl(t: TestApp, group: string, control: ProductControl = {}): Promise<void> {
  const { product = 'TestProduct', ...settings } = control;
  const full = { group, membercontrol: 1, othercontrol: 1, entry: false, canedit: false, editbugs: false, ...settings };
  ok(await t.put(`/product/${encodeURIComponent(product)}`, { group_controls: [full] }, { key: ADMIN_API_KEY }));
}

/** Creates a bug group (Create Group) and gives the product a control on it (Update Product). */
export async function productGroup(t: TestApp, name: string, control: ProductControl = {}): Promise<number> {
  const groupId = await createBugGroup(t, name);
  await setProductControl(t, name, control);
  return groupId;
}

/** Changes a user's direct memberships through Update User (admin). */
export async function changeGroups(t: TestApp, userId: number, change: { add?: string[]; remove?: string[] }): Promise<void> {
  ok(await t.put(`/user/${userId}`, { groups: change }, { key: ADMIN_API_KEY }));
}

/**
 * Lets a second pass on the instance's clock (timestamps are to the second), so that the next change has a later
 * time: the test clock moves in-process; against a running instance the wall clock does, and the test waits for it.
 */
export async function letSecondPass(t: TestApp): Promise<void> {
  if (t.isRemote) await new Promise((resolve) => setTimeout(resolve, 1000));
  else t.clock.advance(1);
}

/** Writes columns of a bug through its entity's repository: a state Update Bug would not reach in one step. */
export async function setBug(t: TestApp, id: number, fields: Partial<Omit<Bug, 'id' | 'product' | 'component' | 'reporter' | 'assignedTo' | 'qaContact'>>): Promise<void> {
  await t.db.transaction((tx) => tx.repository(Bug).update({ id }, fields));
}

/**
 * A bug group (Create Group) that restricts the given bugs, whatever their product's controls (bug_groups rows
 * through the repository; against a running instance through Update Bug, see addBugsToGroup), with the given users
 * as direct members (Update User).
 */
export async function restrictBugs(t: TestApp, name: string, bugIds: number[], memberIds: number[] = []): Promise<number> {
  const groupId = await createBugGroup(t, name);
  for (const userId of memberIds) await changeGroups(t, userId, { add: [name] });
  if (!bugIds.length) return groupId;
  if (t.isRemote) await addBugsToGroup(t, name, bugIds);
  else await t.db.transaction((tx) => tx.repository(BugGroup).insert(bugIds.map((bugId) => ({ bugId, groupId }))));
  return groupId;
}

/**
 * Puts bugs in a bug group through Update Bug as the admin (whose group is a member of every group created), under a
 * control of each bug's product made for the purpose and removed afterwards (a bug keeps its groups when a control
 * goes). Unlike a row written in-process, the change is in the bugs' history and moves their last_change_time.
 */
async function addBugsToGroup(t: TestApp, group: string, bugIds: number[]): Promise<void> {
  const admin = { key: ADMIN_API_KEY };
  const bugs: Array<{ product: string }> = ok(await t.get(`/bug/${bugIds[0]}`, { ...admin, query: { ids: bugIds, include_fields: 'product' } })).bugs;
  const products = [...new Set(bugs.map((bug) => bug.product))];
  for (const product of products) await setProductControl(t, group, { product, membercontrol: 1, othercontrol: 0 });
  try {
    ok(await t.put(`/bug/${bugIds[0]}`, { ids: bugIds, groups: { add: [group] } }, admin));
  } finally {
    for (const product of products) await setProductControl(t, group, { product, membercontrol: 0, othercontrol: 0 });
  }
}

/** Empties the mail queue (before a change whose mail a test reads). */
export async function clearMailQueue(t: TestApp): Promise<void> {
  await t.db.transaction((tx) => tx.repository(QueuedMail).delete({ id: MoreThan(0) }));
}

/** The queued mail, oldest first. */
export function queuedMail(t: TestApp): Promise<QueuedMail[]> {
  return t.db.read.repository(QueuedMail).find({ order: { id: 'ASC' } });
}

/** The id of a bug status (a field_values row of bug_status), for status_workflow rows. */
export async function statusValueId(t: TestApp, status: string): Promise<number> {
  const bugStatus = await t.db.read.repository(FieldDefinition).findOneByOrFail({ name: 'bug_status' });
  return (await t.db.read.repository(FieldValue).findOneByOrFail({ fieldId: bugStatus.id, value: status })).id;
}
