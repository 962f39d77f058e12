/** The statements MySQL can take as prepared ones (the rest — START TRANSACTION, COMMIT, SAVEPOINT … — go as text). */
export const PREPARABLE = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|REPLACE)\b/i;

/** A connection's escaping of values into SQL text, as the driver does it (a HeldRowId by its toSqlString). */
export interface SqlText {
  format(sql: string, params: readonly unknown[]): string;
  escape(value: unknown): string;
}

/** How many statements a connection keeps prepared by name (NamedStatements). */
export const NAMES_PER_CONNECTION = 64;

/**
 * The held statements a MariaDB connection keeps prepared under a name (`PREPARE tracker_held_N FROM …`), so that a
 * held statement goes as `EXECUTE tracker_held_N USING <values>`: parsing an INSERT's text anew cost the database
 * more than the round trips holding saves (issue 13: a Create Bug's transaction took 700 K instructions of the
 * database as text, 600 K so). A connection has at most NAMES_PER_CONNECTION names: once all are taken, the least
 * recently used one is prepared anew for the next statement (a PREPARE replaces the statement of its name), so no
 * DEALLOCATE is ever needed, nor can one fail. MySQL's EXECUTE takes user variables only: there held statements go
 * as text (db.service.ts).
 */
export class NamedStatements {
  /** Statement text → name, least recently used first. */
  private readonly names = new Map<string, string>();
  /** Names whose statement is unknown (its PREPARE may not have run): taken before new ones. */
  private readonly free: string[] = [];
  private taken = 0;

  constructor(private readonly capacity = NAMES_PER_CONNECTION) {}

  /** The statement's name, and its PREPARE when the connection does not hold it under that name yet. */
  nameOf(text: SqlText, sql: string): { name: string; prepare?: string } {
    const known = this.names.get(sql);
    if (known !== undefined) {
      this.names.delete(sql);
      this.names.set(sql, known);
      return { name: known };
    }
    const name = this.unusedName();
    this.names.set(sql, name);
    return { name, prepare: `PREPARE ${name} FROM ${text.escape(sql)}` };
  }

  /** Forgets what `names` stand for: the query carrying their PREPAREs failed, and may have stopped before them. */
  forget(names: ReadonlySet<string>): void {
    for (const [sql, name] of this.names) {
      if (!names.has(name)) continue;
      this.names.delete(sql);
      this.free.push(name);
    }
  }

  private unusedName(): string {
    const free = this.free.pop();
    if (free !== undefined) return free;
    if (this.taken < this.capacity) return `tracker_held_${++this.taken}`;
    const [oldestSql, oldest] = this.names.entries().next().value!;
    this.names.delete(oldestSql);
    return oldest;
  }
}

const namedStatements = new WeakMap<object, NamedStatements>();

/**
 * `statements` as the statements of one query on `connection`: each with values as an EXECUTE of its named statement
 * (its PREPARE first when needed), the others (START, COMMIT, a session variable's SET) as text with their values. `positions` are
 * the indexes of their answers among the query's; `failed` is for a query that failed.
 */
export function executeBatch(connection: SqlText, statements: ReadonlyArray<{ sql: string; params: readonly unknown[] }>): { sql: string[]; positions: number[]; failed(): void } {
  let named = namedStatements.get(connection);
  if (!named) namedStatements.set(connection, (named = new NamedStatements()));
  const sql: string[] = [];
  const positions: number[] = [];
  const prepared = new Set<string>();
  for (const statement of statements) {
    if (!statement.params.length || !PREPARABLE.test(statement.sql)) {
      // The query goes without bound values: a statement that cannot be prepared carries its own.
      positions.push(sql.push(statement.params.length ? connection.format(statement.sql, statement.params) : statement.sql) - 1);
      continue;
    }
    const { name, prepare } = named.nameOf(connection, statement.sql);
    if (prepare !== undefined) {
      prepared.add(name);
      sql.push(prepare);
    }
    positions.push(sql.push(`EXECUTE ${name} USING ${connection.format(statement.params.map(() => '?').join(', '), statement.params)}`) - 1);
  }
  return { sql, positions, failed: () => named.forget(prepared) };
}
