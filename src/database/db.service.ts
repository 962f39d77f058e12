import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource, QueryFailedError, QueryResult, type EntityManager, type QueryRunner } from 'typeorm';
import { dialectOf, type Dialect } from './dialect.js';
import { installStatementHold, isSqlExpression, Sql, TransactionEnd, type HeldStatement, type ReadSql, type SqlValue, type Statement } from './sql.js';
import { guardConnectionErrors, replicaPools, ReplicaSet, run, type MysqlPool, type ReplicaState } from './replicas.js';
import { readPrimaryFromNowOn, routedReads, type Send } from './read-scope.js';
import { Errors, isDatabaseUnavailable, TrackerError } from '../common/errors/index.js';
import { lostLockConflict, retryDelayMs, TRANSACTION_ATTEMPTS } from './lock-conflict.js';
import { executeBatch, PREPARABLE, type SqlText } from './named-statements.js';
import { combineHeldWrites } from './held-writes.js';
import { observeAtScrape } from '../common/metrics/metrics.js';
import { AppConfig } from '../config/app-config.js';

const logger = new Logger('Database');

type MysqlConnection = MysqlPool & SqlText;

function executeOnce(pool: MysqlPool, sql: string, params: unknown[]): Promise<unknown> {
  return run(pool, sql, params, true);
}

/**
 * A read on the pool. A read that met a dead connection (killed, reset, server restarted) is tried once more: the
 * pool has dropped that connection and hands out a fresh one. Reads only: a write's outcome is unknown then.
 */
async function execute(pool: MysqlPool, sql: string, params: unknown[]): Promise<unknown> {
  try {
    return await executeOnce(pool, sql, params);
  } catch (err) {
    if (!isDatabaseUnavailable(err) || !/^\s*(SELECT|WITH)\b/i.test(sql)) throw err;
    return executeOnce(pool, sql, params);
  }
}

function mysqlPool(dataSource: DataSource): MysqlPool | undefined {
  if (dialectOf(dataSource) !== 'mysql') return undefined;
  return (dataSource.driver as { pool?: MysqlPool }).pool;
}

/**
 * The manager of reads outside transactions, its statements sent by `send` when given. On MySQL the statements
 * TypeORM builds for entity reads (repositories, the query builder) then go to the pool as prepared statements too,
 * as the hand-written ones do: TypeORM's own query runner sends them as text, which MySQL parses and plans anew every
 * time (Create Bug's dozen catalogue reads halved its throughput that way). The runner holds no connection: each
 * statement takes one from the pool, so concurrent requests share it. `text`, when given, sends what cannot be
 * prepared (with replicas, both go where the request's reads go: routedReads).
 */
function readManager(dataSource: DataSource, send: Send | undefined, text?: Send): EntityManager {
  if (!send) return dataSource.manager;
  const runner: QueryRunner = dataSource.createQueryRunner();
  sendPrepared(dataSource, runner, send, text);
  return dataSource.createEntityManager(runner);
}

/**
 * Makes `runner` send its statements through `prepared` as prepared statements, with TypeORM's logging, error type
 * and result shape. Statements MySQL cannot prepare, and those with an undefined value (the binary protocol has
 * none), go through `text` when given, else through the runner's own text path (whose promise wrapper captures a
 * stack trace per statement: a Create Bug's START and COMMIT cost 2% of it that way). So do statements binding a
 * HeldRowId: it is SQL (a session variable), which only the text protocol takes in place of a value.
 */
function sendPrepared(dataSource: DataSource, runner: QueryRunner, prepared: Send, text?: Send): void {
  const asText = (runner.query as (sql: string, parameters?: unknown[], structured?: boolean) => Promise<unknown>).bind(runner);
  runner.query = (async (sql: string, parameters: unknown[] = [], structured?: boolean) => {
    const preparable = PREPARABLE.test(sql) && !parameters.some((value) => value === undefined || isSqlExpression(value));
    if (!preparable && !text) return asText(sql, parameters, structured);
    dataSource.logger.logQuery(sql, parameters, runner);
    let raw: unknown;
    try {
      raw = await (preparable ? prepared : text!)(sql, parameters);
    } catch (err) {
      throw new QueryFailedError(sql, parameters, err as Error);
    }
    return shaped(raw, structured);
  }) as QueryRunner['query'];
}

