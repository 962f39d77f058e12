/** A call as both protocols read it: 5.0's method name and the one struct of parameters its methods take. */
export interface RpcCall {
  method: string;
  params: Record<string, unknown>;
}

/** An XML-RPC scalar type. */
export type XmlRpcScalar = 'int' | 'double' | 'boolean' | 'string' | 'dateTime.iso8601' | 'base64';

/**
 * The members 5.0 types as dateTime (Bugzilla's `type('dateTime', …)`): REST and JSON-RPC send them as
 * `YYYY-MM-DDThh:mm:ssZ`, XML-RPC as `<dateTime.iso8601>YYYYMMDDThh:mm:ss`. Custom fields of type date/time (cf_…)
 * are dates too; any other text, however it looks, is a string.
 */
const TIME_MEMBERS = new Set(['creation_time', 'last_change_time', 'time', 'when', 'creation_date', 'modification_date', 'last_visit_ts', 'last_seen_date', 'db_time', 'web_time', 'last_audit_time']);
/** Hours of work are `double` in 5.0 (`10.50`), even when REST's JSON writes a whole number. */
const DOUBLE_MEMBERS = new Set(['estimated_time', 'remaining_time', 'actual_time', 'work_time']);
/** Attachment contents: `base64` in 5.0. */
const BASE64_MEMBERS = new Set(['data']);

const REST_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z$/;
const XML_RPC_TIME = /^(\d{4})(\d\d)(\d\d)T(\d\d):(\d\d):(\d\d)/;

/** The XML-RPC type 5.0 gives a member's value (in an array, each item takes the array member's name). */
export function rpcTypeOf(member: string, value: unknown): XmlRpcScalar {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return DOUBLE_MEMBERS.has(member) || !Number.isInteger(value) ? 'double' : 'int';
  if (typeof value !== 'string') return 'string';
  if ((TIME_MEMBERS.has(member) || member.startsWith('cf_')) && REST_TIME.test(value)) return 'dateTime.iso8601';
  return BASE64_MEMBERS.has(member) ? 'base64' : 'string';
}

/** `YYYY-MM-DDThh:mm:ssZ` → `YYYYMMDDThh:mm:ss`, as XMLRPC::Lite writes dates. */
export function xmlRpcTime(rest: string): string {
  const [, y, mo, d, h, mi, s] = REST_TIME.exec(rest)!;
  return `${y}${mo}${d}T${h}:${mi}:${s}`;
}

/** An XML-RPC date (5.0 reads the leading `YYYYMMDDThh:mm:ss` and ignores the rest) as REST takes it; undefined if none. */
export function toRestTime(xmlRpc: string): string | undefined {
  const match = XML_RPC_TIME.exec(xmlRpc);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
}
