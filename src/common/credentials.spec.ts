import { hashPassword, passwordNeedsRehash, verifyPassword } from './credentials.js';

describe('passwords', () => {
  // profiles.cryptpassword of admin@example.com in the Bugzilla 5.0.6 fixture (password Admin-pass1!).
  const bugzilla = '3ce6ONEn,1INdeR0O0Rl0vm0ZMdSTE7/LJ8Gsh0w9EeRgwUop9BQ{SHA-256}';

  it("accepts Bugzilla 5.0's salted SHA-256 digest for its password only", async () => {
    expect(await verifyPassword('Admin-pass1!', bugzilla)).toBe(true);
    expect(await verifyPassword('Admin-pass1', bugzilla)).toBe(false);
    expect(await verifyPassword('Admin-pass1!', bugzilla.replace('{SHA-256}', '{SHA-512}'))).toBe(false);
  });

  it('accepts the digest without the comma between salt and digest (bz_crypt as written)', async () => {
    expect(await verifyPassword('Admin-pass1!', bugzilla.replace(',', ''))).toBe(true);
  });

  it('rehashes anything but its own scheme', async () => {
    expect(passwordNeedsRehash(bugzilla)).toBe(true);
    const own = await hashPassword('Admin-pass1!');
    expect(passwordNeedsRehash(own)).toBe(false);
    expect(await verifyPassword('Admin-pass1!', own)).toBe(true);
  });
});
