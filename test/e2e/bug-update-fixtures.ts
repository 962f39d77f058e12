import { ADMIN_API_KEY, ADMIN_LOGIN, type ApiResponse, type TestApp } from '../support/test-app.js';
import { createBugGroup, ok } from '../support/catalogue-fixtures.js';
import { named } from '../support/in-process.js';
import { Comment } from '../../src/comment/entities/comment.entity.js';
import { Membership } from '../../src/group/entities/membership.entity.js';
import { GroupService } from '../../src/group/group.service.js';
import { changeGroups, setProductControl } from './bug-fixtures.js';

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

/** The comments of a bug as Get Comments shows them to `key` (admin by default), oldest first. */
export async function presentedComments(t: TestApp, bugId: number, key = ADMIN_API_KEY): Promise<Array<{ id: number; text: string; creator: string; is_private: boolean }>> {
  return ok(await t.get(`/bug/${bugId}/comment`, { key })).bugs[String(bugId)].comments;
}

/**
 * A user outside `editbugs` (a fresh installation puts everyone in it by regexp), with direct memberships of
 * `groups`: the callers the "who may change what" rules are about. In-process only: no route takes an account out
 * of a regexp group.
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

/**
 * A bug flag type for the named products (all their components), every product by default (grant/request groups by
 * name), through Create Flag Type (admin).
 */
export async function addFlagType(
  t: TestApp,
  name: string,
  options: { grantGroup?: string; requestGroup?: string; multiplicable?: boolean; requesteeble?: boolean; requestable?: boolean; active?: boolean; products?: string[] } = {},
): Promise<number> {
  return ok(await t.post('/flag_type', {
    ...(options.products ? { inclusions: options.products } : {}),
    name, description: `${name} flag`, target_type: 'bug', sortkey: 0, is_active: options.active !== false,
    is_requestable: options.requestable !== false, is_requesteeble: options.requesteeble !== false, is_multiplicable: !!options.multiplicable,
    ...(options.grantGroup ? { grant_group: options.grantGroup } : {}), ...(options.requestGroup ? { request_group: options.requestGroup } : {}),
  }, { key: ADMIN_API_KEY })).id;
}

/**
 * A custom field's name made with `named`: field names take only letters, digits and underscores, so the suffix a
 * running instance needs is joined with one.
 */
export function customFieldNamed(base: string): string {
  return named(base).replace(/-/g, '_');
}

/**
 * A custom field through Create Field (admin), shown on bug entry (Bugzilla field type numbers: 1 free text, 2 single
 * select, 3 multi select, 6 bug id, 9 date, 10 integer).
 */
export async function addCustomField(t: TestApp, name: string, type: number, values: string[] = [], options: { mandatory?: boolean } = {}): Promise<number> {
  return ok(await t.post('/field/bug', {
    name, description: name, type, sort_key: 1000 + type, is_on_bug_entry: true, is_mandatory: !!options.mandatory, ...(values.length ? { values } : {}),
  }, { key: ADMIN_API_KEY })).id;
}

/**
 * A product through Create Product (admin) with its components (default assignee: the admin), versions and
 * milestones (Create Component, Create Version, Create Milestone). Answers the product id.
 */
export async function addProduct(
  t: TestApp,
  name: string,
  options: { components?: string[]; versions?: string[]; milestones?: string[]; defaultMilestone?: string; hasUnconfirmed?: boolean } = {},
): Promise<number> {
  const admin = { key: ADMIN_API_KEY };
  const defaultMilestone = options.defaultMilestone ?? '---';
  const [version, ...otherVersions] = options.versions ?? ['unspecified'];
  const id = ok(await t.post('/product', {
    name, description: `${name} product`, version, default_milestone: defaultMilestone, has_unconfirmed: options.hasUnconfirmed !== false, is_open: true,
  }, admin)).id;
  const path = `/product/${encodeURIComponent(name)}`;
  for (const component of options.components ?? ['General']) {
    ok(await t.post('/component', { product: name, name: component, description: component, default_assignee: ADMIN_LOGIN }, admin));
  }
  for (const value of otherVersions) ok(await t.post(`${path}/version`, { name: value }, admin));
  for (const value of (options.milestones ?? []).filter((milestone) => milestone !== defaultMilestone)) ok(await t.post(`${path}/milestone`, { name: value }, admin));
  return id;
}

/**
 * A bug group (Create Group) with a control on each named product (Update Product; membercontrol/othercontrol: 0 NA,
 * 1 Shown, 2 Default, 3 Mandatory) and the given users as direct members (Update User).
 */
export async function addGroup(
  t: TestApp,
  name: string,
  controls: Array<{ product: string; membercontrol?: number; othercontrol?: number; entry?: boolean; canedit?: boolean; editbugs?: boolean }>,
  members: number[] = [],
): Promise<number> {
  const groupId = await createBugGroup(t, name);
  for (const control of controls) await setProductControl(t, name, { membercontrol: 1, othercontrol: 0, ...control });
  for (const userId of members) await changeGroups(t, userId, { add: [name] });
  return groupId;
}
