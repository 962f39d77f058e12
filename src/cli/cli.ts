import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { ensureDatabaseExists } from '../database/missing-database.js';
import { TrackerError } from '../common/errors/index.js';
import { parseArgs, UsageError, type ParsedArgs } from './cli-args.js';
import type { CliIo, CommandContext, CommandDefinition } from './command.js';
import { COMMANDS } from './commands.js';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

function usageLine(command: CommandDefinition): string {
  return [...command.words, ...command.positionals.map((p) => `<${p}>`), command.optionsUsage ?? ''].join(' ').trim();
}

export function helpText(): string {
  const commands = [...COMMANDS.map((c) => ({ usage: usageLine(c), summary: c.summary })), { usage: 'help', summary: 'this text' }];
  return [
    'Usage: npm run tracker -- <command> [arguments]',
    '',
    'Commands:',
    ...commands.flatMap(({ usage, summary }) => [`  ${usage}`, `      ${summary}`]),
    '',
    'The database and the rest of the configuration come from the environment (DATABASE_URL, TRACKER_*), as for the',
    'service. Exit codes: 0 done, 1 refused (error <code>: <message>), 2 wrong usage.',
    '',
  ].join('\n');
}

/** The command named by the first words of argv (the longest match), and the arguments after those words. */
function findCommand(argv: readonly string[]): { command: CommandDefinition; rest: string[] } | undefined {
  const matches = COMMANDS.filter((c) => c.words.every((word, i) => argv[i] === word)).sort((a, b) => b.words.length - a.words.length);
  return matches[0] && { command: matches[0], rest: argv.slice(matches[0].words.length) };
}

/**
 * Runs one admin command (`argv` without the program name) against the database `env` names; returns the exit
 * code: 0 done, 1 a coded error (`error <code>: <message>`) or a failure, 2 a usage error.
 */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.out(helpText());
    return EXIT_OK;
  }
  const found = findCommand(argv);
  if (!found) {
    io.err(`${argv.length ? `Unknown command: ${argv.join(' ')}` : 'No command given.'}\n\n${helpText()}`);
    return EXIT_USAGE;
  }
  const { command, rest } = found;
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, command.options);
    if (args.positionals.length !== command.positionals.length) {
      throw new UsageError(`expected ${command.positionals.length ? command.positionals.map((p) => `<${p}>`).join(' ') : 'no arguments'}`);
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`${err.message}\nUsage: npm run tracker -- ${usageLine(command)}\n`);
    return EXIT_USAGE;
  }

  let app: INestApplicationContext | undefined;
  try {
    const config = loadConfig(env);
    // A database that does not exist: one line (or created, with TRACKER_CREATE_DATABASE=1), not 28 s of retries.
    await ensureDatabaseExists(config.databaseUrl, config.createDatabase);
    const context: CommandContext = {
      args,
      config,
      io,
      app: async () => {
        // abortOnError false: a boot failure is reported here, not by Nest exiting the process.
        if (!app) {
          // Loaded on first use: `help` and usage errors answer without loading Nest and every module (issue 14: < 1 s).
          const [{ NestFactory }, { AppModule }] = await Promise.all([import('@nestjs/core'), import('../app.module.js')]);
          app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error', 'warn'], abortOnError: false });
        }
        return app;
      },
    };
    await command.run(context);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof TrackerError) io.err(`error ${err.code}: ${err.message}\n`);
    else if (err instanceof ConfigError) io.err(`error: configuration: ${err.message}\n`);
    else io.err(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_ERROR;
  } finally {
    await app?.close();
  }
}
