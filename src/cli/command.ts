import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import type { OptionSpec, ParsedArgs } from './cli-args.js';

/** Where the command line writes (the real process streams, or a test's buffers). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** What a command gets: its arguments, the configuration, and the application context (booted on first use). */
export interface CommandContext {
  args: ParsedArgs;
  config: AppConfig;
  io: CliIo;
  app: () => Promise<INestApplicationContext>;
}

export interface CommandDefinition {
  /** The command's words, e.g. ['user', 'create']. */
  words: readonly string[];
  /** Positional arguments, in order (all required). */
  positionals: readonly string[];
  options: readonly OptionSpec[];
  /** The rest of the usage line, after the words and positionals. */
  optionsUsage?: string;
  summary: string;
  run(context: CommandContext): Promise<void>;
}
