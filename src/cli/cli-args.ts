/** Parsing of the admin command line's arguments: positionals and `--name value` / `--name=value` / `--flag`. */

/** A mistake in how the command was called: exit code 2 with the usage line. */
export class UsageError extends Error {}

export interface OptionSpec {
  /** Without the leading dashes. */
  name: string;
  /** A flag takes no value (`--mandatory`). */
  flag?: boolean;
  /** May be given several times (`--value a --value b`); the values are kept in order. */
  repeatable?: boolean;
  /** Leaving it out is a usage error. */
  required?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string | true | string[]>;
}

export function parseArgs(args: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const positionals: string[] = [];
  const options = new Map<string, string | true | string[]>();
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
    if (options.has(name) && !spec.repeatable) throw new UsageError(`--${name} given twice`);
    if (spec.flag) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      options.set(name, true);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (spec.repeatable) options.set(name, [...((options.get(name) as string[] | undefined) ?? []), value]);
    else options.set(name, value);
  }
  const missing = specs.find((s) => s.required && !options.has(s.name));
  if (missing) throw new UsageError(`--${missing.name} is required`);
  return { positionals, options };
}

/** Every value of a repeatable option, in order (none when it was not given). */
export function optionValues(parsed: ParsedArgs, name: string): string[] {
  const value = parsed.options.get(name);
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** The value of a valued option, or undefined when it was not given. */
export function optionValue(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.options.get(name);
  return typeof value === 'string' ? value : undefined;
}
