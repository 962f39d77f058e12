import { ADMIN_API_KEY, type ApiResponse, type TestApp } from '../support/test-app.js';
import { createBugGroup, ok } from '../support/catalogue-fixtures.js';

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
