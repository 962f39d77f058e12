import { hash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Secrets at rest. Passwords: scrypt (memory-hard, node's built-in), stored as `scrypt$N$r$p$salt$hash`.
 * API keys and login tokens are long random strings, so a fast SHA-256 digest is enough to keep them out of the
 * database in clear while staying cheap on every request.
 */
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  if (isBugzillaHash(stored)) return verifyBugzillaHash(password, stored);
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Bugzilla 5.0's salted digests (Bugzilla::Util::bz_crypt), kept by an import from Bugzilla (docs/import.md) so
 * that its users' passwords go on working: the salt's 8 characters, the base64 digest (no padding) of the password
 * followed by the salt, then the algorithm in braces (`{SHA-256}`). Some installations separate salt and digest by
 * a comma; the digest is therefore read from the end.
 */
const BUGZILLA_HASH = /^(.{8}),?([A-Za-z0-9+/]+)\{(SHA-1|SHA-224|SHA-256|SHA-384|SHA-512)\}$/;
const BUGZILLA_SALT_LENGTH = 8;

function isBugzillaHash(stored: string): boolean {
  return BUGZILLA_HASH.test(stored);
}

function verifyBugzillaHash(password: string, stored: string): boolean {
  const [, salt, digest, algorithm] = BUGZILLA_HASH.exec(stored)!;
  const actual = Buffer.from(hash(algorithm.replace('-', '').toLowerCase(), password + salt.slice(0, BUGZILLA_SALT_LENGTH), 'base64').replace(/=+$/, ''));
  const expected = Buffer.from(digest);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a stored password is in another scheme than the current one: rehashed at its next successful login. */
export function passwordNeedsRehash(stored: string | null | undefined): boolean {
  return !!stored && !stored.startsWith('scrypt$');
}

export function digestSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** A random secret of URL-safe characters (API keys, login tokens, generated passwords). */
export function randomSecret(length = 40): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
