import { Db } from '../database/db.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { GroupService } from '../group/group.service.js';
import { UserService } from '../user/user.service.js';
import { AuthService } from '../auth/auth.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source-options.js';
import type { AppConfig } from '../config/app-config.js';
import type { CliIo, CommandDefinition } from './command.js';
import { optionValue, optionValues } from './cli-args.js';
import { FieldService } from '../field/field.service.js';
import { runImportCommand } from '../import/import-command.js';
import { ImportRefused } from '../import/bugzilla-importer.js';

/**
 * The admin commands. Each is a thin call into the service layer the REST routes use, so the same rules (and
 * the same coded errors) apply. Changes made here are audited with user id 0: nobody logged in made them.
 */
export const CLI_USER_ID = 0;

/** `migrate`: runs the pending migrations on their own data source (no application context: nothing else runs). */
export async function runMigrations(config: AppConfig, io: CliIo): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(config.databaseUrl));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (!applied.length) io.out('No pending migrations.\n');
    for (const migration of applied) io.out(`Applied ${migration.name}\n`);
  } finally {
    await dataSource.destroy();
  }
}

export const COMMANDS: readonly CommandDefinition[] = [
  {
    words: ['migrate'],
    positionals: [],
    options: [],
    summary: 'run the pending database migrations (the service also runs them at start)',
    run: ({ config, io }) => runMigrations(config, io),
  },
  {
    words: ['user', 'create'],
    positionals: ['email'],
    options: [{ name: 'name' }, { name: 'password' }],
    optionsUsage: '[--name <full name>] [--password <password>]',
    summary: 'create a user account, checked as POST /rest/user; prints its id',
    async run({ args, app, io }) {
      const users = (await app()).get(UserService);
      const id = await users.create(
        { email: args.positionals[0], fullName: optionValue(args, 'name'), password: optionValue(args, 'password') },
        { userId: null, now: new Date() },
      );
      io.out(`${id}\n`);
    },
  },
  {
    words: ['api-key', 'create'],
    positionals: ['login'],
    options: [{ name: 'description' }],
    optionsUsage: '[--description <text>]',
    summary: 'create an API key for a user; prints the key (shown this once only)',
    async run({ args, app, io }) {
      const nest = await app();
      const login = args.positionals[0];
      const user = await nest.get(UserService).findByLogin(login);
      if (!user) throw TrackerError.of(Errors.INVALID_USERNAME, { name: login });
      io.out(`${await nest.get(AuthService).createApiKey(user.id, optionValue(args, 'description') ?? '', new Date())}\n`);
    },
  },
  {
    words: ['field', 'create'],
    positionals: ['name'],
    options: [
      { name: 'type', required: true },
      { name: 'description', required: true },
      { name: 'value', repeatable: true },
      { name: 'mandatory', flag: true },
      { name: 'on-bug-entry', flag: true },
      { name: 'sort-key' },
      { name: 'reverse-desc' },
    ],
    optionsUsage: '--type <type> --description <text> [--value <v>]… [--mandatory] [--on-bug-entry] [--sort-key <n>] [--reverse-desc <text>]',
    summary: 'define a custom bug field (cf_…), checked as POST /rest/field/bug; prints its id. Types: FREETEXT,\n      SINGLE_SELECT, MULTI_SELECT (with --value for each legal value), TEXTAREA, DATETIME, BUG_ID, DATE, INTEGER',
    async run({ args, app, io }) {
      const values = optionValues(args, 'value');
      const id = await (await app()).get(FieldService).createCustomField(
        {
          name: args.positionals[0],
          type: optionValue(args, 'type'),
          description: optionValue(args, 'description'),
          ...(values.length ? { values } : {}),
          is_mandatory: args.options.has('mandatory'),
          is_on_bug_entry: args.options.has('on-bug-entry'),
          sort_key: optionValue(args, 'sort-key'),
          reverse_desc: optionValue(args, 'reverse-desc'),
        },
        { userId: CLI_USER_ID, now: new Date() },
      );
      io.out(`${id}\n`);
    },
  },
  {
    words: ['import-bugzilla'],
    positionals: [],
    options: [{ name: 'from', required: true }, { name: 'params', required: true }, { name: 'check', flag: true }, { name: 'since-last', flag: true }],
    optionsUsage: '--from mysql://user:pass@host/bugs --params data/params.json [--check] [--since-last]',
    summary: 'bring a Bugzilla 5.0.x installation into this empty (or freshly installed) database, ids kept, in one\n      transaction (docs/import.md); --check runs it all and rolls it back; --since-last brings the changes made\n      in Bugzilla since the last import',
    async run({ args, config, io }) {
      try {
        await runImportCommand(
          { from: optionValue(args, 'from')!, paramsFile: optionValue(args, 'params')!, check: args.options.has('check'), sinceLast: args.options.has('since-last'), databaseUrl: config.databaseUrl, terminal: !!process.stderr.isTTY },
          io,
        );
      } catch (err) {
        if (err instanceof ImportRefused) throw TrackerError.of(Errors.IMPORT_REFUSED, { reason: err.message });
        throw err;
      }
    },
  },
  {
    words: ['param', 'set'],
    positionals: ['name', 'value'],
    options: [],
    summary: 'set an installation parameter (validated as PUT /rest/parameters does)',
    async run({ args, app, io }) {
      const nest = await app();
      const [name, value] = args.positionals;
      const parameters = nest.get(ParametersService);
      const groups = nest.get(GroupService);
      const now = toDbDateTime(new Date());
      const changed = await nest.get(Db).transaction((tx) =>
        parameters.update(tx, { [name]: value }, { userId: CLI_USER_ID, now, isGroupName: (group) => groups.existsByName(group, tx) }),
      );
      const current = (await parameters.load()).get(name);
      io.out(changed.length ? `${name} = ${current}\n` : `${name} unchanged (${current})\n`);
    },
  },
];
