import type { EntityManager, EntityTarget, ObjectLiteral, QueryRunner, Repository } from 'typeorm';
import { queryCounter } from './counting-logger.js';
import type { Dialect } from './dialect.js';
import { noteWrittenTable, tableWrittenBy, WriteOutsideTransaction, writtenTables } from './written-tables.js';
import type { WriteShape } from './held-writes.js';

export type SqlValue = string | number | boolean | null | Buffer;
/** A value a write binds: a held row id too (reads never name one: they may run on another connection). */
export type WriteValue = SqlValue | HeldRowId;

export { queryCounter };
export type Row = Record<string, unknown>;

/** The generated id of an INSERT from the driver's raw result (better-sqlite3: the row id; MySQL: `insertId`). */
export function insertIdOf(raw: unknown): number {
  if (typeof raw === 'number' || typeof raw === 'bigint') return Number(raw);
  return Number((raw as { insertId?: number } | null | undefined)?.insertId ?? 0);
}

/** What the drivers answer to a write: MySQL's result header, better-sqlite3's run info. */
type WriteResult = { insertId?: number; affectedRows?: number; changes?: number } | null | undefined;

/**
 * Statements a MySQL transaction holds back to send with its next one, in one round trip (db.service.ts installs the
 * hold on its runner and sends them): each round trip under a bug's row lock is time every other update of that bug
 * waits, and a socket write each way (issue 13). Held are the transaction's START, its row locks (`holdStatement`) and
 * the writes of `Sql.withHeldWrites`. SQLite's transactions have no hold, nor MySQL's with TRACKER_FAST_PATHS=off
 * (Db): there every statement runs at once.
 */
export interface StatementHold {
  readonly statements: HeldStatement[];
  /** How many `withHeldWrites` scopes are open: writes are held while any is. */
  writeScopes: number;
  /** How many session variables runInsertHeld has named in this transaction. */
  variables: number;
  /** Sends what is held and then `reads`, as one query: the reads' answers, in order (Sql.gathering). */
  readonly sendWithHeld: (reads: readonly Statement[]) => Promise<unknown[]>;
}

export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/**
 * A held statement; one held by runWriteLater is told its answer once the statement carrying it returned. A write
 * carries its shape when it can be combined with another (combineHeldWrites).
 */
export interface HeldStatement extends Statement {
  shape?: WriteShape;
  answer?: { resolve(answer: unknown): void; reject(error: unknown): void };
}

/** How a transaction ended (Sql.committed): settled by Db.transaction once its COMMIT or ROLLBACK returned. */
export class TransactionEnd {
  private settle!: (committed: boolean) => void;
  readonly committed = new Promise<boolean>((resolve) => (this.settle = resolve));

  ended(committed: boolean): void {
    this.settle(committed);
  }
}

/** A generated id asked for when needed: a write held on MySQL knows it once its carrying statement returned. */
export type PendingId = () => Promise<number>;

/**
 * The generated id of an INSERT held in a MySQL transaction (runInsertHeld), which the database knows before the
 * service does: the INSERT leaves it in a session variable, and bound as a value of a statement sent after it, this
 * is that variable. The rows that name a new row so go in the same round trip as it (issue 13: a new bug's description
 * and relations travel with its INSERT). `known` asks for the number, sending what is held first if it still is.
 */
export class HeldRowId {
  constructor(private readonly variable: string, readonly known: PendingId) {}

  /** How mysql2 binds it: the variable itself, raw (statements carrying one go as text, never prepared). */
  toSqlString(): string {
    return this.variable;
  }
}

/** A row's id: known, or held in the database's session variable until its INSERT's answer is back (HeldRowId). */
export type RowId = number | HeldRowId;

/** The number of `id`, asking the database for a held one. */
export function knownId(id: RowId): Promise<number> {
  return typeof id === 'number' ? Promise.resolve(id) : id.known();
}

/** `id` as a pending id: what a reader that may not need it at all (an event's listener) takes. */
export function pendingIdOf(id: RowId): number | PendingId {
  return typeof id === 'number' ? id : id.known;
}

/** Whether a bound value is SQL of its own (a HeldRowId): such a statement cannot be prepared. */
export function isSqlExpression(value: unknown): value is HeldRowId {
  return value instanceof HeldRowId;
}

const HOLD = 'statementHold';

export function installStatementHold(runner: QueryRunner, sendWithHeld: StatementHold['sendWithHeld']): StatementHold {
  const hold: StatementHold = { statements: [], writeScopes: 0, variables: 0, sendWithHeld };
  (runner.data as { [HOLD]?: StatementHold })[HOLD] = hold;
  return hold;
}