/** A driver's answer as TypeORM's runners give it: the raw answer, or (structured) a QueryResult. */
function shaped(raw: unknown, structured: boolean | undefined): unknown {
  if (!structured) return raw;
  const result = new QueryResult();
  result.raw = raw;
  result.records = Array.isArray(raw) ? raw : [];
  const affected = (raw as { affectedRows?: number } | null)?.affectedRows;
  if (affected !== undefined) result.affected = affected;
  return result;
}

/**
 * A transaction's runner on MySQL whose statements go to its connection as prepared statements (the connection keeps
 * each one parsed, maxPreparedStatements bounding them): a write's INSERTs and UPDATEs are not parsed anew each time.
 * So do the statements it holds back, where `executesHeld` (MariaDB): as EXECUTEs of named ones (NamedStatements).
 */
function preparedTransactionRunner(dataSource: DataSource, executesHeld: boolean, conditions: readonly CommitCondition[]): QueryRunner {
  const runner = dataSource.createQueryRunner();
  const connection = async () => (await runner.connect()) as MysqlConnection;
  const query = (open: MysqlConnection, sql: string, parameters: readonly unknown[]) =>
    new Promise<unknown>((resolve, reject) => open.query(sql, [...parameters], (err, rows) => (err ? reject(err) : resolve(rows))));
  const text: Send = async (sql, parameters) => query(await connection(), sql, parameters);
  sendPrepared(dataSource, runner, async (sql, parameters) => executeOnce(await connection(), sql, parameters), text);
  sendHeldStatements(runner, conditions, async (statements) => {
    const open = await connection();
    if (!executesHeld) return answersOf(statements.length, await query(open, statements.map((s) => s.sql).join(';\n'), statements.flatMap((s) => [...s.params])));
    const batch = executeBatch(open, statements);
    try {
      const answers = answersOf(batch.sql.length, await query(open, batch.sql.join(';\n'), []));
      return batch.positions.map((position) => answers[position]);
    } catch (err) {
      batch.failed();
      throw err;
    }
  });
  return runner;
}

/** mysql2 answers one statement with its answer, several with the list of their answers. */
function answersOf(count: number, answer: unknown): unknown[] {
  return count === 1 ? [answer] : (answer as unknown[]);
}

const START = /^\s*START TRANSACTION\s*$/i;
const ROLLBACK = /^\s*ROLLBACK\b/i;

/**
 * The statement hold of a transaction's runner (sql.ts, StatementHold): START TRANSACTION is held too, and whatever
 * the transaction sends next carries the held statements before it as one multi-statement text query (the pool's
 * connections allow them: data-source-options.ts), whose last answer is its own; reads gathered by Sql.gathering go
 * the same way, several at once. MySQL runs them in order and stops at the first error, which is then this
 * statement's, and a held write waiting for its answer (runWriteLater) is told it too. A ROLLBACK drops what is held:
 * it would undo it anyway, and a held write that failed would keep the ROLLBACK in the same query from running.
 * The transaction's commit conditions go at the end of its first query, after what it held until then (its row
 * locks): a condition is a plain read, and MySQL takes the transaction's snapshot at its first plain read, which must
 * come after the locks are granted, or the reads under them would not see what the writes they waited for committed.
 */
