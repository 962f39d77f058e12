/**
 * The request generator of the fuzzer (test/e2e/fuzz.e2e-spec.ts): malformed requests for the routes the service
 * describes in its OpenAPI document, drawn from a seeded PRNG so that a failure replays from its seed.
 */

import { RPC_METHODS } from '../../src/rpc/rpc-methods.js';

/** Bugzilla 5.0's method names the RPC endpoints serve (/xmlrpc.cgi, /jsonrpc.cgi). */
const RPC_METHOD_NAMES = Object.keys(RPC_METHODS);

/** mulberry32: a tiny, fast, seedable PRNG (numbers in [0, 1)). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzRoute {
  method: string;
  /** The OpenAPI path, e.g. `/rest/bug/{id}`. */
  path: string;
  /** Names of its query parameters and body properties, as documented. */
  names: string[];
}

export interface FuzzRequest {
  method: string;
  /** Path and query, already encoded (it may hold invalid UTF-8 on purpose). */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** The routes of an OpenAPI document, with the parameter and body property names each documents. */
export function routesOf(document: { paths: Record<string, Record<string, any>> }): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const names = new Set<string>();
      for (const parameter of operation.parameters ?? []) if (parameter.in === 'query') names.add(parameter.name);
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const ref: string | undefined = schema?.$ref;
      const resolved = ref ? ref.split('/').slice(1).reduce((node: any, key) => node?.[key], document) : schema;
      for (const name of Object.keys(resolved?.properties ?? {})) names.add(name);
      routes.push({ method: method.toUpperCase(), path, names: [...names] });
    }
  }
  return routes;
}

/** Names every route is tried with, beyond its own: what clients and attackers send everywhere. */
const COMMON_NAMES = [
  'ids', 'id', 'names', 'name', 'login', 'password', 'email', 'summary', 'product', 'component', 'version', 'comment',
  'cc', 'keywords', 'flags', 'groups', 'data', 'file_name', 'content_type', 'is_patch', 'description', 'status',
  'resolution', 'alias', 'blocks', 'depends_on', 'whiteboard', 'limit', 'offset', 'order', 'match', 'token',
  'include_fields', 'exclude_fields', 'new_since', 'creation_time', 'last_change_time', 'value', 'values', 'type',
];

const META = [
  "' OR '1'='1", "'; DROP TABLE bugs; --", '" OR ""="', '1 UNION SELECT NULL,NULL--', '\\', '%', '_', '%%',
  '.*', '(a+)+$', '[', '(?<', '\\p{', '*', '^$|', '{"a":1}', '[1,2', '"', '}', '\u0000', '\u202e', '💥', '\ud800',
  '${7*7}', '{{7*7}}', '<script>alert(1)</script>', '../../etc/passwd', 'NaN', 'Infinity', '-0', '1e309',
  '9223372036854775808', '-9223372036854775809', '0x10', ' ', '', 'null', 'true', 'admin@example.com', '%s%s%n',
];

/** A valid value for names routes take, so that a body with one or two values broken gets past the others. */
const VALID: Record<string, () => unknown> = {
  product: () => 'TestProduct', component: () => 'TestComponent', version: () => 'unspecified', summary: () => 'fuzzed summary',
  description: () => 'fuzzed description', op_sys: () => 'All', platform: () => 'All', priority: () => '---',
  severity: () => 'enhancement', status: () => 'IN_PROGRESS', resolution: () => 'FIXED', whiteboard: () => 'wb',
  comment: () => ({ body: 'fuzzed comment' }), cc: () => ({ add: ['fuzzer@example.com'] }), keywords: () => ({ add: ['fuzzed'] }),
  blocks: () => ({ add: [2] }), depends_on: () => ({ add: [3] }), see_also: () => ({ add: ['https://example.com/1'] }),
  groups: () => ({ add: ['fuzz-secret'] }), flags: () => [], alias: () => 'fuzz-alias', url: () => 'https://example.com',
  deadline: () => '2030-01-01', estimated_time: () => 1, remaining_time: () => 1, work_time: () => 1, dupe_of: () => 2,
  ids: () => [2], names: () => ['TestProduct'], name: () => 'fuzzname', email: () => 'fuzz-new@example.com', full_name: () => 'Fuzz',
  password: () => 'fuzz-password-1', login: () => 'fuzzer@example.com', data: () => 'aGVsbG8=', file_name: () => 'a.txt',
  content_type: () => 'text/plain', is_patch: () => false, is_private: () => false, is_obsolete: () => false, is_active: () => true,
  sort_key: () => 1, sortkey: () => 1, values: () => ['v1'], type: () => 1, target_type: () => 'bug',
  inclusions: () => ['TestProduct:TestComponent'], exclusions: () => [], add: () => ['tag'], remove: () => ['tag'],
  user_regexp: () => '.*@example\\.com', icon_url: () => 'https://example.com/i.png', default_assignee: () => 'admin@example.com',
  classification: () => 'Unclassified', has_unconfirmed: () => true, default_milestone: () => '---', is_open: () => true,
  revoked: () => false, limit: () => 10, offset: () => 0,
};