function holdOf(runner: QueryRunner | undefined): StatementHold | undefined {
  return runner?.isTransactionActive ? (runner.data as { [HOLD]?: StatementHold })[HOLD] : undefined;
}

/**
 * Sends a statement whose answer nobody reads (a row lock): inside a MySQL transaction it goes with the transaction's
 * next statement, whose answer then also stands for its failure, and answers the statement as held (Sql.undoableStep
 * looks for its savepoint there); elsewhere it runs at once and answers undefined.
 */
export async function holdStatement(manager: EntityManager, sql: string, params: WriteValue[], shape?: WriteShape): Promise<HeldStatement | undefined> {
  const hold = holdOf(manager.queryRunner);
  if (!hold) {
    await manager.query(sql, params);
    return undefined;
  }
  manager.connection.logger.logQuery(sql, params, manager.queryRunner);
  const held: HeldStatement = { sql, params, shape };
  hold.statements.push(held);
  return held;
}

/**
 * Runs a write on a transaction's manager: the generated id of an INSERT and the number of affected rows. The write is
 * noted on its query runner, as TypeORM's entity events note theirs (written-tables.ts); outside a transaction it is
 * refused (WriteOutsideTransaction). A write held by `Sql.withHeldWrites` answers id 0 and no rows: it has not run yet.
 */
export async function runWrite(manager: EntityManager, sql: string, params: WriteValue[], shape?: WriteShape): Promise<{ insertId: number; affected: number }> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) throw new WriteOutsideTransaction(tableWrittenBy(sql));
  noteWrittenTable(runner, tableWrittenBy(sql));
  const hold = holdOf(runner);
  if (hold?.writeScopes) {
    await holdStatement(manager, sql, params, shape);
    return { insertId: 0, affected: 0 };
  }
  const result = await runner.query(sql, params, true);
  const raw = result.raw as WriteResult;
  return { insertId: insertIdOf(raw), affected: result.affected ?? Number(raw?.affectedRows ?? raw?.changes ?? 0) };
}

/**
 * Runs a write whose generated id only some later step may need (the id of a comment an event names). Inside a MySQL
 * transaction it is held whatever the scope — it goes with the transaction's next statement, the COMMIT at the
 * latest — and asking for the id before then sends what is held at once; elsewhere it runs now.
 */
export async function runWriteLater(manager: EntityManager, sql: string, params: WriteValue[]): Promise<PendingId> {
  const runner = manager.queryRunner;
  const hold = holdOf(runner);
  if (!runner || !hold) {
    const { insertId } = await runWrite(manager, sql, params);
    return () => Promise.resolve(insertId);
  }
  noteWrittenTable(runner, tableWrittenBy(sql));
  manager.connection.logger.logQuery(sql, params, runner);
  const held: HeldStatement = { sql, params };
  const answered = holdAnswered(hold, held);
  return async () => {
    if (hold.statements.includes(held)) await hold.sendWithHeld([]);
    return insertIdOf(await answered);
  };
}

/**
 * Runs an INSERT of one row whose generated id the transaction's next statements name before the service knows it:
 * inside a MySQL transaction the INSERT is held, with a statement keeping its id in a session variable of the
 * connection, and the answer is a HeldRowId bound as that variable; elsewhere it runs now and answers the number.
 * MySQL's LAST_INSERT_ID() would not do in the later statements themselves: each INSERT of a row with a generated id
 * (a comment, a history row) replaces it.
 */
export async function runInsertHeld(manager: EntityManager, sql: string, params: WriteValue[]): Promise<RowId> {
  const hold = holdOf(manager.queryRunner);
  if (!hold) return (await runWrite(manager, sql, params)).insertId;
  const answer = await runWriteLater(manager, sql, params);
  const variable = `@tracker_new_row_${++hold.variables}`;
  await holdStatement(manager, `SET ${variable} = LAST_INSERT_ID()`, []);
  return new HeldRowId(variable, answer);
}

/** Savepoints are named by a process-wide count: a name is never reused while a transaction may hold it. */
let savepoints = 0;

/** Holds `held` and answers what it answers once the statement carrying it returned. */
function holdAnswered(hold: StatementHold, held: HeldStatement): Promise<unknown> {
  const answered = new Promise<unknown>((resolve, reject) => {
    held.answer = { resolve, reject };
  });
  // Nobody may ask: its failure is the carrying statement's failure all the same.
  answered.catch(() => undefined);
  hold.statements.push(held);
  return answered;
}

/**
 * What a read handle lets a repository do with an entity's table: read it. A read method takes a `ReadSql` and so
 * cannot write, whichever handle it is given; the writes (`insert`, `update`, `delete`, `save`, `increment` …) are
 * the transaction's (`Sql.repository`). A query builder's writes are refused at run time outside a transaction
 * (ChangeMarkSubscriber).
 */
