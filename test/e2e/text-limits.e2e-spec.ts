import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { loginNamed, named } from '../support/in-process.js';
import { DEFAULT_BUG, expectError, fileBug } from './bug-fixtures.js';

/**
 * Every text a client may write has a length limit, checked the same way on SQLite and MariaDB (issue 12, defect 4;
 * the limits are listed in docs/decisions.md). For each field: one character over the limit is the field's coded
 * error and changes nothing; exactly the limit is accepted and stored. Lengths are code points, so the texts start
 * with a character outside the BMP (two UTF-16 units, one character), except where the field's syntax forbids it.
 */

const EMOJI = '\u{1F600}';
/**
 * This run's mark in the texts it writes: '' in-process; against a running instance, which keeps earlier runs' data,
 * the suffix of named(), so that names written at their limit (unique ones: logins, groups, products …) are new.
 */
const RUN = named('');
/** RUN as custom field names allow it. */
const FIELD_RUN = RUN.replace('-', '_');
/** `n` characters, the first outside the BMP: `text(n).length` is n + 1. */
const text = (n: number) => EMOJI + RUN + 'x'.repeat(n - 1 - RUN.length);
const ascii = (n: number) => RUN + 'x'.repeat(n - RUN.length);
const email = (n: number) => `u${RUN}${'u'.repeat(n - 1 - RUN.length - '@example.com'.length)}@example.com`;
const LONG = 65_535;

interface Field {
  /** What is written, for the test name. */
  name: string;
  max: number;
  code: number;
  status?: number;
  /** The write: method, path and body for a value. */
  write: (value: string) => { method: 'POST' | 'PUT'; path: string; body: Record<string, unknown> };
  /** A read whose answer shows the field (and must not change when the write is refused). */
  read: () => string;
  /** A text of a given length that the field's syntax accepts (default `text`). */
  make?: (n: number) => string;
}

