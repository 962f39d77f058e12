import { ADMIN_API_KEY, type ApiResponse, type TestApp } from '../support/test-app.js';

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
  const rows = await t.db.read.all('SELECT id, text, type, extra_data, is_private, work_time FROM comments WHERE bug_id = ? ORDER BY id', [bugId]);
  return rows.map((r) => ({ ...r, id: Number(r.id), type: Number(r.type), is_private: Number(r.is_private), work_time: Number(r.work_time) })) as any;
}

/**
 * A user outside `editbugs` (a fresh installation puts everyone in it by regexp), with direct memberships of
 * `groups`: the callers the "who may change what" rules are about.
 */
export async function plainUser(t: TestApp, login: string, groups: string[] = []): Promise<{ id: number; login: string; apiKey: string }> {
  const user = await t.createUser(login, { groups });
  await t.db.transaction((tx) =>
    tx.run("DELETE FROM user_group_map WHERE user_id = ? AND grant_type = 2 AND group_id = (SELECT id FROM groups WHERE name = 'editbugs')", [user.id]),
  );
  return user;
}

export async function addKeyword(t: TestApp, name: string, isActive = true): Promise<number> {
  return t.db.transaction((tx) => tx.insert('keywords', { name, description: `${name} keyword`, is_active: isActive ? 1 : 0 }));
}

/** A bug flag type for every product and component (grant/request groups by name). */
export async function addFlagType(
  t: TestApp,
  name: string,
  options: { grantGroup?: string; requestGroup?: string; multiplicable?: boolean; requesteeble?: boolean; requestable?: boolean; active?: boolean } = {},
): Promise<number> {
  return t.db.transaction(async (tx) => {
    const groupId = async (group?: string) => (group ? Number((await tx.one('SELECT id FROM groups WHERE name = ?', [group]))!.id) : null);
    const id = await tx.insert('flag_types', {
      name, description: `${name} flag`, cc_list: '', target_type: 'bug', is_active: options.active === false ? 0 : 1,
      is_requestable: options.requestable === false ? 0 : 1, is_requesteeble: options.requesteeble === false ? 0 : 1,
      is_multiplicable: options.multiplicable ? 1 : 0, sortkey: 0,
      grant_group_id: await groupId(options.grantGroup), request_group_id: await groupId(options.requestGroup),
    });
    await tx.insert('flag_inclusions', { type_id: id, product_id: null, component_id: null });
    return id;
  });
}

/** A custom field (Bugzilla field type numbers: 1 free text, 2 single select, 3 multi select, 6 bug id, 9 date, 10 integer). */
export async function addCustomField(t: TestApp, name: string, type: number, values: string[] = [], options: { mandatory?: boolean } = {}): Promise<number> {
  return t.db.transaction(async (tx) => {
    const id = await tx.insert('fielddefs', {
      name, description: name, type, custom: 1, obsolete: 0, mailhead: 0, sortkey: 1000 + type, enter_bug: 1, buglist: 1,
      is_mandatory: options.mandatory ? 1 : 0, is_numeric: 0,
    });
    for (const [i, value] of ['---', ...values].entries()) {
      if (type === 2 || type === 3) await tx.insert('field_values', { field_id: id, value, sortkey: i * 100, is_active: 1 });
    }
    return id;
  });
}

/**
 * A product inserted straight into the database (the catalogue endpoints are another module's), with its components
 * (default assignee: the admin), versions and milestones. Answers the product id.
 */
export async function addProduct(
  t: TestApp,
  name: string,
  options: { components?: string[]; versions?: string[]; milestones?: string[]; defaultMilestone?: string; hasUnconfirmed?: boolean } = {},
): Promise<number> {
  return t.db.transaction(async (tx) => {
    const defaultMilestone = options.defaultMilestone ?? '---';
    const id = await tx.insert('products', {
      name, classification_id: 1, description: `${name} product`, is_active: 1, default_milestone: defaultMilestone,
      has_unconfirmed: options.hasUnconfirmed === false ? 0 : 1,
    });
    for (const component of options.components ?? ['General']) {
      await tx.insert('components', { name: component, product_id: id, default_assignee_id: 1, description: component, is_active: 1, sortkey: 0 });
    }
    for (const value of options.versions ?? ['unspecified']) await tx.insert('versions', { value, product_id: id, is_active: 1, sortkey: 0 });
    for (const value of new Set([defaultMilestone, ...(options.milestones ?? [])])) await tx.insert('milestones', { value, product_id: id, is_active: 1, sortkey: 0 });
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
    const groupId = await tx.insert('groups', { name, description: `${name} group`, is_bug_group: 1, user_regexp: '', is_active: 1 });
    for (const control of controls) {
      const product = await tx.one<{ id: number }>('SELECT id FROM products WHERE name = ?', [control.product]);
      await tx.insert('group_control_map', {
        product_id: product!.id, group_id: groupId, entry: control.entry ? 1 : 0,
        membercontrol: control.membercontrol ?? 1, othercontrol: control.othercontrol ?? 0, canedit: control.canedit ? 1 : 0,
        editcomponents: 0, editbugs: 0, canconfirm: 0,
      });
    }
    for (const userId of members) await tx.insert('user_group_map', { user_id: userId, group_id: groupId, is_bless: 0, grant_type: 0 });
    return groupId;
  });
}