function sendHeldStatements(runner: QueryRunner, conditions: readonly CommitCondition[], sendAll: (statements: readonly Statement[]) => Promise<unknown[]>): void {
  const logQuery = (statement: Statement): void => {
    runner.connection.logger.logQuery(statement.sql, [...statement.params], runner);
  };
  const unsentConditions = conditions.map((condition) => condition.statement);
  const sendWithHeld = async (statements: readonly Statement[]): Promise<unknown[]> => {
    unsentConditions.forEach(logQuery);
    const carriesConditions = unsentConditions.length > 0;
    const carried: HeldStatement[] = [...combineHeldWrites(hold.statements.splice(0)), ...unsentConditions.splice(0)];
    const all = [...carried, ...statements];
    if (!all.length) return [];
    statements.forEach(logQuery);
    let answers: unknown[];
    try {
      answers = await sendAll(all);
    } catch (err) {
      if (carriesConditions && (err as { errno?: number }).errno === ER_DATA_OUT_OF_RANGE) for (const condition of conditions) condition.failed = true;
      for (const statement of carried) statement.answer?.reject(err);
      const named = statements[0] ?? all[all.length - 1];
      throw new QueryFailedError(named.sql, [...named.params], err as Error);
    }
    carried.forEach((statement, i) => statement.answer?.resolve(answers[i]));
    return answers.slice(carried.length);
  };
  const hold = installStatementHold(runner, sendWithHeld);
  const send = runner.query.bind(runner) as (sql: string, parameters?: unknown[], structured?: boolean) => Promise<unknown>;
  runner.query = (async (sql: string, parameters: unknown[] = [], structured?: boolean) => {
    if (START.test(sql)) {
      // Counted as every statement is (CountingLogger), though it travels with the next one.
      logQuery({ sql, params: parameters });
      hold.statements.push({ sql, params: [] });
      return structured ? new QueryResult() : undefined;
    }
    if (!hold.statements.length) return send(sql, parameters, structured);
    if (ROLLBACK.test(sql)) {
      for (const statement of hold.statements.splice(0)) statement.answer?.reject(new Error('the transaction was rolled back'));
      return send(sql, parameters, structured);
    }
    const [answer] = await sendWithHeld([{ sql, params: parameters }]);
    return shaped(answer, structured);
  }) as QueryRunner['query'];
}

/**
 * A statement that fails unless the transaction may commit, sent in its first round trip: a write that presumed its
 * caller (PresumedCaller) carries its credential's check so, in the same round trip as its row locks or its first
 * writes, often its only one (issue 13). MySQL only: it goes at the end of the transaction's first query (after its
 * locks: sendHeldStatements) — with the COMMIT at the latest, where MySQL stops at its failure before the COMMIT
 * runs. `met` tells the caller's side that a transaction carrying it committed.
 */
export interface CommitCondition {
  readonly statement: Statement;
  met: boolean;
  /**
   * Set when the query carrying it failed as a failing condition does (ER_DATA_OUT_OF_RANGE): the caller was presumed
   * under what the credential no longer says, whatever a read elsewhere answers — the error itself is no answer.
   */
  failed?: boolean;
}

/** 1690: what a failing commit condition raises (`SELECT ~0 + (NOT EXISTS …)`, credential-check.repository.ts). */
const ER_DATA_OUT_OF_RANGE = 1690;

/** The primary pool's connections for /metrics (MySQL; mysql2 keeps them in its pool's lists). */
function observePool(dataSource: DataSource): void {
  const pool = mysqlPool(dataSource) as { _allConnections?: { length: number }; _freeConnections?: { length: number }; _connectionQueue?: { length: number } } | undefined;
  if (!pool) return;
  observeAtScrape('tracker_db_pool_connections', 'Connections of the database pool: in use, idle, and requests waiting for one.', ['state'], async () => {
    const all = pool._allConnections?.length ?? 0;
    const idle = pool._freeConnections?.length ?? 0;
    return [[{ state: 'in_use' }, all - idle], [{ state: 'idle' }, idle], [{ state: 'waiting' }, pool._connectionQueue?.length ?? 0]];
  });
}

