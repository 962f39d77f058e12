import { ADMIN_API_KEY, type ApiResponse, type TestApp } from '../support/test-app.js';

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

/** Runs statements straight on the test database (setup the API does not offer yet: groups on products, custom fields). */
export async function sql(t: TestApp, statements: Array<[string, unknown[]?]>): Promise<void> {
  await t.db.transaction(async (tx) => {
    for (const [text, params] of statements) await tx.run(text, (params ?? []) as never);
  });
}

/** Creates a bug group and gives the product a control on it (membercontrol/othercontrol: 0 NA … 3 Mandatory). */
export async function productGroup(
  t: TestApp,
  name: string,
  control: { product?: string; membercontrol?: number; othercontrol?: number; entry?: boolean; canedit?: boolean } = {},
): Promise<number> {
  return t.db.transaction(async (tx) => {
    const groupId = await tx.insert('groups', { name, description: `${name} group`, is_bug_group: 1, user_regexp: '', is_active: 1 });
    const product = await tx.one<{ id: number }>('SELECT id FROM products WHERE name = ?', [control.product ?? 'TestProduct']);
    await tx.insert('group_control_map', {
      product_id: product!.id, group_id: groupId, entry: control.entry ? 1 : 0,
      membercontrol: control.membercontrol ?? 1, othercontrol: control.othercontrol ?? 1, canedit: control.canedit ? 1 : 0,
      editcomponents: 0, editbugs: 0, canconfirm: 0,
    });
    return groupId;
  });
}
