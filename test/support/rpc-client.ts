import type { ApiResponse, TestApp } from './test-app.js';

/**
 * XML-RPC and JSON-RPC as the tests speak them to /xmlrpc.cgi and /jsonrpc.cgi: a small writer of methodCalls and
 * a reader of methodResponses that keeps each value's XML-RPC type (`{int: 1}`, `{string: 'x'}` …), so that tests
 * compare types as well as values.
 */
export type Typed = { [type: string]: unknown };

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A JavaScript value as python-bugzilla's xmlrpc.client writes it. */
export function xmlValue(value: unknown): string {
  if (value === null || value === undefined) return '<value><nil/></value>';
  if (typeof value === 'boolean') return `<value><boolean>${value ? 1 : 0}</boolean></value>`;
  if (typeof value === 'number') return Number.isInteger(value) ? `<value><int>${value}</int></value>` : `<value><double>${value}</double></value>`;
  if (typeof value === 'string') return `<value><string>${escape(value)}</string></value>`;
  if (Array.isArray(value)) return `<value><array><data>\n${value.map(xmlValue).join('\n')}\n</data></array></value>`;
  if (value instanceof Buffer) return `<value><base64>\n${value.toString('base64')}\n</base64></value>`;
  const members = Object.entries(value as Record<string, unknown>).map(([name, member]) => `<member>\n<name>${escape(name)}</name>\n${xmlValue(member)}\n</member>`);
  return `<value><struct>\n${members.join('\n')}\n</struct></value>`;
}

export function methodCall(method: string, params: Record<string, unknown> = {}): string {
  return `<?xml version='1.0'?>\n<methodCall>\n<methodName>${method}</methodName>\n<params>\n<param>\n${xmlValue(params)}\n</param>\n</params>\n</methodCall>\n`;
}

const TAG = /<(\/?)([A-Za-z][\w.]*)\s*(\/?)>/g;

/** A methodResponse read into typed values: `{result}` or `{fault: {faultCode, faultString}}` (types kept). */
export function readResponse(xml: string): { result?: Typed; fault?: Typed } {
  const tokens: Array<{ close: boolean; name: string; empty: boolean; text: string }> = [];
  let last = 0;
  for (const match of xml.matchAll(TAG)) {
    const text = xml.slice(last, match.index);
    tokens.push({ close: match[1] === '/', name: match[2], empty: match[3] === '/', text });
    last = match.index + match[0].length;
  }
  let at = 0;
  const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const value = (): Typed => {
    // At a <value> opening: a typed child, or text.
    const open = tokens[at++];
    if (open.empty) return { string: '' };
    const child = tokens[at];
    if (child.close) {
      at++;
      return { string: unescape(child.text) };
    }
    at++;
    let result: Typed;
    if (child.name === 'struct') {
      const struct: Record<string, Typed> = {};
      if (!child.empty) {
        while (tokens[at].name === 'member' && !tokens[at].close) {
          at++; // <member>
          at++; // <name>
          const name = unescape(tokens[at].text);
          at++; // </name>
          struct[name] = value();
          at++; // </member>
        }
        at++; // </struct>
      }
      result = { struct };
    } else if (child.name === 'array') {
      const items: Typed[] = [];
      const data = tokens[at++];
      if (!data.empty) {
        while (tokens[at].name === 'value' && !tokens[at].close) items.push(value());
        at++; // </data>
      }
      at++; // </array>
      result = { array: items };
    } else if (child.empty) {
      result = { [child.name]: '' };
    } else {
      result = { [child.name]: unescape(tokens[at].text) };
      at++;
    }
    at++; // </value>
    return result;
  };
  while (at < tokens.length && tokens[at].name !== 'value') at++;
  if (at >= tokens.length) throw new Error(`no value in ${xml.slice(0, 200)}`);
  const isFault = /<fault>/.test(xml);
  const read = value();
  return isFault ? { fault: read } : { result: read };
}

/** The typed value as plain JavaScript (ints and doubles as numbers, booleans as booleans, the rest as text). */
export function plain(typed: Typed): unknown {
  const [[type, inner]] = Object.entries(typed);
  if (type === 'struct') return Object.fromEntries(Object.entries(inner as Record<string, Typed>).map(([k, v]) => [k, plain(v)]));
  if (type === 'array') return (inner as Typed[]).map(plain);
  if (type === 'int' || type === 'i4' || type === 'double') return Number(inner);
  if (type === 'boolean') return inner === '1';
  return inner;
}

export interface XmlRpcAnswer {
  response: ApiResponse;
  result?: Typed;
  fault?: { faultCode: number; faultString: string };
}

export async function xmlRpc(t: TestApp, method: string, params: Record<string, unknown> = {}): Promise<XmlRpcAnswer> {
  return xmlRpcRaw(t, methodCall(method, params));
}

export async function xmlRpcRaw(t: TestApp, body: string, contentType = 'text/xml'): Promise<XmlRpcAnswer> {
  const response = await t.request('POST', '/xmlrpc.cgi', { rawBody: body, headers: { 'content-type': contentType } });
  if (response.status !== 200) return { response };
  const read = readResponse(response.text);
  return { response, result: read.result, fault: read.fault && (plain(read.fault) as { faultCode: number; faultString: string }) };
}

export async function jsonRpc(t: TestApp, method: string, params: Record<string, unknown> = {}, id: unknown = 1): Promise<ApiResponse> {
  return t.request('POST', '/jsonrpc.cgi', { rawBody: JSON.stringify({ method, params: [params], id }), headers: { 'content-type': 'application/json' } });
}