/** Each read replica's rotation and lag for /metrics, as its last probe saw them (docs/replicas.md). */
function observeReplicas(replicas: ReplicaSet): void {
  observeAtScrape('tracker_replica_in_rotation', 'Read replicas: 1 while one serves reads, 0 while it is out of rotation.', ['replica'], async () =>
    replicas.states().map((state) => [{ replica: state.replica }, state.in_rotation ? 1 : 0]));
  observeAtScrape('tracker_replica_lag_seconds', 'Read replicas: how far behind the primary each was at its last probe (none while it does not answer).', ['replica'], async () =>
    replicas.states().flatMap((state) => (state.lag_s === null ? [] : [[{ replica: state.replica }, state.lag_s] as [{ replica: string }, number]])));
}

/**
 * The database as the services see it: `db.read` for queries outside a write, `db.transaction(fn)` for every
 * write (one transaction per request, so a failure leaves nothing behind).
 */
@Injectable()
export class Db implements OnApplicationBootstrap, OnModuleDestroy {
  readonly dialect: Dialect;
  /** Reads outside a write: a read-only handle (ReadSql), since a write outside a transaction moves no settings mark. */
  readonly read: ReadSql;
  // SQLite has one connection (better-sqlite3): its transactions must not interleave, so they queue here. The only
  // process-local state that orders work, and SQLite is single-process by nature (the server kind below is a fact).
  private sqliteQueue: Promise<unknown> = Promise.resolve();
  /** What the MySQL server is, asked once (MariaDB's EXECUTE takes values: NamedStatements). */
  private server?: Promise<{ isMariaDb: boolean }>;
  /** The read replicas (DATABASE_REPLICA_URLS, MySQL/MariaDB) and their probe. */
  private readonly replicas?: ReplicaSet;

  /**
   * Whether the MySQL fast paths engage (AppConfig.fastPaths): reads on the pool and a transaction's statements as
   * prepared statements, its held statements (named on MariaDB, combined, carrying session variables for new ids),
   * its commit conditions. Off, reads go through TypeORM's manager and a transaction is TypeORM's own, with no hold:
   * every statement runs when it is issued.
   */
  private readonly fastPaths: boolean;

  constructor(readonly dataSource: DataSource, config: AppConfig) {
    this.dialect = dialectOf(dataSource);
    this.fastPaths = config.fastPaths;
    const pool = mysqlPool(dataSource);
    if (pool) guardConnectionErrors(pool, 'the primary');
    // Reads straight to the driver's pool as prepared statements: the server keeps each one parsed, which makes the
    // hot reads about a quarter cheaper (docs/performance.md); each connection's cache is bounded (data-source-options.ts).
    const prepared: Send | undefined = pool && this.fastPaths ? (sql, params) => execute(pool, sql, params) : undefined;
    if (pool && config.databaseReplicaUrls.length) {
      const isMariaDb = (dataSource.driver.options as { type: string }).type === 'mariadb';
      this.replicas = new ReplicaSet(pool, config.replicas, replicaPools(dataSource, config.databaseReplicaUrls), isMariaDb);
      // TRACKER_FAST_PATHS=off: every read as text, as TypeORM sends it, on whichever server it goes to.
      const routed = routedReads(pool, prepared ?? ((sql, params) => run(pool, sql, params, false)), this.replicas, this.fastPaths);
      this.read = new Sql(readManager(dataSource, routed, this.fastPaths ? undefined : routed), this.dialect, routed as (sql: string, params: SqlValue[]) => Promise<unknown[]>);
    } else {
      this.read = new Sql(readManager(dataSource, prepared), this.dialect, (prepared as ((sql: string, params: SqlValue[]) => Promise<unknown[]>) | undefined) ?? 'manager');
    }
    observePool(dataSource);
    if (this.replicas) observeReplicas(this.replicas);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.replicas?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.replicas?.close();
  }

  /** Each read replica's state (/health/ready); undefined when none is configured. */
  replicaStates(): ReplicaState[] | undefined {
    return this.replicas?.states();
  }

  /** The database server's clock, UTC, as it stores datetimes (`YYYY-MM-DD hh:mm:ss`). */
  async currentTime(): Promise<string> {
    const row = await this.read.one<{ now: string }>(this.dialect === 'mysql' ? 'SELECT UTC_TIMESTAMP() AS now' : "SELECT datetime('now') AS now");
    return row!.now;
  }

