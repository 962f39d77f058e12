import { ADMIN_API_KEY, ADMIN_LOGIN, ADMIN_PASSWORD, startTestApp, type TestApp } from '../support/test-app.js';
import { itWhen, inProcess } from '../support/conditions.js';
import { jsonRpc, methodCall, plain, xmlRpc, xmlRpcRaw } from '../support/rpc-client.js';
import { DEFAULT_BUG, fileBug } from './bug-fixtures.js';

/**
 * Bugzilla 5.0's XML-RPC and JSON-RPC endpoints (src/rpc): each method is its REST route's answer in the protocol's
 * clothes — the same rules, field selection and errors — and every bad request is a clean fault, never a 5xx.
 */
describe('XML-RPC and JSON-RPC (5.0 methods over the REST routes)', () => {
  let t: TestApp;
  let bugId: number;

  beforeAll(async () => {
    t = await startTestApp();
    bugId = await fileBug(t, { summary: 'Seen over RPC', estimated_time: 10.5 });
  });
  afterAll(() => t?.close());

  describe('XML-RPC', () => {
    it('answers Bugzilla.version in a methodResponse, in text/xml', async () => {
      const { response, result } = await xmlRpc(t, 'Bugzilla.version');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/xml');
      expect(response.text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?><methodResponse><params><param><value><struct><member><name>version<\/name><value><string>[^<]+<\/string><\/value><\/member><\/struct><\/value><\/param><\/params><\/methodResponse>$/);
      expect(result).toEqual({ struct: { version: { string: expect.any(String) } } });
    });

    it('types Bug.get as 5.0 does: int, double, boolean, dateTime.iso8601, nulls left out, field selection as REST', async () => {
      const { result } = await xmlRpc(t, 'Bug.get', { ids: [bugId], Bugzilla_api_key: ADMIN_API_KEY });
      const bug = (((result!.struct as any).bugs.array[0]).struct) as Record<string, Record<string, string>>;
      expect(bug.id).toEqual({ int: String(bugId) });
      expect(bug.estimated_time).toEqual({ double: '10.50' });
      expect(bug.remaining_time).toEqual({ double: expect.stringMatching(/^\d+\.\d\d$/) });
      expect(bug.is_open).toEqual({ boolean: '1' });
      expect(bug.creation_time).toEqual({ 'dateTime.iso8601': expect.stringMatching(/^\d{8}T\d\d:\d\d:\d\d$/) });
      expect(bug.summary).toEqual({ string: 'Seen over RPC' });
      expect(bug.dupe_of).toBeUndefined();
      const selected = await xmlRpc(t, 'Bug.get', { ids: [bugId], include_fields: ['id', 'summary'], Bugzilla_api_key: ADMIN_API_KEY });
      expect(plain(selected.result!)).toEqual({ bugs: [{ id: bugId, summary: 'Seen over RPC' }], faults: [] });
    });

    it('logs in with login and password, then takes the token as Bugzilla_token; logout answers an empty value', async () => {
      const login = await xmlRpc(t, 'User.login', { login: ADMIN_LOGIN, password: ADMIN_PASSWORD });
      const { token, id } = plain(login.result!) as { token: string; id: number };
      expect(typeof token).toBe('string');
      expect(id).toBeGreaterThan(0);
      const user = await xmlRpc(t, 'User.get', { ids: [id], Bugzilla_token: token });
      expect((plain(user.result!) as any).users[0].email).toBe(ADMIN_LOGIN);
      const logout = await xmlRpc(t, 'User.logout', { Bugzilla_token: token });
      expect(logout.response.text).toContain('<params><param><value /></param></params>');
      const after = await xmlRpc(t, 'User.get', { ids: [id], Bugzilla_token: token });
      expect(after.fault?.faultCode).toBe(32000);
    });

    it('files, changes, comments and attaches with Bugzilla_login/Bugzilla_password as pybugz does (base64 in, base64 out)', async () => {
      const creds = { Bugzilla_login: ADMIN_LOGIN, Bugzilla_password: ADMIN_PASSWORD };
      const created = await xmlRpc(t, 'Bug.create', { ...DEFAULT_BUG, summary: 'Filed over XML-RPC', description: 'first', ...creds });
      const id = (plain(created.result!) as { id: number }).id;
      expect(id).toBeGreaterThan(bugId);
      const updated = await xmlRpc(t, 'Bug.update', { ids: [id], priority: 'Highest', comment: { body: 'Raising it' }, ...creds });
      expect(updated.fault).toBeUndefined();
      const change = (plain(updated.result!) as any).bugs[0];
      expect(change.changes.priority).toEqual({ removed: expect.any(String), added: 'Highest' });
      expect((updated.result as any).struct.bugs.array[0].struct.last_change_time).toHaveProperty(['dateTime.iso8601']);
      const comment = await xmlRpc(t, 'Bug.add_comment', { id, comment: 'A note', ...creds });
      expect(plain(comment.result!)).toEqual({ id: expect.any(Number) });
      const data = Buffer.from([0, 1, 2, 255]);
      const attached = await xmlRpcRaw(t, methodCall('Bug.add_attachment', { ids: [String(id)], data, file_name: 'b.bin', summary: 'bytes', content_type: 'application/octet-stream', ...creds }));
      const attachmentId = (plain(attached.result!) as { ids: number[] }).ids[0];
      const read = await xmlRpc(t, 'Bug.attachments', { attachment_ids: [attachmentId], ...creds });
      const attachment = (read.result as any).struct.attachments.struct[String(attachmentId)].struct;
      expect(attachment.data).toEqual({ base64: data.toString('base64') });
      expect(attachment.creation_time).toHaveProperty(['dateTime.iso8601']);
      const comments = await xmlRpc(t, 'Bug.comments', { ids: [id], ...creds });
      expect((plain(comments.result!) as any).bugs[String(id)].comments.map((c: { text: string }) => c.text)).toEqual(['first', 'Raising it', 'A note', expect.stringContaining('Created attachment')]);
      const history = await xmlRpc(t, 'Bug.history', { ids: [id], ...creds });
      expect((history.result as any).struct.bugs.array[0].struct.history.array[0].struct.when).toHaveProperty(['dateTime.iso8601']);
    });

    it('answers the REST errors as faults with status 200: the code and message of the one catalogue', async () => {
      const missing = await xmlRpc(t, 'Bug.get', { ids: [999999] });
      expect(missing.response.status).toBe(200);
      expect(missing.fault).toEqual({ faultCode: 101, faultString: 'Bug #999999 does not exist.' });
      const rest = await t.get('/rest/bug/999999');
      expect([rest.body.code, rest.body.message]).toEqual([missing.fault!.faultCode, missing.fault!.faultString]);
      const anonymous = await xmlRpc(t, 'Bug.create', { ...DEFAULT_BUG });
      expect(anonymous.fault?.faultCode).toBe(410);
      const noIds = await xmlRpc(t, 'Bug.get', {});
      expect(noIds.fault).toEqual({ faultCode: 50, faultString: expect.stringContaining('Bug.get') });
    });

    it('refuses an unknown method (-32601), a wrong Content-Type (32612) and wrongly typed values (-32600)', async () => {
      expect((await xmlRpc(t, 'No.such_method')).fault).toEqual({ faultCode: -32601, faultString: "The requested method 'No.such_method' was not found." });
      expect((await xmlRpcRaw(t, methodCall('Bugzilla.version'), 'application/x-www-form-urlencoded')).fault?.faultCode).toBe(32612);
      const badInt = methodCall('Bug.get').replace('<struct>', '<struct><member><name>ids</name><value><array><data><value><int>x1</int></value></data></array></value></member>');
      expect((await xmlRpcRaw(t, badInt)).fault?.faultCode).toBe(-32600);
      const badBoolean = methodCall('Bug.get').replace('<struct>', '<struct><member><name>x</name><value><boolean>yes</boolean></value></member>');
      expect((await xmlRpcRaw(t, badBoolean)).fault?.faultCode).toBe(-32600);
    });

    it('answers malformed XML, entity bombs and external entities with a clean fault (no entity expanded, no 5xx)', async () => {
      const bodies = [
        '',
        'not xml',
        '<methodCall><methodName>Bugzilla.version</methodName><params>',
        '<methodCall><params/></methodCall>',
        '<methodCall><methodName>Bug.get</methodName><params><param><value><struct><member><value><int>1</int></value></member></struct></value></param></params></methodCall>',
        '<methodCall><methodName>Bug.get</methodName><params><param><value><blob>1</blob></value></param></params></methodCall>',
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><methodCall><methodName>&lol3;</methodName></methodCall>`,
        `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><methodCall><methodName>Bug.search</methodName><params><param><value><struct><member><name>summary</name><value>&xxe;</value></member></struct></value></param></params></methodCall>`,
        '<methodCall><methodName>Bug.search</methodName><params><param><value><struct><member><name>summary</name><value>&undefined;</value></member></struct></value></param></params></methodCall>',
        `<methodCall><methodName>Bug.search</methodName><params><param>${'<value><array><data>'.repeat(200)}${'</data></array></value>'.repeat(200)}</param></params></methodCall>`,
        '<methodCall><methodName>Bug.get</methodName><params><param><value><string>not a struct</string></value></param></params></methodCall>',
      ];
      for (const body of bodies) {
        const answer = await xmlRpcRaw(t, body);
        expect([body.slice(0, 60), answer.response.status]).toEqual([body.slice(0, 60), 200]);
        expect(answer.fault?.faultCode).toEqual(expect.any(Number));
        expect(answer.response.text).not.toContain('root:');
      }
    });
  });

  describe('JSON-RPC', () => {
    it('answers a 1.0 POST in {result, error, id} and a GET with method and params in the query', async () => {
      const posted = await jsonRpc(t, 'Bug.get', { ids: [bugId], include_fields: ['id', 'summary'] }, 5);
      expect(posted.status).toBe(200);
      expect(posted.body).toEqual({ result: { bugs: [{ id: bugId, summary: 'Seen over RPC' }], faults: [] }, error: null, id: 5 });
      const got = await t.get('/jsonrpc.cgi', { query: { method: 'Bug.get', params: JSON.stringify([{ ids: [bugId], include_fields: ['id'] }]), id: '6' } });
      expect(got.body).toEqual({ result: { bugs: [{ id: bugId }], faults: [] }, error: null, id: '6' });
    });

    it('answers a 1.1 envelope with version and a JSONP callback as /**/callback(…)', async () => {
      const v11 = await t.request('POST', '/jsonrpc.cgi', { rawBody: JSON.stringify({ version: '1.1', method: 'Bugzilla.version', params: {} }), headers: { 'content-type': 'application/json-rpc' } });
      expect(v11.body).toEqual({ version: '1.1', result: { version: expect.any(String) } });
      const jsonp = await t.get('/jsonrpc.cgi', { query: { method: 'Bugzilla.version', callback: 'cb', id: '1' } });
      expect(jsonp.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(jsonp.text).toMatch(/^\/\*\*\/cb\(\{.*"version".*\}\)$/);
    });

    it('answers every error in the envelope with status 200: REST errors, protocol errors, 5.0 codes', async () => {
      const cases: Array<[() => Promise<{ status: number; body: any }>, number]> = [
        [() => jsonRpc(t, 'Bug.get', { ids: [999999] }), 101],
        [() => jsonRpc(t, 'No.such_method'), 100302],
        [() => t.request('POST', '/jsonrpc.cgi', { rawBody: '{"method":', headers: { 'content-type': 'application/json' } }), 100201],
        [() => t.request('POST', '/jsonrpc.cgi', { rawBody: JSON.stringify({ id: 1, params: [] }), headers: { 'content-type': 'application/json' } }), 100300],
        [() => t.request('POST', '/jsonrpc.cgi', { rawBody: JSON.stringify({ id: 1, method: 'Bug get', params: [] }), headers: { 'content-type': 'application/json' } }), 100301],
        [() => t.request('POST', '/jsonrpc.cgi', { rawBody: JSON.stringify({ id: 1, method: 'Bug.get', params: { ids: [1] } }), headers: { 'content-type': 'application/json' } }), 100400],
        [() => t.request('POST', '/jsonrpc.cgi', { rawBody: JSON.stringify({ id: 1, method: 'Bug.get', params: [{ ids: [1] }] }), headers: { 'content-type': 'text/plain' } }), 32613],
        [() => t.get('/jsonrpc.cgi', { query: { method: 'Bug.create', params: '[{}]' } }), 32610],
        [() => t.get('/jsonrpc.cgi', { query: { params: '[{}]' } }), 32000],
        [() => t.get('/jsonrpc.cgi', { query: { method: 'Bug.get', params: '[{' } }), 32000],
        [() => t.get('/jsonrpc.cgi', { query: { method: 'Bugzilla.version', callback: 'alert(1)' } }), 32611],
        [() => jsonRpc(t, 'Bug.get', { ids: 'x'.repeat(10) }), 100],
        [() => t.get('/jsonrpc.cgi', { query: { method: 'Bug.search', params: '[{"__proto__":[1],"constructor":{"prototype":{"x":1}},"id":"x"}]' } }), 52],
      ];
      for (const [send, code] of cases) {
        const answer = await send();
        expect(answer.status).toBe(200);
        expect(answer.body?.error?.code).toBe(code);
        expect(typeof answer.body.error.message).toBe('string');
      }
    });

    it('takes credentials in the params: Bugzilla_api_key, Tracker_api_key, Bugzilla_login/Bugzilla_password', async () => {
      for (const creds of [{ Bugzilla_api_key: ADMIN_API_KEY }, { Tracker_api_key: ADMIN_API_KEY }, { Bugzilla_login: ADMIN_LOGIN, Bugzilla_password: ADMIN_PASSWORD }]) {
        const answer = await jsonRpc(t, 'User.valid_login', { login: ADMIN_LOGIN, ...creds });
        expect(answer.body.error).toBeNull();
        const created = await jsonRpc(t, 'Bug.add_comment', { id: bugId, comment: 'with credentials', ...creds });
        expect(created.body.result).toEqual({ id: expect.any(Number) });
      }
      const wrong = await jsonRpc(t, 'Bug.add_comment', { id: bugId, comment: 'x', Bugzilla_login: ADMIN_LOGIN, Bugzilla_password: 'wrong-password' });
      expect(wrong.body.error.code).toBe(300);
    });
  });

  describe('the method table', () => {
    /** Params that name a real object for every method whose route has one in its path. */
    const paramsOf = (id: number): Record<string, Record<string, unknown>> => ({
      'User.update': { ids: [1] }, 'Group.update': { names: ['admin'] }, 'Product.update': { names: [DEFAULT_BUG.product] },
      'Component.update': { names: [{ product: DEFAULT_BUG.product, component: DEFAULT_BUG.component }] },
      'Component.delete': { names: [{ product: DEFAULT_BUG.product, component: 'No such component' }] },
      'Classification.get': { names: ['Unclassified'] }, 'Classification.update': { names: ['Unclassified'] },
      'Bug.get': { ids: [id] }, 'Bug.update': { ids: [id] }, 'Bug.history': { ids: [id] }, 'Bug.comments': { ids: [id] },
      'Bug.add_comment': { id, comment: 'from the table' }, 'Bug.search_comment_tags': { query: 'x' }, 'Bug.update_comment_tags': { comment_id: 1 },
      'Bug.attachments': { ids: [id] }, 'Bug.add_attachment': { ids: [id], data: 'aGk=', file_name: 'a.txt', summary: 'a', content_type: 'text/plain' },
      'Bug.update_attachment': { ids: [999999] }, 'Bug.legal_values': { field: 'priority' },
      'BugUserLastVisit.get': { ids: [id] }, 'BugUserLastVisit.update': { ids: [id] },
      'FlagType.get': { product: DEFAULT_BUG.product }, 'FlagType.update': { ids: [999999] },
    });

    it('reaches a REST route for every method: an answer or a coded error, never an unknown route', async () => {
      const { RPC_METHODS } = await import('../../src/rpc/rpc-methods.js');
      const params = paramsOf(bugId);
      const unrouted: string[] = [];
      for (const method of Object.keys(RPC_METHODS)) {
        const answer = await jsonRpc(t, method, { ...(params[method] ?? {}), Bugzilla_api_key: ADMIN_API_KEY });
        expect([method, answer.status]).toEqual([method, 200]);
        if (answer.body?.error && [32614, 100302].includes(answer.body.error.code)) unrouted.push(`${method}: ${answer.body.error.code} ${answer.body.error.message}`);
      }
      expect(unrouted).toEqual([]);
    });

    it('attaches to each bug Bug.add_attachment names, as 5.0, with one REST call per bug', async () => {
      const other = await fileBug(t, { summary: 'Second bug for attachments' });
      const answer = await jsonRpc(t, 'Bug.add_attachment', { ids: [bugId, other], data: Buffer.from('both').toString('base64'), file_name: 'both.txt', summary: 'On both', content_type: 'text/plain', Bugzilla_api_key: ADMIN_API_KEY });
      const ids = answer.body.result.ids as number[];
      expect(ids).toHaveLength(2);
      const read = await jsonRpc(t, 'Bug.attachments', { attachment_ids: ids, include_fields: ['bug_id', 'summary'], Bugzilla_api_key: ADMIN_API_KEY });
      expect(Object.values(read.body.result.attachments)).toEqual([{ bug_id: bugId, summary: 'On both' }, { bug_id: other, summary: 'On both' }]);
    });
  });

  itWhen(inProcess)('serves neither protocol when the administrator turns them off: 404, as 5.0 without its .cgi', async () => {
    const off = await startTestApp({ TRACKER_XMLRPC: 'off', TRACKER_JSONRPC: 'off' }, { sharing: t });
    try {
      const xml = await off.request('POST', '/xmlrpc.cgi', { rawBody: methodCall('Bugzilla.version'), headers: { 'content-type': 'text/xml' } });
      expect([xml.status, xml.body?.code]).toEqual([404, 32614]);
      const json = await off.get('/jsonrpc.cgi', { query: { method: 'Bugzilla.version' } });
      expect([json.status, json.body?.code]).toEqual([404, 32614]);
      expect((await off.get('/rest/version')).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
