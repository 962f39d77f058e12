import { TrackerError } from '../common/errors/index.js';
import { faultResponse, methodResponse, parseMethodCall } from './xml-rpc.codec.js';

const call = (value: string) => `<?xml version="1.0"?><methodCall><methodName>Bug.search</methodName><params><param><value><struct>${value}</struct></value></param></params></methodCall>`;
const member = (name: string, value: string) => `<member><name>${name}</name><value>${value}</value></member>`;
const codeOf = (body: string) => {
  try {
    parseMethodCall(body);
  } catch (error) {
    return (error as TrackerError).code;
  }
  return undefined;
};

describe('XML-RPC methodCall', () => {
  it('reads every type as the REST body carries it (dates as REST dates, base64 kept, empty int as nothing)', () => {
    const body = call([
      member('i', '<int>42</int>'), member('i4', '<i4>-7</i4>'), member('d', '<double>1.5</double>'), member('b', '<boolean>1</boolean>'),
      member('s', '<string>a &amp; b</string>'), member('bare', 'plain text'), member('t', '<dateTime.iso8601>20261128T08:18:41</dateTime.iso8601>'),
      member('data', '<base64>\naGVs\nbG8=\n</base64>'), member('none', '<nil/>'), member('empty', '<int></int>'),
      member('list', '<array><data><value><int>1</int></value><value><string>2</string></value></data></array>'),
      member('nested', '<struct><member><name>body</name><value><string>x</string></value></member></struct>'),
    ].join(''));
    expect(parseMethodCall(body)).toEqual({
      method: 'Bug.search',
      params: { i: 42, i4: -7, d: 1.5, b: true, s: 'a & b', bare: 'plain text', t: '2026-11-28T08:18:41Z', data: 'aGVsbG8=', none: null, empty: null, list: [1, '2'], nested: { body: 'x' } },
    });
  });

  it('reads a member named __proto__ as a member (no prototype is set)', () => {
    const { params } = parseMethodCall(call(member('__proto__', '<struct><member><name>polluted</name><value>1</value></member></struct>')));
    expect(Object.getPrototypeOf(params)).toBeNull();
    expect(Object.keys(params)).toEqual(['__proto__']);
    expect((params as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses values of the wrong form (-32600) and documents that are no methodCall (-32700)', () => {
    expect(codeOf(call(member('i', '<int>1.5</int>')))).toBe(-32600);
    expect(codeOf(call(member('b', '<boolean>true</boolean>')))).toBe(-32600);
    expect(codeOf(call(member('t', '<dateTime.iso8601>yesterday</dateTime.iso8601>')))).toBe(-32600);
    expect(codeOf(call(member('i', '<int>99999999999999999999</int>')))).toBe(-32600);
    expect(codeOf('<methodCall><methodName>x</methodName><params><param><value><int>1</int></value></param></params></methodCall>')).toBe(-32600);
    expect(codeOf('<methodCall><params/></methodCall>')).toBe(-32700);
    expect(codeOf('<methodCall>')).toBe(-32700);
    expect(codeOf(call(member('x', '<int>1</int><int>2</int>')))).toBe(-32700);
  });

  it('expands no entity: a DOCTYPE is refused, an undeclared entity is an error', () => {
    expect(codeOf('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY e "boom">]><methodCall><methodName>&e;</methodName></methodCall>')).toBe(-32700);
    expect(codeOf('<!DOCTYPE a SYSTEM "file:///etc/passwd"><methodCall><methodName>x</methodName></methodCall>')).toBe(-32700);
    expect(codeOf(call(member('s', '<string>&e;</string>')))).toBe(-32700);
  });
});

describe('XML-RPC methodResponse', () => {
  it('writes 5.0\'s types and forms: empty elements, nulls left out, hours as doubles, dates, base64', () => {
    expect(methodResponse({
      id: 3, ok: true, summary: '', whiteboard: '<b>', estimated_time: 0, creation_time: '2026-11-28T08:18:41Z', data: 'aGk=', dupe_of: null, alias: [], changes: {},
    })).toBe('<?xml version="1.0" encoding="UTF-8"?><methodResponse><params><param><value><struct>' +
      '<member><name>id</name><value><int>3</int></value></member><member><name>ok</name><value><boolean>1</boolean></value></member>' +
      '<member><name>summary</name><value><string /></value></member><member><name>whiteboard</name><value><string>&lt;b&gt;</string></value></member>' +
      '<member><name>estimated_time</name><value><double>0.00</double></value></member>' +
      '<member><name>creation_time</name><value><dateTime.iso8601>20261128T08:18:41</dateTime.iso8601></value></member>' +
      '<member><name>data</name><value><base64>aGk=</base64></value></member>' +
      '<member><name>alias</name><value><array><data /></array></value></member><member><name>changes</name><value><struct /></value></member>' +
      '</struct></value></param></params></methodResponse>');
    expect(methodResponse(null)).toBe('<?xml version="1.0" encoding="UTF-8"?><methodResponse><params><param><value /></param></params></methodResponse>');
  });

  it('writes a text that looks like a date as a string outside the date members', () => {
    expect(methodResponse({ summary: '2026-11-28T08:18:41Z' })).toContain('<string>2026-11-28T08:18:41Z</string>');
  });

  it('writes a fault with faultString and faultCode', () => {
    expect(faultResponse(101, 'Bug #9 does not exist & <never> did.')).toBe('<?xml version="1.0" encoding="UTF-8"?><methodResponse><fault><value><struct>' +
      '<member><name>faultString</name><value><string>Bug #9 does not exist &amp; &lt;never&gt; did.</string></value></member>' +
      '<member><name>faultCode</name><value><int>101</int></value></member></struct></value></fault></methodResponse>');
  });
});
