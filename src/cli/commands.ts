import { Db } from '../database/db.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { GroupService } from '../group/group.service.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source-options.js';
import type { AppConfig } from '../config/app-config.js';
import type { CliIo, CommandDefinition } from './cli.js';

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
