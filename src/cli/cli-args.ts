/** Parsing of the admin command line's arguments: positionals and `--name value` / `--name=value` / `--flag`. */

/** A mistake in how the command was called: exit code 2 with the usage line. */
export class UsageError extends Error {}

export interface OptionSpec {
  /** Without the leading dashes. */
  name: string;
  /** A flag takes no value (`--mandatory`). */
  flag?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string | true>;
}

export function parseArgs(args: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`unknown option --${name}`);
    if (options.has(name)) throw new UsageError(`--${name} given twice`);
    if (spec.flag) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      options.set(name, true);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    options.set(name, value);
  }
  return { positionals, options };
}

/** The value of a valued option, or undefined when it was not given. */
export function optionValue(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.options.get(name);
  return typeof value === 'string' ? value : undefined;
}