describe('text limits (issue 12, defect 4)', () => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  const [product, freeField, areaField] = [named('Limits'), `cf_free${FIELD_RUN}`, `cf_area${FIELD_RUN}`];
  // Where new components at their limit go: a product of the file's own that keeps its name (a row renames `product`).
  const componentHome = named('LimitsHome');
  /** The parameters these tests change, as they were: a running instance keeps them for the files after this one. */
  let changed: Record<string, string>;

  const put = (path: string, body: Record<string, unknown>) => ({ method: 'PUT' as const, path, body });
  const post = (path: string, body: Record<string, unknown>) => ({ method: 'POST' as const, path, body });
  const send = (w: ReturnType<Field['write']>) => t.request(w.method, w.path, { body: w.body, key: ADMIN_API_KEY });
  const read = async (path: string) => {
    const res = await t.get(path, { key: ADMIN_API_KEY });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    // A bug's update token is minted from the wall clock, not from the bug.
    return res.text.replace(/"update_token":"[^"]*"/g, '');
  };
  const created = (res: ApiResponse) => {
    if (res.status !== 200) throw new Error(`setup failed: ${res.status} ${res.text}`);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    changed = created(await t.get('/parameters', { key: ADMIN_API_KEY, query: { include_fields: 'useclassification,usestatuswhiteboard,emailregexpdesc' } })).parameters;
    await t.setParameters({ useclassification: '1', usestatuswhiteboard: '1' });
    ids.user = (await t.createUser(loginNamed('target'))).id;
    ids.group = created(await t.post('/group', { name: named('limits'), description: 'Limits' }, { key: ADMIN_API_KEY })).id;
    ids.product = created(await t.post('/product', { name: product, description: 'Limits', version: '1.0', classification: 'Unclassified' }, { key: ADMIN_API_KEY })).id;
    ids.component = created(await t.post('/component', { product, name: 'Main', description: 'Main', default_assignee: ADMIN_LOGIN }, { key: ADMIN_API_KEY })).id;
    created(await t.post('/product', { name: componentHome, description: 'Limits', version: '1.0', classification: 'Unclassified' }, { key: ADMIN_API_KEY }));
    ids.classification = created(await t.post('/classification', { name: named('Limits'), description: 'Limits' }, { key: ADMIN_API_KEY })).id;
    ids.keyword = created(await t.post('/keyword', { name: named('limits'), description: 'Limits' }, { key: ADMIN_API_KEY })).id;
    ids.flagType = created(await t.post('/flag_type', { name: named('limits'), description: 'Limits' }, { key: ADMIN_API_KEY })).id;
    created(await t.post('/field/bug', { name: freeField, description: 'Free', type: 'FREETEXT' }, { key: ADMIN_API_KEY }));
    created(await t.post('/field/bug', { name: areaField, description: 'Area', type: 'TEXTAREA' }, { key: ADMIN_API_KEY }));
    ids.apiKey = created(await t.post('/api_key', { description: 'Limits' }, { key: ADMIN_API_KEY })).id;
    ids.bug = await fileBug(t);
    ids.comment = created(await t.get(`/bug/${ids.bug}/comment`, { key: ADMIN_API_KEY })).bugs[ids.bug].comments[0].id;
    const data = Buffer.from('hello').toString('base64');
    ids.attachment = created(await t.post(`/bug/${ids.bug}/attachment`, { data, file_name: 'a.txt', summary: 'A', content_type: 'text/plain' }, { key: ADMIN_API_KEY })).ids[0];
  }, 120_000);
  afterAll(async () => {
    await t.setParameters(changed);
    await t.close();
  });

  const fields = (): Field[] => [
    // Users
    { name: 'user full_name', max: 255, code: 104, write: (v) => put(`/user/${ids.user}`, { full_name: v }), read: () => `/user/${ids.user}` },
    { name: 'user email', max: 127, code: 501, make: email, write: (v) => put(`/user/${ids.user}`, { email: v }), read: () => `/user/${ids.user}` },
    { name: 'user login_denied_text', max: LONG, code: 104, write: (v) => put(`/user/${ids.user}`, { login_denied_text: v }), read: () => `/user/${ids.user}` },
    { name: 'new user email', max: 127, code: 501, make: (n) => `w${RUN}${'w'.repeat(n - 1 - RUN.length - '@example.com'.length)}@example.com`, write: (v) => post('/user', { email: v }), read: () => '/user?match=wwww' },
    // Groups
    { name: 'new group description', max: LONG, code: 104, write: (v) => post('/group', { name: `gd${v.length}${RUN}`, description: v }), read: () => '/group' },
    { name: 'group name', max: 255, code: 104, write: (v) => put(`/group/${ids.group}`, { name: v }), read: () => `/group?ids=${ids.group}` },
    { name: 'group description', max: LONG, code: 104, write: (v) => put(`/group/${ids.group}`, { description: v }), read: () => `/group?ids=${ids.group}` },
    { name: 'group user_regexp', max: 255, code: 104, write: (v) => put(`/group/${ids.group}`, { user_regexp: v }), read: () => `/group?ids=${ids.group}` },
    { name: 'group icon_url', max: 255, code: 104, write: (v) => put(`/group/${ids.group}`, { icon_url: v }), read: () => `/group?ids=${ids.group}` },
    // Products and what they hold
    { name: 'product name', max: 64, code: 701, write: (v) => put(`/product/${ids.product}`, { name: v }), read: () => `/product/${ids.product}` },
    { name: 'product description', max: LONG, code: 104, write: (v) => put(`/product/${ids.product}`, { description: v }), read: () => `/product/${ids.product}` },
    { name: 'component name', max: 64, code: 105, write: (v) => put(`/component/${ids.component}`, { name: v }), read: () => `/product/${ids.product}` },
    { name: 'component description', max: LONG, code: 104, write: (v) => put(`/component/${ids.component}`, { description: v }), read: () => `/product/${ids.product}` },
    { name: 'version name', max: 64, code: 32000, write: (v) => post(`/product/${ids.product}/version`, { name: v }), read: () => `/product/${ids.product}` },
    { name: 'milestone name', max: 64, code: 32000, write: (v) => post(`/product/${ids.product}/milestone`, { name: v }), read: () => `/product/${ids.product}` },
    { name: 'classification name', max: 64, code: 32000, write: (v) => put(`/classification/${ids.classification}`, { name: v }), read: () => `/classification/${ids.classification}` },
    { name: 'classification description', max: LONG, code: 104, write: (v) => put(`/classification/${ids.classification}`, { description: v }), read: () => `/classification/${ids.classification}` },
    { name: 'new product description', max: LONG, code: 104, write: (v) => post('/product', { name: `PD${v.length}${RUN}`, description: v, version: '1', classification: 'Unclassified' }), read: () => '/product?type=accessible' },
    { name: 'new product version', max: 64, code: 32000, write: (v) => post('/product', { name: `PV${v.length}${RUN}`, description: 'D', version: v, classification: 'Unclassified' }), read: () => '/product?type=accessible' },
    { name: 'new product default_milestone', max: 64, code: 32000, write: (v) => post('/product', { name: `PM${v.length}${RUN}`, description: 'D', version: '1', default_milestone: v, classification: 'Unclassified' }), read: () => '/product?type=accessible' },
    { name: 'new component name', max: 64, code: 105, write: (v) => post('/component', { product: componentHome, name: v, description: 'D', default_assignee: ADMIN_LOGIN }), read: () => '/product?type=accessible' },
    // Keywords, fields, flag types
    { name: 'new keyword name', max: 64, code: 32000, make: (n) => `k${text(n - 1)}`, write: (v) => post('/keyword', { name: v, description: 'D' }), read: () => '/keyword' },
    { name: 'keyword name', max: 64, code: 32000, write: (v) => put(`/keyword/${ids.keyword}`, { name: v }), read: () => '/keyword' },
    { name: 'keyword description', max: LONG, code: 104, write: (v) => put(`/keyword/${ids.keyword}`, { description: v }), read: () => '/keyword' },
    { name: 'custom field name', max: 64, code: 32000, make: (n) => `cf_${FIELD_RUN}${'n'.repeat(n - 3 - FIELD_RUN.length)}`, write: (v) => post('/field/bug', { name: v, description: 'D', type: 'FREETEXT' }), read: () => '/field/bug' },
    { name: 'custom field description', max: 255, code: 104, write: (v) => post('/field/bug', { name: `cf_d${v.length}${FIELD_RUN}`, description: v, type: 'FREETEXT' }), read: () => '/field/bug' },
    { name: 'custom field reverse_desc', max: 255, code: 104, write: (v) => post('/field/bug', { name: `cf_r${v.length}${FIELD_RUN}`, description: 'R', type: 'BUG_ID', reverse_desc: v }), read: () => '/field/bug' },
    { name: 'field value', max: 64, code: 32000, write: (v) => post('/field/bug', { name: `cf_v${v.length}${FIELD_RUN}`, description: 'V', type: 'SINGLE_SELECT', values: [v] }), read: () => '/field/bug' },
    { name: 'flag type name', max: 50, code: 1101, write: (v) => put(`/flag_type/${ids.flagType}`, { name: v }), read: () => '/flag_type/TestProduct' },
    { name: 'flag type description', max: LONG, code: 104, write: (v) => put(`/flag_type/${ids.flagType}`, { description: v }), read: () => '/flag_type/TestProduct' },
    { name: 'flag type cc_list', max: 200, code: 1103, make: email, write: (v) => put(`/flag_type/${ids.flagType}`, { cc_list: [v] }), read: () => '/flag_type/TestProduct' },
    // Bugs
    { name: 'bug summary', max: 255, code: 104, write: (v) => put(`/bug/${ids.bug}`, { summary: v }), read: () => `/bug/${ids.bug}` },
    { name: 'bug url', max: LONG, code: 104, write: (v) => put(`/bug/${ids.bug}`, { url: v }), read: () => `/bug/${ids.bug}` },
    { name: 'bug whiteboard', max: LONG, code: 104, write: (v) => put(`/bug/${ids.bug}`, { whiteboard: v }), read: () => `/bug/${ids.bug}` },
    { name: 'bug alias', max: 40, code: 103, make: (n) => `a${ascii(n - 1)}`, write: (v) => put(`/bug/${ids.bug}`, { alias: v }), read: () => `/bug/${ids.bug}` },
    { name: 'bug see_also', max: 255, code: 112, make: (n) => `https://t.org/${'p'.repeat(n - 23)}/ticket/1`, write: (v) => put(`/bug/${ids.bug}`, { see_also: { add: [v] } }), read: () => `/bug/${ids.bug}` },
    { name: 'bug free-text custom field', max: 255, code: 104, write: (v) => put(`/bug/${ids.bug}`, { [freeField]: v }), read: () => `/bug/${ids.bug}` },
    { name: 'bug text-area custom field', max: LONG, code: 104, write: (v) => put(`/bug/${ids.bug}`, { [areaField]: v }), read: () => `/bug/${ids.bug}` },
    { name: 'new bug url', max: LONG, code: 104, write: (v) => post('/bug', { ...DEFAULT_BUG, url: v }), read: () => `/bug?product=TestProduct` },
    { name: 'new bug summary', max: 255, code: 104, write: (v) => post('/bug', { ...DEFAULT_BUG, summary: v }), read: () => `/bug?product=TestProduct` },
    // Comments and attachments
    { name: 'comment', max: LONG, code: 114, write: (v) => post(`/bug/${ids.bug}/comment`, { comment: v }), read: () => `/bug/${ids.bug}/comment` },
    { name: 'comment tag', max: 24, code: 127, make: ascii, write: (v) => put(`/bug/comment/${ids.comment}/tags`, { add: [v] }), read: () => `/bug/comment/${ids.comment}` },
    { name: 'attachment summary', max: 255, code: 104, write: (v) => put(`/bug/attachment/${ids.attachment}`, { summary: v }), read: () => `/bug/attachment/${ids.attachment}` },
    { name: 'attachment content_type', max: 255, code: 601, make: (n) => `text/${'x'.repeat(n - 5)}`, write: (v) => put(`/bug/attachment/${ids.attachment}`, { content_type: v }), read: () => `/bug/attachment/${ids.attachment}` },
    { name: 'new attachment summary', max: 255, code: 104, write: (v) => post(`/bug/${ids.bug}/attachment`, { data: 'aGk=', file_name: 'b.txt', summary: v, content_type: 'text/plain' }), read: () => `/bug/${ids.bug}/attachment` },
    { name: 'new attachment comment', max: LONG, code: 114, write: (v) => post(`/bug/${ids.bug}/attachment`, { data: 'aGk=', file_name: 'c.txt', summary: 'C', content_type: 'text/plain', comment: v }), read: () => `/bug/${ids.bug}/comment` },
    { name: 'attachment update comment', max: LONG, code: 114, write: (v) => put(`/bug/attachment/${ids.attachment}`, { comment: v }), read: () => `/bug/${ids.bug}/comment` },
    // Accounts and administration
    { name: 'API key description', max: 255, code: 104, write: (v) => put(`/api_key/${ids.apiKey}`, { description: v }), read: () => '/api_key' },
    { name: 'parameter value', max: LONG, code: 32000, write: (v) => put('/parameters', { emailregexpdesc: v }), read: () => '/parameters' },
  ];

  it.each(fields().map((f) => [f.name, f] as const))('%s: one character over is refused and changes nothing, the limit is stored', async (_name, f) => {
    const make = f.make ?? text;
    const before = await read(f.read());
    expectError(await send(f.write(make(f.max + 1))), f.code, f.status ?? 400);
    expect(await read(f.read())).toEqual(before);

    const value = make(f.max);
    const accepted = await send(f.write(value));
    expect({ status: accepted.status, body: accepted.status === 200 ? 'ok' : accepted.body }).toEqual({ status: 200, body: 'ok' });
    expect((await read(f.read())) + accepted.text).toContain(JSON.stringify(value).slice(1, -1));
  });

  it('the examples of the issue: a 256-character full name on Create User and a 70 KB icon URL on Create Group', async () => {
    const [longName, icons] = [loginNamed('longname'), named('icons')];
    const before = await read(`/user?match=${longName}`);
    expectError(await t.post('/user', { email: longName, full_name: 'F'.repeat(256) }, { key: ADMIN_API_KEY }), 104, 400);
    expect(await read(`/user?match=${longName}`)).toEqual(before);
    expectError(await t.post('/group', { name: 'g'.repeat(300), description: 'D' }, { key: ADMIN_API_KEY }), 104, 400);
    expectError(await t.post('/group', { name: icons, description: 'D', icon_url: `https://i.org/${'i'.repeat(70 * 1024)}` }, { key: ADMIN_API_KEY }), 104, 400);
    expectError(await t.get('/group', { query: { names: icons }, key: ADMIN_API_KEY }), 51, 404);
    const ok = await t.post('/user', { email: longName, full_name: 'F'.repeat(255) }, { key: ADMIN_API_KEY });
    expect(ok.status).toBe(200);
    expect((await t.get(`/user/${ok.body.id}`, { key: ADMIN_API_KEY })).body.users[0].real_name).toBe('F'.repeat(255));
  });

  it('a long file name keeps its last 255 characters (defaults.md), so the extension survives', async () => {
    const name = `${'n'.repeat(300)}.patch`;
    const res = await t.post(`/bug/${ids.bug}/attachment`, { data: 'aGk=', file_name: name, summary: 'Long name', content_type: 'text/plain' }, { key: ADMIN_API_KEY });
    expect(res.status).toBe(200);
    const stored = (await t.get(`/bug/attachment/${res.body.ids[0]}`, { key: ADMIN_API_KEY })).body.attachments[res.body.ids[0]].file_name;
    expect(stored).toBe(name.slice(-255));
  });
});
