import { SaxesParser, type SaxesTag } from 'saxes';
import { Errors, TrackerError } from '../common/errors/index.js';
import { MAX_BODY_DEPTH } from '../common/http/request-params.js';
import { rpcTypeOf, toRestTime, xmlRpcTime, type RpcCall } from './rpc-values.js';

/**
 * XML-RPC as Bugzilla 5.0 speaks it (XMLRPC::Lite with Bugzilla's serializer): a methodCall in, a methodResponse
 * or a fault out. saxes reads the XML: it expands no entity a document declares, and a DOCTYPE is refused outright,
 * so neither an external entity nor a billion laughs can be asked for; the body limit is Fastify's, as on REST.
 */

/** A `<value>` being read: a struct (its member's name read last), an array, or a scalar's text. */
interface OpenValue {
  type?: string;
  text: string;
  struct?: Record<string, unknown>;
  array?: unknown[];
  memberName?: string;
  memberValue?: { value: unknown };
}

const SCALARS = new Set(['i4', 'int', 'i8', 'boolean', 'string', 'double', 'dateTime.iso8601', 'base64', 'nil']);

/** Reads a methodCall: its method name and its first param (5.0's methods take one struct). */
export function parseMethodCall(body: string): RpcCall {
  const fail = (reason: string): never => {
    throw TrackerError.of(Errors.XMLRPC_NOT_WELL_FORMED, { reason });
  };
  const parser = new SaxesParser({ position: false, xmlns: false });
  const open: OpenValue[] = [];
  const elements: string[] = [];
  const params: unknown[] = [];
  let methodName: string | undefined;
  let name = '';

  parser.on('doctype', () => fail('a DOCTYPE is not accepted (no entity is expanded)'));
  parser.on('opentag', (tag: SaxesTag) => {
    const parent = elements[elements.length - 1];
    elements.push(tag.name);
    if (tag.name === 'value') {
      if (open.length >= MAX_BODY_DEPTH) fail(`values nest deeper than ${MAX_BODY_DEPTH} levels`);
      open.push({ text: '' });
    } else if (parent === 'value') {
      const value = open[open.length - 1];
      if (value.type !== undefined) fail('a <value> holds one type');
      // No prototype: a member named __proto__ is a member like any other.
      if (tag.name === 'struct') value.struct = Object.create(null) as Record<string, unknown>;
      else if (tag.name === 'array') value.array = [];
      else if (!SCALARS.has(tag.name)) fail(`<${tag.name}> is not an XML-RPC type`);
      value.type = tag.name;
      value.text = '';
    } else if (tag.name === 'methodName' || tag.name === 'name') {
      name = '';
    }
  });
  const text = (chunk: string) => {
    const element = elements[elements.length - 1];
    if (element === 'methodName' || element === 'name') name += chunk;
    else if (open.length && (element === 'value' || SCALARS.has(element))) open[open.length - 1].text += chunk;
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('closetag', () => {
    const element = elements.pop();
    const parent = elements[elements.length - 1];
    if (element === 'methodName') {
      methodName = name.trim();
    } else if (element === 'name' && parent === 'member') {
      const struct = open[open.length - 1];
      if (!struct?.struct) fail('a <member> outside a <struct>');
      struct.memberName = name;
    } else if (element === 'member') {
      const struct = open[open.length - 1];
      if (struct?.memberName === undefined || !struct.memberValue) fail('a <member> needs a <name> and a <value>');
      struct.struct![struct.memberName!] = struct.memberValue!.value;
      struct.memberName = undefined;
      struct.memberValue = undefined;
    } else if (element === 'value') {
      const value = valueOf(open.pop()!);
      const holder = open[open.length - 1];
      if (!holder) params.push(value);
      else if (holder.array && parent === 'data') holder.array.push(value);
      else if (holder.struct && parent === 'member') holder.memberValue = { value };
      else fail('a <value> out of place');
    }
  });

  try {
    parser.write(body).close();
  } catch (error) {
    if (error instanceof TrackerError) throw error;
    fail((error as Error).message.replace(/^[^:]*:\d+:\d+:\s*/, ''));
  }
  if (!methodName) return fail('no <methodName>');
  const first = params[0];
  if (first !== undefined && (first === null || typeof first !== 'object' || Array.isArray(first))) {
    throw TrackerError.of(Errors.XMLRPC_INVALID_VALUE, { type: 'struct', value: String(first) });
  }
  return { method: methodName, params: (first as Record<string, unknown> | undefined) ?? {} };
}

/** A closed `<value>` as the REST body would carry it (5.0's deserializer: an empty int, double or date is undef). */
function valueOf({ type, text, struct, array }: OpenValue): unknown {
  if (struct) return struct;
  if (array) return array;
  const invalid = () => TrackerError.of(Errors.XMLRPC_INVALID_VALUE, { type, value: text });
  switch (type) {
    case undefined:
    case 'string':
      return text;
    case 'nil':
      return null;
    case 'base64':
      // Kept as base64, as REST takes attachment data; only the line breaks of the encoding go.
      if (!/^[A-Za-z0-9+/=\s]*$/.test(text)) throw invalid();
      return text.replace(/\s+/g, '');
    case 'boolean':
      if (!/^\s*[01]\s*$/.test(text)) throw invalid();
      return text.trim() === '1';
  }
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (type === 'double') {
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) throw invalid();
    return Number(trimmed);
  }
  if (type === 'dateTime.iso8601') {
    const rest = toRestTime(trimmed);
    if (rest === undefined) throw invalid();
    return rest;
  }
  if (!/^[+-]?\d{1,19}$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) throw invalid();
  return Number(trimmed);
}

/** XML's five escapes, and the control characters XML 1.0 cannot carry dropped. */
function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 forbids
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** A successful answer: the result typed as 5.0 types it (rpc-values.ts), undefined members left out as 5.0 strips them. */
export function methodResponse(result: unknown): string {
  return `${XML_DECLARATION}<methodResponse><params><param>${result === null || result === undefined ? '<value />' : encodeValue(result, '')}</param></params></methodResponse>`;
}

export function faultResponse(code: number, message: string): string {
  return `${XML_DECLARATION}<methodResponse><fault><value><struct>` +
    `<member><name>faultString</name><value><string>${escapeXml(message)}</string></value></member>` +
    `<member><name>faultCode</name><value><int>${code}</int></value></member>` +
    '</struct></value></fault></methodResponse>';
}

function encodeValue(value: unknown, key: string): string {
  if (Array.isArray(value)) {
    const items = value.filter((item) => item !== null && item !== undefined).map((item) => encodeValue(item, key));
    return items.length ? `<value><array><data>${items.join('')}</data></array></value>` : '<value><array><data /></array></value>';
  }
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value)
      .filter(([, member]) => member !== null && member !== undefined)
      .map(([name, member]) => `<member><name>${escapeXml(name)}</name>${encodeValue(member, name)}</member>`);
    return members.length ? `<value><struct>${members.join('')}</struct></value>` : '<value><struct /></value>';
  }
  const type = rpcTypeOf(key, value);
  const text = type === 'boolean' ? (value ? '1' : '0')
    : type === 'double' ? Number(value).toFixed(2)
      : type === 'dateTime.iso8601' ? xmlRpcTime(String(value))
        : escapeXml(String(value));
  return text === '' ? `<value><${type} /></value>` : `<value><${type}>${text}</${type}></value>`;
}