export type ReadRepository<T extends ObjectLiteral> = Pick<
  Repository<T>,
  | 'metadata' | 'target' | 'create' | 'find' | 'findBy' | 'findOne' | 'findOneBy' | 'findOneOrFail' | 'findOneByOrFail'
  | 'findAndCount' | 'findAndCountBy' | 'count' | 'countBy' | 'exists' | 'existsBy' | 'sum' | 'maximum' | 'minimum' | 'createQueryBuilder'
>;

/**
 * A handle that reads: `Db.read` is one, and a transaction's `Sql` is one too (a read inside a write sees the write).
 * It has no way to write (no `run`, no held or combined writes, no steps, entity repositories that only read): a
 * write outside a transaction would never move the settings mark (ChangeMarkSubscriber notes a transaction's
 * tables), and every instance would then serve stale settings.
 */
export interface ReadSql {
  readonly dialect: Dialect;
  readonly quote: (identifier: string) => string;
  repository<T extends ObjectLiteral>(entity: EntityTarget<T>): ReadRepository<T>;
  all<T extends object = Row>(sql: string, params?: SqlValue[]): Promise<T[]>;
  one<T extends object = Row>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  in(values: readonly unknown[]): string;
}

/**
 * Plain SQL over one EntityManager (the transaction's, or the data source's for reads). Both dialects take `?`
 * placeholders. Values are bound, never interpolated; lists go through `in()`.
 */
export class Sql implements ReadSql {
  /**
   * `reads` decides where reads outside a transaction go: `manager` (the default) or a direct function (the MySQL
   * pool itself, skipping TypeORM's per-query runner on the hot path; with replicas, where the request's reads go:
   * Db). A transaction's handle has its `end` (Db.transaction).
   */
  constructor(
    readonly manager: EntityManager,
    readonly dialect: Dialect,
    private readonly reads: 'manager' | ((sql: string, params: SqlValue[]) => Promise<unknown[]>) = 'manager',
    private readonly end?: TransactionEnd,
  ) {}

  /**
   * Settles once this handle's transaction ended: true when it committed, false when it rolled back. For what must
   * follow only a commit: waking an outbox's worker (CommitSignals), forgetting what a write made stale in this
   * instance's memory.
   */
  committed(): Promise<boolean> {
    return this.end?.committed ?? Promise.resolve(true);
  }

