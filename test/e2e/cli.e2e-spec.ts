import type { AddressInfo } from 'node:net';
import { Like, type DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { runCli, EXIT_ERROR, EXIT_OK, EXIT_USAGE } from '../../src/cli/cli.js';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildService, ROOT } from '../support/service-process.js';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { openDataSource } from '../../src/database/open-data-source.js';
import { ENTITIES } from '../../src/entities.js';
import { User } from '../../src/user/entities/user.entity.js';
import { Membership } from '../../src/group/entities/membership.entity.js';
import { AuditLogEntry } from '../../src/audit/entities/audit-log-entry.entity.js';
import { ApiKey } from '../../src/auth/entities/api-key.entity.js';
import { FieldDefinition } from '../../src/field/entities/field-definition.entity.js';
import { FieldValue } from '../../src/field/entities/field-value.entity.js';
import { Parameter } from '../../src/params/entities/parameter.entity.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { ADMIN_LOGIN, ADMIN_PASSWORD } from '../support/test-app.js';
import { migrations } from '../../src/database/migrations/index.js';

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
    check ??= await openDataSource(dataSourceOptions(database.url, ENTITIES));
    return check;
  }

  const parameterValue = async (name: string) => (await (await db()).getRepository(Parameter).findOneByOrFail({ name })).value;

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
      const applied = migrations.map((migration) => `Applied ${migration.name}\n`).join('');
      expect(await tracker('migrate')).toEqual({ code: EXIT_OK, out: applied, err: '' });
      expect(await tracker('migrate')).toEqual({ code: EXIT_OK, out: 'No pending migrations.\n', err: '' });
      const runner = (await db()).createQueryRunner();
      try {
        for (const table of ['bugs', 'mail_queue', 'parameters']) expect(await runner.hasTable(table)).toBe(true);
      } finally {
        await runner.release();
      }
    });
  });

  describe('user create', () => {
    it('creates an account (name, password hashed, regexp groups) and prints its id', async () => {
      const res = await tracker('user', 'create', 'alice@example.com', '--name', 'Alice Example', '--password', 'secret-pass');
      expect(res).toMatchObject({ code: EXIT_OK, err: '' });
      expect(res.out).toMatch(/^\d+\n$/);
      const id = Number(res.out);
      const user = await (await db()).getRepository(User).findOneByOrFail({ id });
      expect(user).toMatchObject({ loginName: 'alice@example.com', email: 'alice@example.com', realname: 'Alice Example' });
      expect(user.cryptpassword).not.toContain('secret-pass');
      const memberships = await (await db()).getRepository(Membership).find({ where: { userId: id }, relations: { group: true } });
      expect(memberships.map((m) => m.group!.name)).toContain('editbugs');
      const audit = await (await db()).getRepository(AuditLogEntry).findOneBy({ objectId: id, field: '__create__', class: Like('%User') });
      expect(audit).toMatchObject({ userId: null, added: 'alice@example.com' });
    });

    it('without --password the account exists but cannot log in with a password', async () => {
      const res = await tracker('user', 'create', 'nopass@example.com');
      expect(res.code).toBe(EXIT_OK);
      const user = await (await db()).getRepository(User).findOneByOrFail({ id: Number(res.out) });
      expect(user).toMatchObject({ realname: '', cryptpassword: null });
    });

    it('a login already taken is account_exists (500), exit 1', async () => {
      expect(await tracker('user', 'create', 'ALICE@example.com')).toEqual({
        code: EXIT_ERROR, out: '', err: 'error 500: There is already an account with the login name ALICE@example.com.\n',
      });
    });

    it('an address failing emailregexp is illegal_email_address (501), a short password password_too_short (502)', async () => {
      expect(await tracker('user', 'create', 'not-an-address')).toMatchObject({ code: EXIT_ERROR, err: expect.stringMatching(/^error 501: /) });
      expect(await tracker('user', 'create', 'short@example.com', '--password', 'abc')).toMatchObject({ code: EXIT_ERROR, err: 'error 502: The password must be at least 6 characters long.\n' });
    });
  });

  describe('api-key create', () => {
    it('prints a new key for the user (stored only as a digest) that logs in over REST', async () => {
      const res = await tracker('api-key', 'create', 'alice@example.com', '--description', 'CI bot');
      expect(res).toMatchObject({ code: EXIT_OK, err: '' });
      const key = res.out.trim();
      expect(key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const row = await (await db()).getRepository(ApiKey).findOneByOrFail({ user: { loginName: 'alice@example.com' } });
      expect(row).toMatchObject({ description: 'CI bot', revoked: false });
      expect(row.keyHash).not.toBe(key);
      const app = await createApp(loadConfig(env), { logLevel: 'error' });
      try {
        await app.listen(0, '127.0.0.1');
        const { port } = app.getHttpServer().address() as AddressInfo;
        const whoami = await fetch(`http://127.0.0.1:${port}/rest/whoami?Tracker_api_key=${key}`);
        expect(whoami.status).toBe(200);
        expect(await whoami.json()).toMatchObject({ name: 'alice@example.com' });
      } finally {
        await app.close();
      }
    }, 30_000);

    it('an unknown login is invalid_username (504), exit 1', async () => {
      expect(await tracker('api-key', 'create', 'nobody@example.com')).toEqual({
        code: EXIT_ERROR, out: '', err: 'error 504: The name nobody@example.com is not a valid username.\n',
      });
    });

    it('a description over 255 characters is freetext_too_long (104), exit 1', async () => {
      expect(await tracker('api-key', 'create', 'alice@example.com', '--description', 'x'.repeat(300))).toMatchObject({ code: EXIT_ERROR, out: '', err: expect.stringMatching(/^error 104: /) });
    });
  });

  describe('field create', () => {
    it('defines a select field with its values (after ---) and prints its id', async () => {
      const res = await tracker('field', 'create', 'colour', '--type', 'SINGLE_SELECT', '--description', 'Colour', '--value', 'red', '--value', 'green', '--on-bug-entry');
      expect(res).toMatchObject({ code: EXIT_OK, err: '' });
      const id = Number(res.out);
      const field = await (await db()).getRepository(FieldDefinition).findOneByOrFail({ id });
      expect(field).toMatchObject({ name: 'cf_colour', description: 'Colour', type: 2, custom: true, enterBug: true, isMandatory: false });
      const values = await (await db()).getRepository(FieldValue).find({ where: { fieldId: id }, order: { sortkey: 'ASC' } });
      expect(values.map((v) => v.value)).toEqual(['---', 'red', 'green']);
    });

    it('a name already taken is field_already_exists (32000), exit 1', async () => {
      expect(await tracker('field', 'create', 'cf_colour', '--type', 'FREETEXT', '--description', 'Again')).toEqual({
        code: EXIT_ERROR, out: '', err: "error 32000: The field 'cf_colour' already exists.\n",
      });
    });

    it('an unknown type is invalid_customfield_type (32000), exit 1; a missing --type is a usage error, exit 2', async () => {
      expect(await tracker('field', 'create', 'size', '--type', 'HUGE', '--description', 'Size')).toEqual({
        code: EXIT_ERROR, out: '', err: "error 32000: 'HUGE' is not a valid custom field type.\n",
      });
      expect(await tracker('field', 'create', 'size', '--description', 'Size')).toMatchObject({ code: EXIT_USAGE, out: '', err: expect.stringMatching(/^--type is required\nUsage: npm run tracker -- field create <name> --type /) });
    });
  });

  describe('param set', () => {
    it('sets a parameter through the same validation as PUT /rest/parameters, audited as nobody (user 0)', async () => {
      expect(await tracker('param', 'set', 'mailfrom', 'tracker@example.com')).toEqual({ code: EXIT_OK, out: 'mailfrom = tracker@example.com\n', err: '' });
      expect(await parameterValue('mailfrom')).toBe('tracker@example.com');
      const audit = await (await db()).getRepository(AuditLogEntry).findOneBy({ field: 'mailfrom' });
      expect(audit).toMatchObject({ userId: 0, class: 'Tracker::Config', removed: 'bugzilla-daemon', added: 'tracker@example.com' });
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
      expect(await parameterValue('insidergroup')).toBe('editbugs');
    });
  });

  describe('usage', () => {
    it('help prints every command, exit 0', async () => {
      const res = await tracker('help');
      expect(res.code).toBe(EXIT_OK);
      for (const line of ['migrate', 'user create <email> [--name <full name>] [--password <password>]', 'api-key create <login> [--description <text>]', 'field create <name> --type', 'param set <name> <value>']) expect(res.out).toContain(line);
      expect((await tracker('param', '--help')).out).toBe(res.out);
    });

    it('the built command answers help without a database and without loading the app (Nest, the modules)', () => {
      buildService();
      // load-recorder.mjs reports the modules of the pattern the process loads: help must reach none of them.
      const run = spawnSync(process.execPath, ['--import', path.join(ROOT, 'test/support/load-recorder.mjs'), path.join(ROOT, 'dist/src/cli/main.js'), 'help'], {
        env: { ...process.env, DATABASE_URL: 'mysql://nobody@127.0.0.1:1/none', LOAD_RECORDER_PATTERN: String.raw`app\.module\.js$|/@nestjs/core/` },
        encoding: 'utf8',
      });
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain('Usage: npm run tracker -- <command>');
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
