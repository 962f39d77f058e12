import { DataSource } from 'typeorm';
import { runCli, EXIT_ERROR, EXIT_OK, EXIT_USAGE } from '../../src/cli/cli.js';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { ADMIN_LOGIN, ADMIN_PASSWORD } from '../support/test-app.js';

/** The admin command line, run in process through runCli against a database of its own. */
describe('admin command line (npm run tracker -- …)', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let check: DataSource | undefined;

  async function tracker(...argv: string[]) {
    let out = '';
    let err = '';
    const code = await runCli(argv, env, { out: (t) => void (out += t), err: (t) => void (err += t) });
    return { code, out, err };
  }

  /** A connection of the test's own, to see what the commands wrote. */
  async function db(): Promise<DataSource> {
    check ??= await new DataSource(dataSourceOptions(database.url)).initialize();
    return check;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, TRACKER_ADMIN_EMAIL: ADMIN_LOGIN, TRACKER_ADMIN_PASSWORD: ADMIN_PASSWORD, TRACKER_MAIL_URL: 'off' };
  });
  afterAll(async () => {
    await check?.destroy();
    await database.drop();
  });

  describe('migrate', () => {
    it('applies the pending migrations on a fresh database, then has nothing left to do', async () => {
      expect(await tracker('migrate')).toEqual({ code: EXIT_OK, out: 'Applied InitialSchema1763700000000\n', err: '' });
      expect(await tracker('migrate')).toEqual({ code: EXIT_OK, out: 'No pending migrations.\n', err: '' });
      const tables = await (await db()).query(database.dialect === 'mysql' ? 'SHOW TABLES' : "SELECT name FROM sqlite_master WHERE type = 'table'");
      expect(tables.map((row: Record<string, string>) => Object.values(row)[0])).toEqual(expect.arrayContaining(['bugs', 'mail_queue', 'parameters']));
    });
  });

  describe('param set', () => {
    it('sets a parameter through the same validation as PUT /rest/parameters, audited as nobody (user 0)', async () => {
      expect(await tracker('param', 'set', 'mailfrom', 'tracker@example.com')).toEqual({ code: EXIT_OK, out: 'mailfrom = tracker@example.com\n', err: '' });
      const [row] = await (await db()).query("SELECT value FROM parameters WHERE name = 'mailfrom'");
      expect(row.value).toBe('tracker@example.com');
      const [audit] = await (await db()).query("SELECT user_id, class, removed, added FROM audit_log WHERE field = 'mailfrom'");
      expect(audit).toMatchObject({ user_id: 0, class: 'Tracker::Config', removed: 'bugzilla-daemon', added: 'tracker@example.com' });
    });

    it('normalises booleans and says when nothing changed', async () => {
      expect((await tracker('param', 'set', 'useqacontact', 'true')).out).toBe('useqacontact = 1\n');
      expect((await tracker('param', 'set', 'useqacontact', '1')).out).toBe('useqacontact unchanged (1)\n');
    });

    it('accepts a group-valued parameter naming an existing group', async () => {
      expect(await tracker('param', 'set', 'insidergroup', 'editbugs')).toMatchObject({ code: EXIT_OK, out: 'insidergroup = editbugs\n' });
    });

    it('an unknown parameter is a coded error, exit 1 (unknown_parameter, 32000)', async () => {
      expect(await tracker('param', 'set', 'no_such_param', 'x')).toEqual({ code: EXIT_ERROR, out: '', err: "error 32000: There is no parameter named 'no_such_param'.\n" });
    });

    it('a bad value is a coded error and changes nothing (parameter_invalid_value, 32000)', async () => {
      const res = await tracker('param', 'set', 'insidergroup', 'no-such-group');
      expect(res).toMatchObject({ code: EXIT_ERROR, out: '' });
      expect(res.err).toBe("error 32000: The value of parameter 'insidergroup' is invalid: there is no group named 'no-such-group'\n");
      const [row] = await (await db()).query("SELECT value FROM parameters WHERE name = 'insidergroup'");
      expect(row.value).toBe('editbugs');
    });
  });

  describe('usage', () => {
    it('help prints every command, exit 0', async () => {
      const res = await tracker('help');
      expect(res.code).toBe(EXIT_OK);
      for (const line of ['migrate', 'param set <name> <value>']) expect(res.out).toContain(line);
      expect((await tracker('param', '--help')).out).toBe(res.out);
    });

    it('no command, an unknown command, a missing argument and an unknown option are usage errors, exit 2', async () => {
      const none = await tracker();
      expect(none.code).toBe(EXIT_USAGE);
      expect(none.err).toMatch(/^No command given\.\n\nUsage: npm run tracker -- <command>/);
      expect(await tracker('frobnicate')).toMatchObject({ code: EXIT_USAGE, err: expect.stringMatching(/^Unknown command: frobnicate\n/) });
      expect(await tracker('param', 'set', 'mailfrom')).toEqual({ code: EXIT_USAGE, out: '', err: 'expected <name> <value>\nUsage: npm run tracker -- param set <name> <value>\n' });
      expect(await tracker('migrate', '--force')).toEqual({ code: EXIT_USAGE, out: '', err: 'unknown option --force\nUsage: npm run tracker -- migrate\n' });
    });

    it('a bad configuration is reported, exit 1, before touching any database', async () => {
      const res = await runCli(['migrate'], { DATABASE_URL: 'postgres://nowhere/db' }, { out: () => undefined, err: (t) => expect(t).toMatch(/^error: configuration: DATABASE_URL must be/) });
      expect(res).toBe(EXIT_ERROR);
    });
  });
});