  /** The entity's TypeORM repository on this handle's manager (the transaction's inside a write). */
  repository<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.manager.getRepository(entity);
  }

  async all<T extends object = Row>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    // Statements through TypeORM are counted by its logger (CountingLogger); the direct pool path counts here.
    if (typeof this.reads === 'function') {
      queryCounter.count++;
      return (await this.reads(sql, params)) as T[];
    }
    return this.manager.query<T[]>(sql, params);
  }

  async one<T extends object = Row>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, params);
    return rows[0];
  }

  /**
   * Runs `work` with its writes (Sql.run and entity-rows.ts) held back, on MySQL, until the transaction's next read or
   * its COMMIT, which carries them in the same round trip. Such a write answers no id and no count, so `work` must need
   * neither; a failing one fails the statement that carries it, and with it the transaction. On SQLite, and outside a
   * transaction, `work` just runs.
   */
  async withHeldWrites<T>(work: () => Promise<T>): Promise<T> {
    const hold = holdOf(this.manager.queryRunner);
    if (!hold) return work();
    hold.writeScopes++;
    try {
      return await work();
    } finally {
      hold.writeScopes--;
    }
  }

  /**
   * Runs `work` as a step the transaction can undo alone: if it throws, what it wrote is undone and the error goes on.
   * For a transaction that carries several requests (UpdateBatches): one request's refusal must not undo the others'
   * work. The step begins with a savepoint, held on MySQL as the transaction's other statements are; while it is still
   * held, so is everything the step wrote, and nothing of it needs the database: a step that ends well drops the
   * savepoint, and one that fails drops it with its writes. Only a step whose statements left (a read sent them) sends
   * ROLLBACK TO SAVEPOINT. Savepoint-free, the steps' held writes can be combined (combineHeldWrites).
   */
  async undoableStep<T>(work: () => Promise<T>): Promise<T> {
    const savepoint = `SAVEPOINT tracker_step_${++savepoints}`;
    const held = await holdStatement(this.manager, savepoint, []);
    const statements = holdOf(this.manager.queryRunner)?.statements ?? [];
    try {
      const result = await work();
      const at = held ? statements.indexOf(held) : -1;
      if (at >= 0) statements.splice(at, 1);
      return result;
    } catch (err) {
      const at = held ? statements.indexOf(held) : -1;
      if (at >= 0) for (const dropped of statements.splice(at)) dropped.answer?.reject(err);
      else await holdStatement(this.manager, `ROLLBACK TO ${savepoint}`, []);
      throw err;
    }
  }

  /**
   * Runs `work` on a handle whose reads (`all`, `one`) are gathered: inside a MySQL transaction, the reads `work`
   * issues before it awaits any answer go to the database together, after what the transaction holds, as one query —
   * one round trip instead of one each (issue 13: an update's reads under its bugs' row locks). The gathered reads
   * leave on the next turn of the event loop. On SQLite, and outside a transaction, `work` runs on this handle.
   */
  gathering<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const hold = holdOf(this.manager.queryRunner);
    return work(hold ? new GatheringSql(this.manager, this.dialect, hold, this.end) : this);
  }

  /**
   * Runs `work` on a handle whose reads wait for the transaction's next statement (its COMMIT at the latest): inside a
   * MySQL transaction they are held, in order after the writes held before them, and answered once that statement
   * returned — a read of what the transaction wrote costs no round trip of its own. Awaiting such a read before the
   * next statement leaves would wait forever: `work` must not. On SQLite, and outside a transaction, they run now.
   */
  readingWithNext<T>(work: (sql: Sql) => T): T {
    const hold = holdOf(this.manager.queryRunner);
    return work(hold ? new HeldReadSql(this.manager, this.dialect, hold, this.end) : this);
  }

  /** The tables this transaction has written so far (none outside a transaction). */
  writtenTables(): ReadonlySet<string> {
    const runner = this.manager.queryRunner;
    return runner?.isTransactionActive ? writtenTables(runner) : new Set();
  }

  /** Runs a write; returns the generated id of an INSERT and the number of affected rows (runWrite). */
  run(sql: string, params: WriteValue[] = []): Promise<{ insertId: number; affected: number }> {
    return runWrite(this.manager, sql, params);
  }

  /** `(?, ?, ?)` for a list; an empty list gives `(NULL)` so `x IN (NULL)` matches nothing. */
  in(values: readonly unknown[]): string {
    return values.length ? `(${values.map(() => '?').join(', ')})` : '(NULL)';
  }

  /**
   * Quotes a table or column name, or an `alias.column`, in the handle's dialect (MySQL 8 reserves `groups`, `rank`,
   * `system` …): `quote('b.id')` is `` `b`.`id` `` on MySQL, `"b"."id"` on SQLite. Bound, so it can be passed around.
   */
  readonly quote = (identifier: string): string => {
    const known = QUOTED[this.dialect];
    let quoted = known.get(identifier);
    if (quoted === undefined) {
      quoted = identifier.split('.').map((part) => (this.dialect === 'mysql' ? `\`${part}\`` : `"${part}"`)).join('.');
      if (known.size < MAX_QUOTED) known.set(identifier, quoted);
    }
    return quoted;
  };
}

/** Sql.gathering's handle: `all` queues its statement; the queue leaves in one query on the next turn. */
class GatheringSql extends Sql {
  private queue: Array<Statement & { resolve: (rows: unknown[]) => void; reject: (error: unknown) => void }> = [];

  constructor(manager: EntityManager, dialect: Dialect, private readonly hold: StatementHold, end: TransactionEnd | undefined) {
    super(manager, dialect, 'manager', end);
  }

  override all<T extends object = Row>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      if (!this.queue.length) setImmediate(() => this.send());
      this.queue.push({ sql, params, resolve, reject });
    }) as Promise<T[]>;
  }

  private send(): void {
    const reads = this.queue.splice(0);
    this.hold.sendWithHeld(reads).then(
      (answers) => reads.forEach((read, i) => read.resolve(answers[i] as unknown[])),
      (error: unknown) => reads.forEach((read) => read.reject(error)),
    );
  }
}

/** Sql.readingWithNext's handle: `all` holds its statement, answered when the statement carrying it returns. */
class HeldReadSql extends Sql {
  constructor(manager: EntityManager, dialect: Dialect, private readonly hold: StatementHold, end: TransactionEnd | undefined) {
    super(manager, dialect, 'manager', end);
  }

  override all<T extends object = Row>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    this.manager.connection.logger.logQuery(sql, params, this.manager.queryRunner);
    return holdAnswered(this.hold, { sql, params }) as Promise<T[]>;
  }
}

/**
 * Quoted names by dialect: the hot statements are written anew per request, and quoting their names cost a Get Bug
 * about 2% of its time (issue 13). The names are the code's own, a few hundred; the bound only guards the memory.
 */
const QUOTED: Record<Dialect, Map<string, string>> = { mysql: new Map(), sqlite: new Map() };
const MAX_QUOTED = 4096;
