import { createHmac } from 'node:crypto';
import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, expectCodedError, ok } from '../support/catalogue-fixtures.js';
import { changeGroups, fileBug, restrictBugs } from './bug-fixtures.js';
import { attach } from './attachment-fixtures.js';
import { eventually, WebhookReceiver, type ReceivedHook } from '../support/webhook-receiver.js';

/**
 * Webhooks in bugzilla.mozilla.org's shape (issue 43): a `bmo` webhook's deliveries, every routing key, are checked
 * against the pydantic models of mozilla/jira-bugzilla-integration (JBI, jbi/bugzilla/models.py at 16b9090,
 * August 2026), written below as schemas; GET /rest/webhooks/list against its WebhooksResponse. In-process only, as
 * webhook-delivery.e2e-spec.ts: the instance must reach the local receiver (TRACKER_WEBHOOK_ALLOW_PRIVATE=1).
 */
const ENV = { TRACKER_WEBHOOK_ALLOW_PRIVATE: '1', TRACKER_WEBHOOK_RETRY_MS: '40', TRACKER_WEBHOOK_TIMEOUT_MS: '2000' };
const BMO_EVENTS = ['create', 'change', 'attachment', 'attachment_change', 'comment'];

// ---- JBI's models as schemas (pydantic: a missing `Optional[X] = None` field is None; unknown fields are ignored) --

type Schema = 'int' | 'str' | 'bool' | 'datetime' | 'list' | { list: Schema } | { object: Record<string, Field> };
interface Field { schema: Schema; required: boolean; nullable: boolean }
/** `name: X` */
const required = (schema: Schema): Field => ({ schema, required: true, nullable: false });
/** `name: X | None` (no default) */
const requiredOrNull = (schema: Schema): Field => ({ schema, required: true, nullable: true });
/** `name: Optional[X] = None` */
const optional = (schema: Schema): Field => ({ schema, required: false, nullable: true });

/** SmartAwareDatetime: ISO 8601, with a zone or without one (then UTC). */
const ISO_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/;

const WebhookUser: Schema = { object: { id: required('int'), login: required('str'), real_name: required('str') } };
const WebhookEventChange: Schema = { object: { field: required('str'), removed: required('str'), added: required('str') } };
const WebhookEvent: Schema = { object: {
  action: required('str'), time: required('datetime'), user: optional(WebhookUser), changes: optional({ list: WebhookEventChange }),
  target: optional('str'), routing_key: optional('str'),
} };
const WebhookComment: Schema = { object: {
  body: optional('str'), id: optional('int'), number: optional('int'), is_private: optional('bool'), creation_time: optional('datetime'),
} };
const AttachmentFlag: Schema = { object: { id: requiredOrNull('int'), name: required('str'), value: required('str') } };
const WebhookAttachment: Schema = { object: {
  id: required('int'), content_type: required('str'), creation_time: required('datetime'), description: required('str'),
  file_name: required('str'), flags: required({ list: AttachmentFlag }), is_obsolete: required('bool'), is_patch: required('bool'),
  is_private: required('bool'),
} };
const Bug: Schema = { object: {
  id: required('int'), is_private: optional('bool'), type: optional('str'), product: optional('str'), component: optional('str'),
  whiteboard: optional('str'), keywords: optional('list'), flags: optional('list'), groups: optional('list'), status: optional('str'),
  resolution: optional('str'), depends_on: optional({ list: 'int' }), blocks: optional({ list: 'int' }), dupe_of: optional('int'),
  duplicates: optional({ list: 'int' }), regressions: optional({ list: 'int' }), regressed_by: optional({ list: 'int' }),
  see_also: optional('list'), summary: optional('str'), severity: optional('str'), priority: optional('str'), creator: optional('str'),
  assigned_to: optional('str'), comment: optional(WebhookComment), attachment: optional(WebhookAttachment), cf_fx_points: optional('str'),
} };
const WebhookRequest: Schema = { object: { webhook_id: required('int'), webhook_name: required('str'), event: required(WebhookEvent), bug: required(Bug) } };
const Webhook: Schema = { object: {
  id: required('int'), name: required('str'), url: required('str'), event: required('str'), product: required('str'),
  component: required('str'), enabled: required('bool'), errors: required('int'),
} };
const WebhooksResponse: Schema = { object: { webhooks: optional({ list: Webhook }) } };

