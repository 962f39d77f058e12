import { ADMIN_API_KEY, type ApiResponse, type TestApp } from './test-app.js';
import { isNamedHere } from './in-process.js';

/** Asserts a coded error: the exact code and HTTP status, with a message and the documentation link. */
export function expectCodedError(res: ApiResponse, code: number, status: number): void {
  expect({ status: res.status, code: res.body?.code, error: res.body?.error }).toEqual({ status, code, error: true });
  expect(typeof res.body.message).toBe('string');
  expect(typeof res.body.documentation).toBe('string');
}

/** Asserts a 200 answer and returns its body. */
export function ok<T = any>(res: ApiResponse<T>): T {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${res.text}`);
  return res.body;
}

/**
 * An instance-wide list (products, fields, flag types …) as a test may assert on it: in-process the database is the
 * file's own and the list is whole; a running instance is shared with other files and earlier runs, so only the
 * entries of the installation and of this file (`isOwn`) are kept.
 */
export function ownEntries<T>(t: TestApp, entries: T[], isOwn: (entry: T) => boolean): T[] {
  return t.isRemote ? entries.filter(isOwn) : entries;
}

interface FlagTypesOf {
  flag_types?: { bug: Array<{ name: string }>; attachment: Array<{ name: string }> };
}

/**
 * A component as a test may assert on its flag types: remotely only this file's types (a type without inclusions,
 * made by another file, reaches every product of a shared instance); in-process all of them.
 */
export function withOwnFlagTypes<C extends FlagTypesOf>(t: TestApp, component: C): C {
  if (!component.flag_types) return component;
  const { bug, attachment } = component.flag_types;
  const own = <T extends { name: string }>(types: T[]) => ownEntries(t, types, (type) => isNamedHere(type.name));
  return { ...component, flag_types: { bug: own(bug), attachment: own(attachment) } };
}

/** A bug group created through Create Group (admin), active. */
export async function createBugGroup(t: TestApp, name: string): Promise<number> {
  return ok(await t.post('/group', { name, description: `${name} group`, is_active: true }, { key: ADMIN_API_KEY })).id;
}

/** A product created through Create Product (admin) with one component, so that it can take bugs. */
export async function createProduct(
  t: TestApp,
  name: string,
  extra: Record<string, unknown> = {},
  component: Record<string, unknown> | false = {},
): Promise<number> {
  const id = ok(await t.post('/product', { name, description: `${name} product`, version: '1.0', ...extra }, { key: ADMIN_API_KEY })).id;
  if (component !== false) {
    ok(await t.post('/component', {
      product: name, name: 'General', description: 'General things', default_assignee: 'admin@example.com', ...component,
    }, { key: ADMIN_API_KEY }));
  }
  return id;
}

/**
 * Confines flag types to one product (Update Flag Type, admin). A type without inclusions reaches every product: on a
 * shared instance other files' products too, so a file that makes such types confines them to its own at its end.
 */
export async function confineFlagTypes(t: TestApp, ids: number[], product: string): Promise<void> {
  for (const id of ids) ok(await t.put(`/flag_type/${id}`, { inclusions: [product], exclusions: [] }, { key: ADMIN_API_KEY }));
}

/**
 * The parameters the OpenAPI document gives a route: the names of its query parameters and of its JSON body's
 * properties (through the body's schema).
 */
export async function documentedParameters(t: TestApp, path: string, method: string): Promise<{ query: string[]; body: string[] }> {
  const doc = ok(await t.get('/openapi.json'));
  const operation = doc.paths[`/rest${path}`]?.[method];
  if (!operation) throw new Error(`${method} /rest${path} is not in the OpenAPI document`);
  const ref: string | undefined = operation.requestBody?.content?.['application/json']?.schema?.$ref;
  const schema = ref ? doc.components.schemas[ref.split('/').pop()!] : undefined;
  return {
    query: (operation.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
    body: Object.keys(schema?.properties ?? {}),
  };
}

/** The first audit row of an object (its creation), as its field and added value. */
export async function firstAudit(t: TestApp, className: string, objectId: number): Promise<{ field: string; added: string | null } | undefined> {
  const [first] = await t.auditOf(className, objectId);
  return first && { field: first.field, added: first.added };
}
