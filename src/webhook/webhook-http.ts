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

/** Whether an IP address is loopback, private, link-local, shared, reserved or multicast (IPv4-mapped IPv6 included). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
