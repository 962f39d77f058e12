import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Outbound webhook requests: one POST, a deadline, no redirect followed, and no connection to a loopback, private,
 * link-local or otherwise internal address unless allowed. The address is checked on the address actually
 * connected to (through the socket's DNS lookup), so a name that later resolves inward (DNS rebinding) is refused too.
 */

const INTERNAL = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether an IP address is loopback, private, link-local, shared, reserved or multicast. An IPv6 address that carries
 * an IPv4 one is judged by that too, in whatever notation (dotted or hex): IPv4-compatible (`::7f00:1`, which
 * systems route to 127.0.0.1), IPv4-mapped (`::ffff:7f00:1`), IPv4-translated (`::ffff:0:7f00:1`) and 6to4
 * (`2002:7f00:1::`).
 */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (INTERNAL.check(address, 'ipv6')) return true;
  const embedded = embeddedIpv4(address);
  return embedded !== undefined && INTERNAL.check(embedded, 'ipv4');
}

/** The IPv4 address an IPv6 one carries (compatible, mapped, translated or 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (!groups) return undefined;
  const dotted = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  if (groups[0] === 0x2002) return dotted(groups[1], groups[2]);
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && (groups[5] === 0 || groups[5] === 0xffff)) return dotted(groups[6], groups[7]);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return dotted(groups[6], groups[7]);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (net.isIP says it is one), a trailing dotted quad and a zone allowed. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (half: string | undefined) => (half ? half.split(':').map((group) => parseInt(group, 16)) : []);
  const [before, after] = [part(head), part(tail)];
  const groups = tail === undefined ? before : [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  return groups.length === 8 ? groups : undefined;
}

export class RefusedAddressError extends Error {}

/** The URL's host resolves (or is) an internal address: refused unless `allowPrivate`. Unresolvable names pass. */
export async function internalAddressOf(url: URL): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return isInternalAddress(host) ? host : undefined;
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  return addresses.find((a) => isInternalAddress(a.address))?.address;
}

export interface PostOutcome {
  /** The receiver's status, or undefined when none came (refused, timed out …). */
  status?: number;
  /** Why it failed; undefined for a 2xx answer. */
  error?: string;
}

/** The response body read for the error message, at most. */
const MAX_ERROR_BODY = 512;

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = allowPrivate ? undefined : addresses.find((a) => isInternalAddress(a.address));
      if (refused) return callback(new RefusedAddressError(`${hostname} resolves to the internal address ${refused.address}`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** POSTs `body` to `url`; never throws: the outcome says what happened. */
export function postJson(url: string, body: string, headers: Record<string, string>, options: { timeoutMs: number; allowPrivate: boolean }): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ error: `invalid URL ${url}` });
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && net.isIP(literal) && isInternalAddress(literal)) {
      return resolve({ error: `${literal} is an internal address` });
    }
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers },
      lookup: guardedLookup(options.allowPrivate),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (text.length < MAX_ERROR_BODY) text += chunk;
      });
      response.on('end', () => {
        if (status >= 200 && status < 300) return resolve({ status });
        const redirect = status >= 300 && status < 400 ? `redirect to ${response.headers.location ?? '?'} not followed` : '';
        resolve({ status, error: `HTTP ${status}${redirect ? `: ${redirect}` : text.trim() ? `: ${text.trim().slice(0, MAX_ERROR_BODY)}` : ''}` });
      });
      response.on('error', (err) => resolve({ status, error: err.message }));
    });
    request.on('error', (err) => {
      resolve({ error: err.name === 'TimeoutError' || err.name === 'AbortError' ? `no answer within ${options.timeoutMs} ms` : err.message });
    });
    request.end(body);
  });
}