/** What the model refuses in `value`, as paths with reasons; [] when it validates. */
function violations(schema: Schema, value: unknown, path = '$'): string[] {
  if (schema === 'int') return Number.isInteger(value) ? [] : [`${path}: not an int (${JSON.stringify(value)})`];
  if (schema === 'str') return typeof value === 'string' ? [] : [`${path}: not a str (${JSON.stringify(value)})`];
  if (schema === 'bool') return typeof value === 'boolean' ? [] : [`${path}: not a bool (${JSON.stringify(value)})`];
  if (schema === 'datetime') return typeof value === 'string' && ISO_DATETIME.test(value) && !Number.isNaN(Date.parse(value)) ? [] : [`${path}: not a datetime (${JSON.stringify(value)})`];
  if (schema === 'list') return Array.isArray(value) ? [] : [`${path}: not a list`];
  if ('list' in schema) return Array.isArray(value) ? value.flatMap((item, i) => violations(schema.list, item, `${path}[${i}]`)) : [`${path}: not a list`];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: not an object`];
  return Object.entries(schema.object).flatMap(([name, field]) => {
    const item = (value as Record<string, unknown>)[name];
    if (item === undefined) return field.required ? [`${path}.${name}: missing`] : [];
    if (item === null) return field.nullable ? [] : [`${path}.${name}: null`];
    return violations(field.schema, item, `${path}.${name}`);
  });
}

describe('the JBI schemas themselves', () => {
  it('refuse what JBI refuses', () => {
    const valid = { webhook_id: 1, webhook_name: 'x', event: { action: 'create', time: '2026-01-01T00:00:00' }, bug: { id: 1 } };
    expect(violations(WebhookRequest, valid)).toEqual([]);
    expect(violations(WebhookRequest, { ...valid, event: { action: 'create' } })).toEqual(['$.event.time: missing']);
    expect(violations(WebhookRequest, { ...valid, bug: { id: '1', is_private: 0 } })).toEqual(['$.bug.id: not an int ("1")', '$.bug.is_private: not a bool (0)']);
    expect(violations(WebhookRequest, { ...valid, bug: { id: 1, attachment: { id: 2 } } })).toContain('$.bug.attachment.content_type: missing');
    expect(violations(WebhooksResponse, { webhooks: [{ id: 1 }] })).toContain('$.webhooks[0].errors: missing');
  });
});

describe('webhooks in BMO\'s shape', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let outsider: { id: number; login: string; apiKey: string };
  let insider: { id: number; login: string; apiKey: string };
  let attachmentFlag: string;

  beforeAll(async () => {
    t = await startTestApp(ENV);
    receiver = new WebhookReceiver();
    await receiver.start();
    await createBugGroup(t, 'bmo-insiders');
    await t.setParameters({ insidergroup: 'bmo-insiders' });
    outsider = await t.createUser('bmo-outsider@example.com', { realName: 'Out Sider' });
    insider = await t.createUser('bmo-insider@example.com', { realName: 'In Sider', groups: ['bmo-insiders'] });
    await changeGroups(t, 1, { add: ['bmo-insiders'] });
    attachmentFlag = 'bmo-review';
    ok(await t.post('/flag_type', { name: attachmentFlag, description: 'review', target_type: 'attachment', is_requestable: true, is_requesteeble: true }, { key: ADMIN_API_KEY }));
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const createHook = async (fields: Record<string, unknown> = {}, key = outsider.apiKey): Promise<{ id: number; secret: string }> =>
    ok(await t.post('/webhook', { name: 'jbi', url: receiver.url, format: 'bmo', events: BMO_EVENTS, ...fields }, { key }));
  const view = async (id: number, key = outsider.apiKey) => ok(await t.get(`/webhook/${id}`, { key })).webhooks[0];
  const deliveries = async (id: number, key = outsider.apiKey) => ok(await t.get(`/webhook/${id}/deliveries`, { key })).deliveries;
  const drained = (id: number, key = outsider.apiKey) => eventually(`webhook ${id} to drain`, async () => (await view(id, key)).state.queue_depth === 0);
  const remove = async (id: number, key = outsider.apiKey) => ok(await t.request('DELETE', `/webhook/${id}`, { key }));
  /** Every body JBI's WebhookRequest accepts (the first refusal shown otherwise). */
  const expectJbiAccepts = (hooks: ReceivedHook[]) => {
    for (const hook of hooks) expect({ routing_key: hook.body.event?.routing_key, violations: violations(WebhookRequest, hook.body) }).toEqual({ routing_key: hook.body.event?.routing_key, violations: [] });
  };

  it('delivers every routing key in BMO\'s payload, each accepted by JBI\'s model, signed, with the API key header JBI checks', async () => {
    const hook = await createHook({ api_key_header: 'X-Api-Key', api_key_value: 'jbi-secret-key' });
    const bugId = await fileBug(t, { summary: 'BMO-shaped bug', description: 'first words' });
    // A payload shows the bug as it is when first sent: the creation goes before the bug changes.
    await eventually('the creation', () => receiver.of(hook.id).length >= 1);
    ok(await t.put(`/bug/${bugId}`, { status: 'IN_PROGRESS', whiteboard: '[jbi]', comment: { body: 'working on it' } }, { key: ADMIN_API_KEY }));
    ok(await t.post(`/bug/${bugId}/comment`, { comment: 'a plain comment' }, { key: ADMIN_API_KEY }));
    const attachmentId = await attach(t, bugId, 'patch text', {
      summary: 'The fix', file_name: 'fix.patch', content_type: 'text/plain', is_patch: true,
      flags: [{ name: attachmentFlag, status: '?', requestee: insider.login }],
    });
    // Likewise the attachment's creation before it changes.
    await eventually('five deliveries', () => receiver.of(hook.id).length >= 5);
    ok(await t.put(`/bug/attachment/${attachmentId}`, { is_obsolete: true }, { key: ADMIN_API_KEY }));
    await eventually('six deliveries', () => receiver.of(hook.id).length >= 6);
    await drained(hook.id);

    const got = receiver.of(hook.id);
    expectJbiAccepts(got);
    const keys = got.map((r) => r.body.event.routing_key);
    expect(keys).toEqual(['bug.create', expect.stringMatching(/^bug\.modify:/), 'comment.create', 'comment.create', 'attachment.create', expect.stringMatching(/^attachment\.modify:/)]);
    expect(got.every((r) => r.headers['x-tracker-signature'] === `sha256=${createHmac('sha256', hook.secret).update(r.raw).digest('hex')}`)).toBe(true);
    expect(got.map((r) => r.headers['x-api-key'])).toEqual(Array(6).fill('jbi-secret-key'));

    const [created, modified, changeComment, plainComment, attached, obsoleted] = got.map((r) => r.body);
    const user = { id: 1, login: 'admin@example.com', real_name: expect.any(String) };
    expect(created).toEqual({
      webhook_id: hook.id, webhook_name: 'jbi',
      event: { action: 'create', target: 'bug', routing_key: 'bug.create', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/), user },
      bug: expect.objectContaining({
        id: bugId, is_private: false, summary: 'BMO-shaped bug', product: 'TestProduct', component: 'TestComponent', status: expect.any(String),
        resolution: '', priority: expect.any(String), keywords: [], flags: [], see_also: [], creator: 'admin@example.com', alias: '',
        creator_detail: user, assigned_to: expect.any(String), whiteboard: '', operating_system: expect.any(String), platform: expect.any(String),
      }),
    });
    // BMO's bug object: no Get Bug-only fields, no comment with a bug event.
    for (const field of ['comment', 'op_sys', 'groups', 'cc', 'update_token', 'is_open']) expect(created.bug).not.toHaveProperty(field);

    expect(modified.event).toMatchObject({ action: 'modify', target: 'bug', user });
    expect(modified.event.changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'status', added: 'IN_PROGRESS' }), { field: 'whiteboard', removed: '', added: '[jbi]' },
    ]));
    expect(modified.event.routing_key).toBe(`bug.modify:${modified.event.changes.map((c: any) => c.field).join(',')}`);
    expect(modified.bug).toMatchObject({ id: bugId, status: 'IN_PROGRESS', whiteboard: '[jbi]' });
    expect(modified.bug.comment).toBeUndefined();

    // The comment an Update Bug adds is its own comment.create, as BMO sends it.
    expect(changeComment.event).toEqual({ action: 'create', target: 'comment', routing_key: 'comment.create', time: modified.event.time, user });
    expect(changeComment.bug.comment).toEqual({ id: expect.any(Number), body: 'working on it', number: 1, is_private: false, creation_time: expect.any(String) });
    expect(plainComment.bug.comment).toMatchObject({ body: 'a plain comment', number: 2, is_private: false });
    expect(plainComment.bug).toMatchObject({ id: bugId, summary: 'BMO-shaped bug' });

    expect(attached.event).toMatchObject({ action: 'create', target: 'attachment', routing_key: 'attachment.create' });
    expect(attached.event.changes).toBeUndefined();
    expect(attached.bug.attachment).toEqual({
      id: attachmentId, content_type: 'text/plain', description: 'The fix', file_name: 'fix.patch', is_obsolete: false, is_patch: true,
      is_private: false, creation_time: expect.any(String), last_change_time: expect.any(String),
      flags: [{ id: expect.any(Number), name: attachmentFlag, value: '?', requestee: { id: insider.id, login: insider.login, real_name: 'In Sider' } }],
    });
    expect(JSON.stringify(attached)).not.toContain(Buffer.from('patch text').toString('base64'));

    expect(obsoleted.event).toMatchObject({ action: 'modify', target: 'attachment' });
    expect(obsoleted.event.changes).toEqual([expect.objectContaining({ removed: '0', added: '1' })]);
    expect(obsoleted.event.routing_key).toBe(`attachment.modify:${obsoleted.event.changes[0].field}`);
    expect(obsoleted.bug.attachment).toMatchObject({ id: attachmentId, is_obsolete: true });

    // The delivery log names each delivery by Tracker's action.
    expect((await deliveries(hook.id)).map((d: any) => [d.action, d.state])).toEqual([
      ['attachment', 'delivered'], ['attachment', 'delivered'], ['comment', 'delivered'], ['comment', 'delivered'], ['modify', 'delivered'], ['create', 'delivered'],
    ]);
    await remove(hook.id);
  });

  it('skips a private comment for an owner outside the insider group; an insider gets its ids only, as BMO sends them', async () => {
    const outsiderHook = await createHook({ events: ['comment'] });
    const insiderHook = await createHook({ events: ['comment'] }, insider.apiKey);
    const bugId = await fileBug(t);
    ok(await t.post(`/bug/${bugId}/comment`, { comment: 'insiders only', is_private: true }, { key: ADMIN_API_KEY }));
    ok(await t.post(`/bug/${bugId}/comment`, { comment: 'for everyone' }, { key: ADMIN_API_KEY }));
    await drained(outsiderHook.id);
    await drained(insiderHook.id, insider.apiKey);

    const outsiderGot = receiver.of(outsiderHook.id);
    expectJbiAccepts(outsiderGot);
    expect(outsiderGot.map((r) => r.body.bug.comment.body)).toEqual(['for everyone']);
    expect(JSON.stringify(outsiderGot)).not.toContain('insiders only');
    expect((await deliveries(outsiderHook.id)).map((d: any) => [d.action, d.state, d.last_error])).toEqual([
      ['comment', 'delivered', null], ['comment', 'skipped', 'the owner may not see the comment (private)'],
    ]);

    const insiderGot = receiver.of(insiderHook.id);
    expectJbiAccepts(insiderGot);
    expect(insiderGot[0].body.bug).toEqual({ id: bugId, is_private: false, comment: { id: expect.any(Number), is_private: true } });
    expect(JSON.stringify(insiderGot[0])).not.toContain('insiders only');
    expect(insiderGot[1].body.bug.comment).toMatchObject({ body: 'for everyone', is_private: false });
    await remove(outsiderHook.id);
    await remove(insiderHook.id, insider.apiKey);
  });

  it('sends a private bug as its id alone, and its change without the changes; a bug the owner cannot see not at all', async () => {
    const member = await t.createUser('bmo-member@example.com');
    const hook = await createHook({ events: ['change'] }, member.apiKey);
    const [secret, hidden] = [await fileBug(t), await fileBug(t)];
    await restrictBugs(t, 'bmo-secret', [secret], [member.id]);
    await restrictBugs(t, 'bmo-hidden', [hidden]);
    ok(await t.put(`/bug/${secret}`, { whiteboard: 'secret change' }, { key: ADMIN_API_KEY }));
    ok(await t.put(`/bug/${hidden}`, { whiteboard: 'hidden change' }, { key: ADMIN_API_KEY }));
    await drained(hook.id, member.apiKey);
    const got = receiver.of(hook.id);
    expectJbiAccepts(got);
    expect(got.map((r) => r.body.bug)).toEqual([{ id: secret, is_private: true }]);
    expect(got[0].body.event).toMatchObject({ action: 'modify', routing_key: 'bug.modify:whiteboard' });
    expect(got[0].body.event.changes).toBeUndefined();
    expect(JSON.stringify(got)).not.toContain('secret change');
    expect((await deliveries(hook.id, ADMIN_API_KEY)).find((d: any) => d.bug_id === hidden)).toMatchObject({ state: 'skipped' });
    await remove(hook.id, member.apiKey);
  });

  it('filters by BMO\'s events, product and component (Any), and tells a product\'s webhook of a bug that left it', async () => {
    await createProduct(t, 'BmoProduct');
    ok(await t.post('/component', { product: 'BmoProduct', name: 'Other', description: 'Other things', default_assignee: 'admin@example.com' }, { key: ADMIN_API_KEY }));
    const byProduct = await createHook({ product: 'BmoProduct', component: 'Any', events: ['create', 'change'] });
    const byComponent = await createHook({ product: 'BmoProduct', component: 'Other', events: ['create'] });
    const anyProduct = await createHook({ product: 'Any', component: 'Any', events: ['attachment_change'] });

    const general = await fileBug(t, { product: 'BmoProduct', component: 'General', version: '1.0' });
    const other = await fileBug(t, { product: 'BmoProduct', component: 'Other', version: '1.0' });
    const elsewhere = await fileBug(t);
    const attachmentId = await attach(t, elsewhere, 'text');
    ok(await t.put(`/bug/attachment/${attachmentId}`, { is_obsolete: true }, { key: ADMIN_API_KEY }));
    ok(await t.put(`/bug/${general}`, { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', target_milestone: '---' }, { key: ADMIN_API_KEY }));
    for (const hook of [byProduct, byComponent, anyProduct]) await drained(hook.id);

    // In order per bug; two bugs' deliveries may go side by side.
    const messages = (hook: { id: number }, bugId: number) => receiver.of(hook.id).filter((r) => r.body.bug.id === bugId).map((r) => r.body.event.routing_key.split(':')[0]);
    expect(receiver.of(byProduct.id)).toHaveLength(3);
    expect(messages(byProduct, general)).toEqual(['bug.create', 'bug.modify']);
    expect(messages(byProduct, other)).toEqual(['bug.create']);
    const moved = receiver.of(byProduct.id).find((r) => r.body.event.action === 'modify')!;
    expect(moved.body.event.changes).toEqual(expect.arrayContaining([{ field: 'product', removed: 'BmoProduct', added: 'TestProduct' }]));
    expect(receiver.of(byComponent.id).map((r) => r.body.bug.id)).toEqual([other]);
    // attachment_change only: not the attachment's creation (BMO's pattern match would send it too).
    expect(receiver.of(anyProduct.id).map((r) => r.body.event.routing_key.split(':')[0])).toEqual(['attachment.modify']);
    for (const hook of [byProduct, byComponent, anyProduct]) expectJbiAccepts(receiver.of(hook.id));
    for (const hook of [byProduct, byComponent, anyProduct]) await remove(hook.id);
  });

  it('stores the format: shown when read, changed on update (the events said in the new words), checked', async () => {
    const hook = await createHook({ events: ['create', 'change', 'attachment_change'] });
    expect(await view(hook.id)).toMatchObject({ format: 'bmo', events: ['create', 'change', 'attachment_change'], product: null, component: null });
    const tracker = ok(await t.put(`/webhook/${hook.id}`, { format: 'tracker' }, { key: outsider.apiKey })).webhooks[0];
    expect(tracker).toMatchObject({ format: 'tracker', events: ['create', 'modify', 'attachment'] });
    const back = ok(await t.put(`/webhook/${hook.id}`, { format: 'bmo' }, { key: outsider.apiKey })).webhooks[0];
    expect(back).toMatchObject({ format: 'bmo', events: ['create', 'change', 'attachment', 'attachment_change'] });
    const plain = ok(await t.post('/webhook', { name: 'plain', url: receiver.url, events: ['modify'] }, { key: outsider.apiKey }));
    expect(await view(plain.id)).toMatchObject({ format: 'tracker', events: ['modify'] });

    expectCodedError(await t.put(`/webhook/${hook.id}`, { format: 'jira' }, { key: outsider.apiKey }), 10505, 400);
    // BMO's API key header: shown by name, its value never; both or neither; no header a delivery sets itself.
    const keyed = ok(await t.put(`/webhook/${hook.id}`, { api_key_header: 'Authorization', api_key_value: 'Token abc' }, { key: outsider.apiKey })).webhooks[0];
    expect(keyed.api_key_header).toBe('Authorization');
    expect(JSON.stringify(keyed)).not.toContain('Token abc');
    expect(ok(await t.put(`/webhook/${hook.id}`, { api_key_header: '' }, { key: outsider.apiKey })).webhooks[0].api_key_header).toBeNull();
    expectCodedError(await t.put(`/webhook/${hook.id}`, { api_key_header: 'X-Api-Key' }, { key: outsider.apiKey }), 10506, 400);
    expectCodedError(await t.put(`/webhook/${hook.id}`, { api_key_header: 'X-Tracker-Signature', api_key_value: 'forged' }, { key: outsider.apiKey }), 10506, 400);
    expectCodedError(await t.put(`/webhook/${hook.id}`, { api_key_header: 'Bad Header', api_key_value: 'x' }, { key: outsider.apiKey }), 10506, 400);
    expectCodedError(await t.put(`/webhook/${hook.id}`, { api_key_header: 'X-Api-Key', api_key_value: 'two\nlines' }, { key: outsider.apiKey }), 10506, 400);
    expectCodedError(await t.put(`/webhook/${hook.id}`, { events: ['modify'] }, { key: outsider.apiKey }), 10503, 400);
    expectCodedError(await t.put(`/webhook/${plain.id}`, { events: ['change'] }, { key: outsider.apiKey }), 10503, 400);
    expect(await view(hook.id)).toMatchObject({ format: 'bmo', events: ['create', 'change', 'attachment', 'attachment_change'], api_key_header: null });
    await remove(hook.id);
    await remove(plain.id);
  });

  it('GET /rest/webhooks/list answers the caller\'s own webhooks as BMO does, accepted by JBI\'s WebhooksResponse', async () => {
    const lister = await t.createUser('bmo-lister@example.com');
    const filtered = await createHook({ name: 'Core sync', product: 'TestProduct', component: 'TestComponent', events: ['comment', 'create', 'change'] }, lister.apiKey);
    const everywhere = await createHook({ name: 'all of it', events: ['attachment'], enabled: false }, lister.apiKey);
    const trackerHook = ok(await t.post('/webhook', { name: 'tracker one', url: receiver.url, events: ['modify'] }, { key: lister.apiKey }));
    const adminHook = await createHook({ name: 'not theirs' }, ADMIN_API_KEY);

    const listed = ok(await t.get('/webhooks/list', { key: lister.apiKey }));
    expect(violations(WebhooksResponse, listed)).toEqual([]);
    expect(listed).toEqual({ webhooks: [
      { id: filtered.id, creator: lister.login, name: 'Core sync', url: receiver.url, event: 'create,change,comment', product: 'TestProduct', component: 'TestComponent', enabled: true, errors: 0 },
      { id: everywhere.id, creator: lister.login, name: 'all of it', url: receiver.url, event: 'attachment', product: 'Any', component: 'Any', enabled: false, errors: 0 },
      { id: trackerHook.id, creator: lister.login, name: 'tracker one', url: receiver.url, event: 'modify', product: 'Any', component: 'Any', enabled: true, errors: 0 },
    ] });
    // An administrator too sees only their own there, as in BMO.
    expect(ok(await t.get('/webhooks/list', { key: ADMIN_API_KEY })).webhooks.map((w: any) => w.id)).toEqual([adminHook.id]);
    expectCodedError(await t.get('/webhooks/list'), 410, 401);
    for (const hook of [filtered, everywhere, trackerHook]) await remove(hook.id, lister.apiKey);
    await remove(adminHook.id, ADMIN_API_KEY);
  });

  it('with BMO\'s bug fields on (bmo_bug_fields), sends the type and the changes of type and regressed_by, in both formats', async () => {
    ok(await t.put('/parameters', { bmo_bug_fields: '1' }, { key: ADMIN_API_KEY }));
    try {
      const bmoHook = await createHook({ events: ['create', 'change'] });
      const trackerHook: { id: number } = ok(await t.post('/webhook', { name: 'tracker', url: receiver.url, events: ['create', 'modify'] }, { key: outsider.apiKey }));
      const cause = await fileBug(t, { summary: 'the cause' });
      const bugId = await fileBug(t, { summary: 'typed', type: 'task' });
      // A payload shows the bug as it is when first sent: the creations go before the change.
      await eventually('both creations', () => receiver.of(bmoHook.id).some((r) => r.body.bug.id === bugId) && receiver.of(trackerHook.id).some((r) => r.body.bug.id === bugId));
      ok(await t.put(`/bug/${bugId}`, { type: 'enhancement', regressed_by: { add: [cause] } }, { key: ADMIN_API_KEY }));
      await eventually('both creations and changes', () => receiver.of(bmoHook.id).filter((r) => r.body.bug.id === bugId).length >= 2
        && receiver.of(trackerHook.id).filter((r) => r.body.bug.id === bugId).length >= 2);
      await drained(bmoHook.id);

      const [created, modified] = receiver.of(bmoHook.id).filter((r) => r.body.bug.id === bugId).map((r) => r.body);
      expectJbiAccepts(receiver.of(bmoHook.id));
      expect(created.bug.type).toBe('task');
      expect(modified.bug.type).toBe('enhancement');
      expect(modified.event.changes).toEqual(expect.arrayContaining([
        { field: 'type', removed: 'task', added: 'enhancement' }, { field: 'regressed_by', removed: '', added: String(cause) },
      ]));
      const [trackerCreated, trackerModified] = receiver.of(trackerHook.id).filter((r) => r.body.bug.id === bugId).map((r) => r.body);
      expect(trackerCreated.bug).toMatchObject({ type: 'task', regressed_by: [], comment_count: 1 });
      expect(trackerModified.bug).toMatchObject({ type: 'enhancement', regressed_by: [cause] });
      await remove(bmoHook.id);
      await remove(trackerHook.id);
    } finally {
      ok(await t.put('/parameters', { bmo_bug_fields: '0' }, { key: ADMIN_API_KEY }));
    }
  });

  it('counts as errors, as BMO\'s backlog, the deliveries waiting while a webhook fails', async () => {
    const failing = await t.createUser('bmo-failing@example.com');
    const hook = await createHook({ events: ['change'] }, failing.apiKey);
    const bugId = await fileBug(t);
    receiver.status = 503;
    try {
      ok(await t.put(`/bug/${bugId}`, { whiteboard: 'one' }, { key: ADMIN_API_KEY }));
      ok(await t.put(`/bug/${bugId}`, { whiteboard: 'two' }, { key: ADMIN_API_KEY }));
      await eventually('a failed attempt', async () => (await view(hook.id, failing.apiKey)).state.consecutive_failures > 0);
      expect(ok(await t.get('/webhooks/list', { key: failing.apiKey })).webhooks).toEqual([expect.objectContaining({ id: hook.id, errors: 2 })]);
    } finally {
      receiver.status = 200;
    }
    await drained(hook.id, failing.apiKey);
    expect(ok(await t.get('/webhooks/list', { key: failing.apiKey })).webhooks).toEqual([expect.objectContaining({ id: hook.id, errors: 0 })]);
    expectJbiAccepts(receiver.of(hook.id));
    await remove(hook.id, failing.apiKey);
  });
});