  /**
   * Runs `work` in one transaction; `tx.committed()` tells, once it ended, whether it committed. With `conditions`,
   * their statements go in its first round trip, after its row locks, and each one's `met` is set once the transaction
   * committed (CommitCondition): one for each presumed caller whose request the transaction carries. A transaction
   * that lost a lock conflict (lostLockConflict: a deadlock victim, a lock wait timeout, SQLite busy) committed
   * nothing and runs again, `work` from the start, up to TRANSACTION_ATTEMPTS times a little apart; after the last
   * the request answers DATABASE_UNAVAILABLE (503). `work` must therefore change nothing outside the transaction but
   * through `tx.committed()`.
   */
  async transaction<T>(work: (tx: Sql) => Promise<T>, conditions: readonly CommitCondition[] = []): Promise<T> {
    readPrimaryFromNowOn();
    // SQLite would compute such a statement without failing: a condition there would hold whatever it says.
    if (conditions.length && (this.dialect !== 'mysql' || !this.fastPaths)) throw new Error('a commit condition is a MySQL fast path (CommitCondition)');
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.attempt(work, conditions);
        for (const condition of conditions) condition.met = true;
        return answer;
      } catch (error) {
        if (!lostLockConflict(error)) throw error;
        if (attempt >= TRANSACTION_ATTEMPTS) {
          logger.warn(`A transaction lost a lock conflict ${attempt} times, the last: ${(error as Error).message}`);
          throw TrackerError.of(Errors.DATABASE_UNAVAILABLE);
        }
        await sleep(retryDelayMs(attempt));
      }
    }
  }

  /**
   * One run of `work` in a transaction of its own, with its own end: what waits for a run's commit (CommitSignals,
   * kept bugs, the settings mark's note) sees a run that lost a lock conflict roll back, and only the one that
   * committed commit, so a transaction run again does nothing twice.
   */
  private attempt<T>(work: (tx: Sql) => Promise<T>, conditions: readonly CommitCondition[]): Promise<T> {
    const end = new TransactionEnd();
    const result = this.dialect !== 'mysql' ? this.queuedTransaction(work, end) : this.fastPaths ? this.preparedTransaction(work, end, conditions) : this.plainTransaction(work, end);
    result.then(() => end.ended(true), () => end.ended(false));
    return result;
  }

  /** SQLite's transactions, one after the other on its one connection. */
  private queuedTransaction<T>(work: (tx: Sql) => Promise<T>, end: TransactionEnd): Promise<T> {
    const run = () => this.dataSource.transaction((manager) => work(new Sql(manager, this.dialect, 'manager', end)));
    const result = this.sqliteQueue.then(run, run);
    this.sqliteQueue = result.catch(() => undefined);
    return result;
  }

  /** TypeORM's own transaction, its statements sent as text when issued (TRACKER_FAST_PATHS=off). */
  private plainTransaction<T>(work: (tx: Sql) => Promise<T>, end: TransactionEnd): Promise<T> {
    return this.dataSource.transaction((manager) => work(new Sql(manager, this.dialect, 'manager', end)));
  }

  /** TypeORM's transaction (its commit and rollback events included) on a runner that prepares its statements. */
  private async preparedTransaction<T>(work: (tx: Sql) => Promise<T>, end: TransactionEnd, conditions: readonly CommitCondition[]): Promise<T> {
    this.server ??= this.read.one<{ version: string }>('SELECT VERSION() AS version').then(
      (row) => ({ isMariaDb: /mariadb/i.test(row!.version) }),
      (error: unknown) => {
        this.server = undefined;
        throw error;
      },
    );
    const runner = preparedTransactionRunner(this.dataSource, (await this.server).isMariaDb, conditions);
    try {
      return await runner.manager.transaction((manager) => work(new Sql(manager, this.dialect, 'manager', end)));
    } finally {
      await runner.release();
    }
  }
}
