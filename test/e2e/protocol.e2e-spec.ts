import net from 'node:net';
import { ADMIN_API_KEY, ADMIN_LOGIN, ADMIN_PASSWORD, startTestApp, type TestApp } from '../support/test-app.js';
import { outputDuring } from '../support/capture-output.js';
import { inProcessDescribe, inProcessIt, loginNamed } from '../support/in-process.js';

describe('REST protocol layer and information endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const expectError = (res: { status: number; body: any }, code: number, status: number) => {
    expect(res.body).toMatchObject({ error: true, code });
    expect(typeof res.body.message).toBe('string');
    expect(typeof res.body.documentation).toBe('string');
    expect(res.status).toBe(status);
  };

  describe('information endpoints', () => {
    it('GET /rest/version answers the version with Vary: Accept', async () => {
      const res = await t.get('/version');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ version: '5.0.6' });
      expect(res.headers.get('vary')).toBe('Accept');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('GET /rest/extensions, /rest/timezone and /rest/time', async () => {
      expect((await t.get('/extensions')).body).toEqual({ extensions: {} });
      expect((await t.get('/timezone')).body).toEqual({ timezone: '+0000' });
      const time = (await t.get('/time')).body;
      expect(time).toMatchObject({ tz_name: 'UTC', tz_short_name: 'UTC', tz_offset: '+0000' });
      expect(time.db_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(time.web_time).toBe(time.web_time_utc);
    });

    it('parameters: anonymous sees maintainer and requirelogin only', async () => {
      const res = await t.get('/parameters');
      expect(res.body.parameters).toEqual({ maintainer: ADMIN_LOGIN, requirelogin: '0' });
    });

    it('parameters: a logged-in user sees the listed set, not the tweakparams-only ones', async () => {
      const user = await t.createUser(loginNamed('params-user'));
      const { parameters } = (await t.get('/parameters', { key: user.apiKey })).body;
      expect(parameters).toMatchObject({ defaultplatform: 'All', defaultopsys: 'All', useqacontact: '0', maintainer: ADMIN_LOGIN });
      expect(parameters).not.toHaveProperty('insidergroup');
      expect(parameters).not.toHaveProperty('max_search_results');
    });

    it('parameters: tweakparams sees every parameter, never the site secret', async () => {
      const { parameters } = (await t.get('/parameters', { key: ADMIN_API_KEY })).body;
      expect(parameters).toMatchObject({ insidergroup: '', timetrackinggroup: 'editbugs', max_search_results: '10000' });
      expect(parameters).not.toHaveProperty('site_wide_secret');
    });

    it('parameters honour include_fields per parameter name', async () => {
      const res = await t.get('/parameters', { key: ADMIN_API_KEY, query: { include_fields: 'maintainer,useqacontact' } });
      expect(res.body.parameters).toEqual({ maintainer: ADMIN_LOGIN, useqacontact: '0' });
    });

    it('last_audit_time is null on an empty audit log and validates class names', async () => {
      const res = await t.get('/last_audit_time', { query: { class: ['Bugzilla::Product', 'not a class'] } });
      expect(res.status).toBe(200);
      expect(res.body).toHaveProperty('last_audit_time');
    });
  });

  describe('routing and errors', () => {
    it('an unknown route is 32614 / 404 with a JSON body', async () => {
      expectError(await t.get('/no/such/thing'), 32614, 404);
    });

    it('a known path with an unsupported method is 32614 / 404', async () => {
      expectError(await t.request('DELETE', '/version'), 32614, 404);
    });

    it('OPTIONS answers with the methods of the route', async () => {
      const res = await t.request('OPTIONS', '/version');
      expect(res.status).toBe(200);
      expect(res.headers.get('allow')).toBe('GET');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('OPTIONS on an unknown path is 32614', async () => {
      expectError(await t.request('OPTIONS', '/nothing-here'), 32614, 404);
    });

    it('CORS headers are on successes and errors', async () => {
      expect((await t.get('/version')).headers.get('access-control-allow-origin')).toBe('*');
      expect((await t.get('/nope')).headers.get('access-control-allow-origin')).toBe('*');
    });

    it('every answer says X-Content-Type-Options: nosniff: successes, JSONP, HTML, 304, errors, 404s, the OpenAPI page, health (issue 40)', async () => {
      const etag = (await t.get('/version')).headers.get('etag')!;
      const answers = {
        json: await t.get('/version'),
        jsonp: await t.get('/version', { query: { callback: 'cb' } }),
        html: await t.get('/version', { headers: { accept: 'text/html' } }),
        notModified: await t.get('/version', { headers: { 'if-none-match': etag } }),
        write: await t.post('/bug', { summary: 'no product' }, { key: ADMIN_API_KEY }),
        badJson: await t.request('POST', '/bug', { rawBody: '{', headers: { 'content-type': 'application/json' } }),
        badKey: await t.get('/bug/1', { key: 'no-such-key' }),
        unknownRoute: await t.get('/no/such/thing'),
        wrongMethod: await t.request('DELETE', '/version'),
        options: await t.request('OPTIONS', '/version'),
        optionsUnknown: await t.request('OPTIONS', '/nothing-here'),
        openApiPage: await t.get('/rest/openapi'),
        openApiDocument: await t.get('/rest/openapi.json'),
        live: await t.get('/health/live'),
        ready: await t.get('/health/ready'),
      };
      const raw = {
        badUrl: await fetch(`${t.baseUrl}/rest/bug/%FF%FE`),
        headersTooLarge: await fetch(`${t.baseUrl}/rest/version`, { headers: { 'X-Filler': 'f'.repeat(20_000) } }),
      };
      const statuses = Object.fromEntries([...Object.entries(answers), ...Object.entries(raw)].map(([name, res]) => [name, res.status]));
      expect(statuses).toMatchObject({ notModified: 304, badJson: 400, unknownRoute: 404, openApiPage: 200, ready: 200, badUrl: 400, headersTooLarge: 431 });
      const sniffing = [...Object.entries(answers), ...Object.entries(raw)]
        .filter(([, res]) => res.headers.get('x-content-type-options') !== 'nosniff').map(([name]) => name);
      expect(sniffing).toEqual([]);
    });
  });

  describe('content negotiation', () => {
    it('Accept: */* and no Accept give JSON; a Content-Type on a GET is ignored', async () => {
      const res = await t.get('/version', { headers: { accept: '*/*', 'content-type': 'application/json' } });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ version: '5.0.6' });
    });

    it('JSONP wraps the result as /**/cb(...) in text/javascript', async () => {
      const res = await t.get('/version', { query: { callback: 'cb.fn[0]' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(res.text).toBe('/**/cb.fn[0]({"version":"5.0.6"})');
    });

    it('JSONP wraps errors too and keeps their status', async () => {
      const res = await t.get('/parameters', { query: { callback: 'cb', api_key: 'wrong' } });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^\/\*\*\/cb\(\{"error":true,"code":306/);
    });

    it('a bad callback is 32611 as plain JSON', async () => {
      const res = await t.get('/version', { query: { callback: 'alert(1)' } });
      expectError(res, 32611, 400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('Accept: text/html gives a page with the escaped, indented JSON', async () => {
      const res = await t.get('/parameters', { headers: { accept: 'text/html' } });
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('<pre>');
      expect(res.text).toContain('&quot;maintainer&quot;: &quot;admin&#64;example.com&quot;');
      expect(res.headers.get('vary')).toBe('Accept');
    });

    it('ETag on GET and 304 on a matching If-None-Match', async () => {
      const first = await t.get('/version');
      const etag = first.headers.get('etag')!;
      expect(etag).toBeTruthy();
      const second = await t.get('/version', { headers: { 'if-none-match': etag } });
      expect(second.status).toBe(304);
      expect(second.text).toBe('');
      const other = await t.get('/version', { headers: { 'if-none-match': '"something-else"' } });
      expect(other.status).toBe(200);
    });
  });

  describe('request bodies', () => {
    it('malformed JSON is 32000 / 400', async () => {
      expectError(await t.request('PUT', '/parameters', { rawBody: '{bad json', key: ADMIN_API_KEY, headers: { 'content-type': 'application/json' } }), 32000, 400);
    });

    it('a JSON body that is not an object is 32000 / 400', async () => {
      expectError(await t.request('PUT', '/parameters', { rawBody: '[1,2]', key: ADMIN_API_KEY, headers: { 'content-type': 'application/json' } }), 32000, 400);
    });

    it('a body nested 10,000 levels deep is a clean 32000 / 400 on every write route, and nothing is written', async () => {
      const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
      const before = (await t.get('/bug', { key: ADMIN_API_KEY, query: { product: 'TestProduct' } })).body.bugs.length;
      for (const [method, path] of [['POST', '/bug'], ['PUT', '/bug/1'], ['POST', '/user'], ['PUT', '/parameters'], ['POST', '/product']] as const) {
        const res = await t.request(method, path, { rawBody: deep, key: ADMIN_API_KEY, headers: { 'content-type': 'application/json' } });
        expectError(res, 32000, 400);
        expect(res.body.message).toContain('deeper than 32 levels');
      }
      // as deep as the limit is still parsed (and then judged by the route)
      const limit = `${'{"a":'.repeat(31)}1${'}'.repeat(31)}`;
      expect((await t.request('POST', '/bug', { rawBody: limit, key: ADMIN_API_KEY, headers: { 'content-type': 'application/json' } })).body.message).not.toContain('deeper');
      expect((await t.get('/bug', { key: ADMIN_API_KEY, query: { product: 'TestProduct' } })).body.bugs.length).toBe(before);
    });

    // The limit is the instance's configuration (TRACKER_MAX_BODY_BYTES), read here from the app started in-process.
    inProcessIt('an oversized body gets a coded JSON error, not a Fastify default body', async () => {
      const big = 'x'.repeat(t.config.maxBodyBytes + 10);
      const res = await t.request('PUT', '/parameters', { rawBody: `{"a":"${big}"}`, key: ADMIN_API_KEY, headers: { 'content-type': 'application/json' } });
      expect(res.body).toMatchObject({ error: true, code: 32000 });
      expect(res.status).toBe(413);
    });
  });

  it('an id beyond the id column is an invalid id echoed as sent, on every route that takes ids', async () => {
    const huge = '9223372036854775808';
    for (const res of [await t.get(`/user/${huge}`, { key: ADMIN_API_KEY }), await t.get('/product', { key: ADMIN_API_KEY, query: { ids: huge } })]) {
      expectError(res, 52, 400);
      expect(res.body.message).toContain(huge);
    }
  });

  describe('errors raised before any route runs', () => {
    /** An invalid UTF-8 path, a URL over 16 KB and a header over 16 KB, each with the API key: the response texts. */
    const sendMalformedRequests = async (): Promise<string[]> => {
      const badUrl = await fetch(`${t.baseUrl}/rest/bug/%FF%FE?Tracker_api_key=${ADMIN_API_KEY}`);
      const badText = await badUrl.text();
      expect(badUrl.status).toBe(400);
      expect(JSON.parse(badText)).toMatchObject({ error: true, code: 32000 });

      const query = Array.from({ length: 10_000 }, (_, i) => `p${i}=1`).join('&');
      const huge = await fetch(`${t.baseUrl}/rest/bug?${query}&Tracker_api_key=${ADMIN_API_KEY}`);
      const hugeText = await huge.text();
      expect(huge.status).toBe(431);
      expect(JSON.parse(hugeText)).toMatchObject({ error: true, code: 32000 });

      const bigHeader = await fetch(`${t.baseUrl}/rest/version`, { headers: { 'X-BUGZILLA-API-KEY': ADMIN_API_KEY, 'X-Filler': 'f'.repeat(20_000) } });
      expect(bigHeader.status).toBe(431);
      return [badText, hugeText, await bigHeader.text()];
    };

    it('an invalid UTF-8 path and a URL over 16 KB get the coded envelope, and no response carries the API key', async () => {
      for (const text of await sendMalformedRequests()) expect(text).not.toContain(ADMIN_API_KEY);
      // the service still answers
      expect((await t.get('/version')).status).toBe(200);
    });

    inProcessIt('nor do the logs of those requests', async () => {
      const logs = await outputDuring(async () => {
        await sendMalformedRequests();
      });
      expect(logs).not.toContain(ADMIN_API_KEY);
    });
  });

  describe('authentication forms', () => {
    let user: { id: number; login: string; apiKey: string };
    beforeAll(async () => {
      user = await t.createUser(loginNamed('auth-forms'), { password: 'secret-pass' });
    });
    const whoCanSeeInsiderParam = async (options: Parameters<TestApp['get']>[1]) => (await t.get('/parameters', options));

    it.each([
      ['Tracker_api_key', { query: { Tracker_api_key: ADMIN_API_KEY } }],
      ['Bugzilla_api_key', { query: { Bugzilla_api_key: ADMIN_API_KEY } }],
      ['api_key', { query: { api_key: ADMIN_API_KEY } }],
      ['X-BUGZILLA-API-KEY', { headers: { 'X-BUGZILLA-API-KEY': ADMIN_API_KEY } }],
      ['X-TRACKER-API-KEY', { headers: { 'X-TRACKER-API-KEY': ADMIN_API_KEY } }],
      ['Authorization: Bearer', { headers: { Authorization: `Bearer ${ADMIN_API_KEY}` } }],
      ['Tracker_login + Tracker_password', { query: { Tracker_login: ADMIN_LOGIN, Tracker_password: ADMIN_PASSWORD } }],
      ['Bugzilla_login + Bugzilla_password', { query: { Bugzilla_login: ADMIN_LOGIN, Bugzilla_password: ADMIN_PASSWORD } }],
      ['login + password', { query: { login: ADMIN_LOGIN, password: ADMIN_PASSWORD } }],
      ['X-BUGZILLA-LOGIN + X-BUGZILLA-PASSWORD', { headers: { 'X-BUGZILLA-LOGIN': ADMIN_LOGIN, 'X-BUGZILLA-PASSWORD': ADMIN_PASSWORD } }],
    ])('%s authenticates', async (_name, options) => {
      const res = await whoCanSeeInsiderParam(options);
      expect(res.status).toBe(200);
      expect(res.body.parameters).toHaveProperty('insidergroup');
    });

    it('credentials in a PUT body authenticate too', async () => {
      const res = await t.put('/parameters', { Bugzilla_api_key: ADMIN_API_KEY, maintainer: ADMIN_LOGIN });
      expect(res.status).toBe(200);
    });

    it.each([
      ['an unknown API key', { query: { api_key: 'not-a-key' } }, 306, 400],
      ['an unknown API key in a header', { headers: { 'X-BUGZILLA-API-KEY': 'not-a-key' } }, 306, 400],
      ['a wrong password', { query: { login: ADMIN_LOGIN, password: 'wrong' } }, 300, 401],
      ['an unknown login', { query: { Bugzilla_login: 'nobody@example.com', Bugzilla_password: 'x' } }, 300, 401],
      ['an invalid token', { query: { token: '1-notatoken' } }, 32000, 400],
      ['a malformed token', { query: { Bugzilla_token: 'garbage' } }, 32000, 400],
      ['an invalid token header', { headers: { 'X-BUGZILLA-TOKEN': '1-nope' } }, 32000, 400],
    ])('%s is an error, never anonymous', async (_name, options, code, status) => {
      expectError(await t.get('/parameters', options), code, status);
    });

    it('a disabled account is refused with 301 whatever the credential', async () => {
      const disabled = await t.createUser(loginNamed('disabled'), { password: 'secret-pass', disabled: 'Gone fishing' });
      expectError(await t.get('/parameters', { key: disabled.apiKey }), 301, 401);
      expectError(await t.get('/parameters', { query: { login: disabled.login, password: 'secret-pass' } }), 301, 401);
    });

    it('a plain user key authenticates as that user (sees user-level parameters)', async () => {
      const res = await t.get('/parameters', { key: user.apiKey });
      expect(res.body.parameters).toHaveProperty('defaultplatform');
    });
  });

  describe('requirelogin', () => {
    let locked: TestApp;
    beforeAll(async () => {
      locked = await startTestApp();
      await locked.setParameters({ requirelogin: '1' });
    });
    afterAll(async () => {
      // A running instance is the one the other tests and files use: open it again.
      await locked.setParameters({ requirelogin: '0' });
      await locked.close();
    });

    it('version, timezone and parameters stay open', async () => {
      expect((await locked.get('/version')).status).toBe(200);
      expect((await locked.get('/timezone')).status).toBe(200);
      expect((await locked.get('/parameters')).body.parameters.requirelogin).toBe('1');
    });

    it('everything else needs a login (410)', async () => {
      expectError(await locked.get('/time'), 410, 401);
      expectError(await locked.get('/extensions'), 410, 401);
      expect((await locked.get('/time', { key: ADMIN_API_KEY })).status).toBe(200);
    });
  });
});

inProcessDescribe('the deadline of a request (TRACKER_REQUEST_TIMEOUT_MS, issue 40)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRACKER_REQUEST_TIMEOUT_MS: '1000' });
  });
  afterAll(() => t.close());

  /**
   * Sends `head` at once, then `trickled` one byte every 200 ms on a raw socket, until the server closes the
   * connection or 6 s passed: what came back, and after how long the server closed (undefined: it did not).
   */
  function trickle(head: string, trickled: string): Promise<{ text: string; closedAfterMs?: number }> {
    const { hostname, port } = new URL(t.baseUrl);
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(Number(port), hostname, () => socket.write(head));
      let text = '';
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < trickled.length) socket.write(trickled[sent++]);
      }, 200);
      const giveUp = setTimeout(() => finish(undefined), 6_000);
      const finish = (closedAfterMs: number | undefined) => {
        clearInterval(timer);
        clearTimeout(giveUp);
        socket.destroy();
        resolve({ text, closedAfterMs });
      };
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => finish(Date.now() - started));
    });
  }

  /** The status line and the JSON body of a raw HTTP answer. */
  const answerOf = (text: string) => ({ status: text.split('\r\n')[0], body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) });

  it('a body sent a byte at a time is cut at the deadline: a JSON 408, then the connection is closed', async () => {
    const body = JSON.stringify({ product: 'TestProduct', component: 'TestComponent', summary: 'never filed', version: 'unspecified' });
    const head = `POST /rest/bug?Tracker_api_key=${ADMIN_API_KEY} HTTP/1.1\r\nHost: tracker\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { text, closedAfterMs } = await trickle(head, body);
    expect(closedAfterMs).toBeLessThan(3_000);
    expect(answerOf(text)).toEqual({ status: 'HTTP/1.1 408 Request Timeout', body: expect.objectContaining({ error: true, code: 32000, message: 'The request was not received in time.' }) });
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(text).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
    expect((await t.get('/bug', { key: ADMIN_API_KEY, query: { summary: 'never filed' } })).body.bugs).toEqual([]);
  });

  it('so are headers sent a byte at a time', async () => {
    const { text, closedAfterMs } = await trickle('GET /rest/version HTTP/1.1\r\nHost: tracker\r\n', 'X-Slow: header sent slowly\r\n\r\n');
    expect(closedAfterMs).toBeLessThan(3_000);
    expect(answerOf(text).status).toBe('HTTP/1.1 408 Request Timeout');
  });

  it('a request received in time is answered', async () => {
    expect((await t.get('/version')).status).toBe(200);
    const { text } = await trickle('GET /rest/version HTTP/1.1\r\nHost: tracker\r\nConnection: close\r\n', '\r\n');
    expect(answerOf(text).status).toBe('HTTP/1.1 200 OK');
  });
});

describe('parameter encodings over HTTP', () => {
  let t: TestApp;
  /** The parameters these tests change, as they were: a running instance keeps them for the files after this one. */
  let changed: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    changed = (await t.get('/parameters', { key: ADMIN_API_KEY, query: { include_fields: 'mailfrom,insidergroup' } })).body.parameters;
  });
  afterAll(async () => {
    await t.setParameters(changed);
    await t.close();
  });

  it('repeated query keys become lists (include_fields=a&include_fields=b)', async () => {
    const res = await t.get('/parameters', { key: ADMIN_API_KEY, query: { include_fields: ['maintainer', 'useqacontact'] } });
    expect(res.body.parameters).toEqual({ maintainer: ADMIN_LOGIN, useqacontact: '0' });
  });

  it('on a write, a query parameter overrides the same name in the JSON body', async () => {
    const res = await t.put('/parameters', { mailfrom: 'from-body@example.com' }, { key: ADMIN_API_KEY, query: { mailfrom: 'from-query@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.parameters).toEqual({ mailfrom: 'from-query@example.com' });
  });

  it('a write whose body is not declared as application/json is 32613 and changes nothing', async () => {
    const res = await t.request('PUT', '/parameters', { rawBody: JSON.stringify({ mailfrom: 'plain@example.com' }), key: ADMIN_API_KEY, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: true, code: 32613 });
    const form = await t.request('PUT', '/parameters', { rawBody: 'mailfrom=x', key: ADMIN_API_KEY, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.body).toMatchObject({ error: true, code: 32613 });
    const ok = await t.request('PUT', '/parameters', { rawBody: JSON.stringify({ mailfrom: 'plain@example.com' }), key: ADMIN_API_KEY, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(ok.body.parameters).toEqual({ mailfrom: 'plain@example.com' });
  });

  it('PUT /rest/parameters refuses an unknown name and a bad value, changing nothing', async () => {
    const unknown = await t.put('/parameters', { no_such_parameter: '1', mailfrom: 'x@example.com' }, { key: ADMIN_API_KEY });
    expect(unknown.body).toMatchObject({ error: true, code: 32000 });
    const bad = await t.put('/parameters', { requirelogin: 'maybe' }, { key: ADMIN_API_KEY });
    expect(bad.body).toMatchObject({ error: true, code: 32000 });
    const group = await t.put('/parameters', { insidergroup: 'no-such-group' }, { key: ADMIN_API_KEY });
    expect(group.body).toMatchObject({ error: true, code: 32000 });
    const { parameters } = (await t.get('/parameters', { key: ADMIN_API_KEY })).body;
    expect(parameters.mailfrom).toBe('plain@example.com');
    expect(parameters.requirelogin).toBe('0');
  });

  it('PUT /rest/parameters needs tweakparams (304) and a login (410)', async () => {
    const user = await t.createUser(loginNamed('not-tweak'));
    const denied = await t.put('/parameters', { mailfrom: 'x@example.com' }, { key: user.apiKey });
    expect(denied.status).toBe(401);
    expect(denied.body.code).toBe(304);
    const anonymous = await t.put('/parameters', { mailfrom: 'x@example.com' });
    expect(anonymous.body.code).toBe(410);
  });

  it('a parameter change is audited and moves last_audit_time', async () => {
    await t.put('/parameters', { insidergroup: 'admin' }, { key: ADMIN_API_KEY });
    const res = await t.get('/last_audit_time', { query: { class: 'Tracker::Config' } });
    expect(res.body.last_audit_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  // A running instance has had products changed by other files.
  inProcessIt('last_audit_time of a class with no change is null', async () => {
    const other = await t.get('/last_audit_time', { query: { class: 'Bugzilla::Product' } });
    expect(other.body.last_audit_time).toBeNull();
  });

  it('the OpenAPI document lists the routes', async () => {
    const res = await t.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/rest/version', '/rest/parameters', '/rest/last_audit_time']));
  });
});