const CALLBACKS = ['cb', 'cb.fn[0]', 'alert(1)', '<x>', '', 'a'.repeat(300), 'x;y', '1cb'];
const FIELD_LISTS = ['_all', '_default', '_custom', 'id,summary', '', ',,,', 'nope', 'id,' + 'x'.repeat(2000), 'cc.login', '*', 'id;summary', '💥'];
const BAD_BASE64 = ['!!!!', 'YQ', '====', 'a'.repeat(10_001), '\u0000', 'YWJj\nZGVm', '💥'];
const KEYS = ['', 'x', 'a'.repeat(40), 'adminkeyadminkeyadminkeyadminkey000', "' OR 1=1 --", '%00', 'a'.repeat(5000)];

/** encodeURIComponent, with a lone surrogate sent as the invalid UTF-8 it would be (encodeURIComponent throws). */
function encode(text: string): string {
  return text.split(/([\ud800-\udfff])/).map((part, i) => (i % 2 ? '%ED%A0%80' : encodeURIComponent(part))).join('');
}

export class FuzzGenerator {
  private readonly random: () => number;

  constructor(
    readonly seed: number,
    private readonly routes: FuzzRoute[],
    /** Values that make a path parameter real (existing ids and names) some of the time. */
    private readonly realValues: string[],
    /** A valid key, sent some of the time, so that the checks behind authentication are reached too. */
    private readonly validKey: string,
  ) {
    this.random = mulberry32(seed);
  }

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }
  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  private chance(p: number): boolean {
    return this.random() < p;
  }

  /** A value of any JSON type, some of them huge or deep. */
  value(depth = 0): unknown {
    switch (this.int(depth > 2 ? 8 : 11)) {
      case 0: return this.pick(META);
      case 1: return this.pick([0, -1, 1, 2 ** 31, 2 ** 53 + 1, -1e308, 1.5, 1e21]);
      case 2: return this.chance(0.5);
      case 3: return null;
      case 4: return this.pick(this.realValues);
      case 5: return this.chance(0.1) ? 'x'.repeat(70_000) : 'y'.repeat(this.int(300));
      case 6: return this.pick(BAD_BASE64);
      case 7: return this.pick(FIELD_LISTS);
      case 8: return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      case 9: return Object.fromEntries(Array.from({ length: this.int(4) }, () => [this.pick([...COMMON_NAMES, ...META]), this.value(depth + 1)]));
      default: return this.chance(0.5) ? [] : {};
    }
  }

  /** A query value as text (what a query string can carry). */
  private text(): string {
    const value = this.value(3);
    return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  }

  private pathOf(route: FuzzRoute): string {
    return route.path.replace(/\{[^}]+\}/g, () => {
      if (this.chance(0.4)) return encode(this.pick(this.realValues));
      if (this.chance(0.15)) return this.pick(['%FF%FE', '%C3%28', '%00', '%2F..%2F', '%E2%82']);
      return encode(this.text()).slice(0, 3000).replace(/%[0-9A-F]?$/, '') || '%20';
    });
  }

  private body(route: FuzzRoute): string | Buffer {
    if (route.path === '/xmlrpc.cgi') return this.xmlRpcBody();
    if (route.path === '/jsonrpc.cgi') return this.jsonRpcBody();
    const names = [...route.names, ...COMMON_NAMES];
    switch (this.int(25)) {
      case 0: return this.pick(['{', '{"a":', '[1,2', 'nul', '{"a":1}}', "{'a':1}", '{"a":1,}', '', '\u0000', '{"a":"\\ud800"}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}']);
      case 1: return Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]);
      case 2: {
        const depth = this.pick([50, 200, 2000, 20_000]);
        return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      }
      case 3: return JSON.stringify(this.value());
      case 4: return JSON.stringify(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])));
      case 5: return JSON.stringify({ [this.pick(names)]: this.chance(0.5) ? Array.from({ length: 5000 }, (_, i) => i) : 'h'.repeat(300 * 1024) });
      case 6: case 7: case 8:
        return JSON.stringify(Object.fromEntries(Array.from({ length: 1 + this.int(5) }, () => [this.pick(names), this.value()])));
      default: {
        // A body of valid values for the route's names, one or two of them replaced by anything.
        const body: Record<string, unknown> = {};
        for (const name of route.names) if (VALID[name] && this.chance(0.7)) body[name] = VALID[name]();
        for (let i = 1 + this.int(2); i > 0; i--) body[this.chance(0.9) && route.names.length ? this.pick(route.names) : this.pick(names)] = this.value();
        return JSON.stringify(body);
      }
    }
  }

  /** A 5.0 method's name most of the time, else one no server has. */
  private rpcMethod(): string {
    return this.chance(0.85) ? this.pick(RPC_METHOD_NAMES) : this.pick(['No.such_method', 'Bug', '.', 'Bug.get.more', 'system.listMethods', 'Bug._private', ...META]);
  }

  /** An XML-RPC value of any type, its text sometimes not of that type. */
  private xmlValue(depth = 0): string {
    const text = () => this.text().replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'));
    switch (this.int(depth > 2 ? 6 : 8)) {
      case 0: return `<value><int>${this.pick(['1', '-7', 'x', '', '1.5', '99999999999999999999', ' 2 '])}</int></value>`;
      case 1: return `<value><boolean>${this.pick(['0', '1', 'true', '2', ''])}</boolean></value>`;
      case 2: return `<value><dateTime.iso8601>${this.pick(['20261128T08:18:41', 'yesterday', '', '2026-11-28T08:18:41Z'])}</dateTime.iso8601></value>`;
      case 3: return `<value><base64>${this.pick(BAD_BASE64.concat(['aGVsbG8=']))}</base64></value>`;
      case 4: return `<value><double>${this.pick(['1.5', 'NaN', '1e309', 'x', ''])}</double></value>`;
      case 5: return this.chance(0.5) ? `<value><string>${text()}</string></value>` : `<value>${text()}</value>`;
      case 6: return `<value><array><data>${Array.from({ length: this.int(4) }, () => this.xmlValue(depth + 1)).join('')}</data></array></value>`;
      default: return `<value><struct>${Array.from({ length: this.int(5) }, () => `<member><name>${this.pick([...COMMON_NAMES, 'Bugzilla_login', 'Bugzilla_token'])}</name>${this.xmlValue(depth + 1)}</member>`).join('')}</struct></value>`;
    }
  }

  /** An XML-RPC methodCall: well formed or not, with entity bombs, external entities and deep nesting among them. */
  private xmlRpcBody(): string {
    const call = (params: string) => `<?xml version="1.0"?><methodCall><methodName>${this.rpcMethod()}</methodName><params>${params}</params></methodCall>`;
    switch (this.int(8)) {
      case 0: return this.pick(['', '<', '<methodCall>', '<methodCall><methodName>Bug.get</methodName>', 'not xml', '\uFEFF<?xml version="1.0"?><x/>', '<a></b>', '\u0000']);
      case 1: return `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><methodCall><methodName>&lol9;</methodName></methodCall>`;
      case 2: return `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "${this.pick(['file:///etc/passwd', 'http://127.0.0.1:1/', 'php://filter'])}">]>${call('<param><value><struct><member><name>summary</name><value>&xxe;</value></member></struct></value></param>')}`;
      case 3: {
        const depth = this.pick([40, 500, 5000]);
        return call(`<param>${'<value><array><data>'.repeat(depth)}${'</data></array></value>'.repeat(depth)}</param>`);
      }
      default: return call(Array.from({ length: this.chance(0.8) ? 1 : this.int(3) }, () => `<param>${this.xmlValue()}</param>`).join(''));
    }
  }

  /** A JSON-RPC request: 1.0, 1.1 or 2.0 envelopes, params of any shape. */
  private jsonRpcBody(): string {
    if (this.chance(0.15)) return this.pick(['{', '[]', '[{"method":"Bug.get"}]', 'null', '"x"', '{"method":null}']);
    const envelope: Record<string, unknown> = { method: this.chance(0.95) ? this.rpcMethod() : this.value(), params: this.chance(0.7) ? [this.value()] : this.value(), id: this.chance(0.8) ? this.int(100) : this.value() };
    if (this.chance(0.2)) envelope.version = this.pick(['1.1', '2.0', 1]);
    if (this.chance(0.2)) envelope.jsonrpc = '2.0';
    return JSON.stringify(envelope);
  }

  next(): FuzzRequest {
    const route = this.pick(this.routes);
    const method = this.chance(0.9) ? route.method : this.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);
    const headers: Record<string, string> = {};
    const query: string[] = [];
    const add = (name: string, value: string) => query.push(`${encode(name)}=${encode(value)}`);
    for (let i = this.int(4); i > 0; i--) add(this.pick(this.chance(0.8) && route.names.length ? route.names : COMMON_NAMES), this.chance(0.5) ? String(this.pick(this.realValues)) : this.text());
    if (this.chance(0.15)) add('include_fields', this.pick(FIELD_LISTS));
    if (this.chance(0.1)) add('exclude_fields', this.pick(FIELD_LISTS));
    if (this.chance(0.1)) add('callback', this.pick(CALLBACKS));
    // Credentials: a valid key most of the time (so that requests reach the checks behind it), else none or garbage
    // (query, header, login/password, token).
    const credential = this.chance(0.6) ? 0 : 1 + this.int(5);
    if (credential === 0) add('Tracker_api_key', this.validKey);
    if (credential === 1) add(this.pick(['Tracker_api_key', 'api_key', 'Bugzilla_api_key']), this.pick(KEYS));
    if (credential === 2) headers['x-bugzilla-api-key'] = this.pick(KEYS).replace(/[^\x20-\x7e]/g, '');
    if (credential === 3) {
      add(this.pick(['Bugzilla_login', 'login']), this.text());
      add(this.pick(['Bugzilla_password', 'password']), this.text());
    }
    if (credential === 4) add(this.pick(['Bugzilla_token', 'token']), this.pick(KEYS));
    let raw = query.join('&');
    if (this.chance(0.05)) raw += `&${this.pick(['%FF=%FE', 'a=%C3%28', '%=%', 'a=%E2%82'])}`;
    if (this.chance(0.02)) raw += `&long=${'L'.repeat(this.pick([4000, 20_000]))}`;
    if (this.chance(0.02)) raw += '&' + Array.from({ length: 3000 }, (_, i) => `p${i}=1`).join('&');
    if (this.chance(0.05)) headers.accept = 'text/html';
    let body: string | Buffer | undefined;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH' || this.chance(0.05)) {
      body = this.body(route);
      headers['content-type'] = this.chance(0.95) ? (route.path === '/xmlrpc.cgi' ? 'text/xml' : 'application/json') : this.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/xml']);
    }
    return { method, url: `${this.pathOf(route)}${raw ? `?${raw}` : ''}`, headers, body };
  }
}
