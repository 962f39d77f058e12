import mysql from 'mysql2';

/**
 * The round trips the service made to MySQL while `work` ran, each as the service wrote its SQL: values bound by the
 * driver, or executed with a named statement, as `?` (a session variable standing for a new row's id by its name).
 * Left out: the one-time preparing of a statement on a connection that had not run it yet (which of the pool's
 * connections a request gets is chance). Seen where mysql2 queues a command on a connection; in-process tests on
 * MySQL only (SQL snapshots: sql-snapshots.ts).
 */
export async function sentStatements(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  watching = (sql) => sent.push(sql);
  try {
    await work();
  } finally {
    watching = undefined;
  }
  return sent;
}

/**
 * The statements a transaction held go to MariaDB as `EXECUTE tracker_held_N USING <values>` of statements each
 * connection prepared by name (NamedStatements), perhaps before the recorded work. Every command of the process is
 * read from this module's loading on, so that the texts `sentStatements` gives read as the statements themselves:
 * the PREPAREs left out, each EXECUTE replaced by its connection's statement of that name. A query whose values the
 * driver wrote into its text (`format`) is taken as it was before.
 */
const namedStatements = new WeakMap<object, Map<string, string>>();
let watching: ((sql: string) => void) | undefined;
type Connection = { addCommand(command: unknown): unknown; format(sql: string, values?: unknown, ...rest: unknown[]): string };
const prototype = (mysql as unknown as { Connection: { prototype: Connection } }).Connection.prototype;
const addCommand = prototype.addCommand;
const format = prototype.format;
/** The text a connection's last `format` gave and the text with `?` it was made of (a query's, just before it is queued). */
const lastFormatted = new WeakMap<object, { text: string; template: string }>();
prototype.format = function (this: object, sql: string, values?: unknown, ...rest: unknown[]) {
  const text = format.call(this, sql, values, ...rest);
  lastFormatted.set(this, { text, template: sql });
  return text;
};
prototype.addCommand = function (this: object, command: { sql?: string; query?: string }) {
  const text = command.sql ?? command.query ?? command.constructor.name;
  let names = namedStatements.get(this);
  if (!names) namedStatements.set(this, (names = new Map()));
  const formatted = lastFormatted.get(this);
  const written = formatted?.text === text ? formatted.template : text;
  let statements: string;
  try {
    statements = readable(written, names);
  } catch {
    // Never the service's failure: a test reading this text sees it as it went, and fails on it there.
    statements = written;
  }
  if (watching && command.constructor.name !== 'Prepare') watching(statements);
  return addCommand.call(this, command);
};

const LITERAL = String.raw`'(?:[^'\\]|\\.|'')*'`;
const NAMING = new RegExp(String.raw`PREPARE (tracker_held_\d+) FROM (${LITERAL});\n|EXECUTE (tracker_held_\d+) USING `, 'g');
const VALUE = new RegExp(String.raw`${LITERAL}|X'[0-9a-fA-F]*'|@\w+|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|NULL|true|false`, 'y');

function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)|''/g, (_pair, escaped: string | undefined) => (escaped === undefined ? "'" : escaped === 'n' ? '\n' : escaped));
}

/**
 * `text` with its PREPAREs (noted in `names`, in order) left out and its EXECUTEs replaced by their statements, `?`
 * for each value they were executed with (a session variable by its name).
 */
function readable(text: string, names: Map<string, string>): string {
  let out = '';
  let at = 0;
  NAMING.lastIndex = 0;
  for (let found = NAMING.exec(text); found; found = NAMING.exec(text)) {
    out += text.slice(at, found.index);
    at = NAMING.lastIndex;
    if (found[1]) {
      names.set(found[1], unquote(found[2]));
      continue;
    }
    const executedWith: string[] = [];
    VALUE.lastIndex = at;
    for (;;) {
      const value = VALUE.exec(text);
      if (!value) throw new Error(`unreadable values of ${found[3]}: ${text.slice(found.index, found.index + 200)}`);
      executedWith.push(value[0].startsWith('@') ? value[0] : '?');
      if (!text.startsWith(', ', VALUE.lastIndex)) break;
      VALUE.lastIndex += 2;
    }
    let next = 0;
    out += names.get(found[3])!.replace(/\?/g, () => executedWith[next++]);
    at = NAMING.lastIndex = VALUE.lastIndex;
  }
  return out + text.slice(at);
}
