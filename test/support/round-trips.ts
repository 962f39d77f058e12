import mysql from 'mysql2';

/**
 * The commands the service sent to MySQL while `work` ran, each a round trip, as their SQL text (a prepared
 * statement's execution by its text when mysql2 gives it, else the command's name). Left out: the mail worker's
 * (it claims and marks rows of mail_queue on its own schedule; a request only inserts them), and the one-time
 * preparing of a statement on a connection that had not run it yet (which of the pool's connections a request gets
 * is chance). Counted where mysql2 queues a command on a connection; in-process tests on MySQL only.
 */
export async function roundTrips(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  watching = (text) => {
    if (!/mail_queue/.test(text) || /INSERT INTO `mail_queue`/.test(text)) sent.push(text);
  };
  try {
    await work();
  } finally {
    watching = undefined;
  }
  return sent;
}

/**
 * The statements a transaction held go to MariaDB as `EXECUTE tracker_held_N USING <values>` of statements each
 * connection prepared by name (NamedStatements), perhaps before the counted work. Every command of the process is
 * read from this module's loading on, so that the texts `roundTrips` gives read as the statements themselves: the
 * PREPAREs left out, each EXECUTE replaced by its connection's statement of that name with its values.
 */
const namedStatements = new WeakMap<object, Map<string, string>>();
let watching: ((text: string) => void) | undefined;
const prototype = (mysql as unknown as { Connection: { prototype: { addCommand(command: unknown): unknown } } }).Connection.prototype;
const addCommand = prototype.addCommand;
prototype.addCommand = function (this: object, command: { sql?: string; query?: string }) {
  const text = command.sql ?? command.query ?? command.constructor.name;
  let names = namedStatements.get(this);
  if (!names) namedStatements.set(this, (names = new Map()));
  let statements: string;
  try {
    statements = readable(text, names);
  } catch {
    // Never the service's failure: a test reading this text sees it as it went, and fails on it there.
    statements = text;
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

/** `text` with its PREPAREs (noted in `names`, in order) left out and its EXECUTEs replaced by their statements. */
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
    const values: string[] = [];
    VALUE.lastIndex = at;
    for (;;) {
      const value = VALUE.exec(text);
      if (!value) throw new Error(`unreadable values of ${found[3]}: ${text.slice(found.index, found.index + 200)}`);
      values.push(value[0]);
      if (!text.startsWith(', ', VALUE.lastIndex)) break;
      VALUE.lastIndex += 2;
    }
    let next = 0;
    out += names.get(found[3])!.replace(/\?/g, () => values[next++]);
    at = NAMING.lastIndex = VALUE.lastIndex;
  }
  return out + text.slice(at);
}

/**
 * The statements among `sent` that read bugs' visibility or stamps on their own: the ones a route's companion read
 * (BugVisibilityCompanion, the stamps companions) saves by riding in the credential's statement.
 */
export function ownBugVisibilityReads(sent: readonly string[]): string[] {
  return sent.filter((text) => /c_visible|c_revision/.test(text) && !/api_keys/.test(text));
}
