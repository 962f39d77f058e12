import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dialectOf, type Dialect } from './dialect.js';
import { Sql, type SqlValue } from './sql.js';

type MysqlPool = { execute(sql: string, params: SqlValue[], done: (err: Error | null, rows: unknown[]) => void): void };

/**
 * Reads outside transactions: a replica when configured, else (MySQL) straight to the driver's pool as prepared
 * statements — the server keeps each statement parsed, which makes the hot reads about a quarter cheaper
 * (bench/RESULTS.md). The per-connection statement cache is bounded in data-source-options.ts.
 */
function readPath(dataSource: DataSource): ConstructorParameters<typeof Sql>[2] {
  if ((dataSource.options as { replication?: unknown }).replication) return 'replica';
  const pool = (dataSource.driver as { pool?: MysqlPool }).pool;
  if (dialectOf(dataSource) !== 'mysql' || !pool) return 'manager';
  return (sql, params) => new Promise((resolve, reject) => pool.execute(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))));
}

/**
 * The database as the services see it: `db.read` for queries outside a write, `db.transaction(fn)` for every
 * write (one transaction per request, so a failure leaves nothing behind).
 */
@Injectable()
export class Db {
  readonly dialect: Dialect;
  readonly read: Sql;
  // SQLite has one connection (better-sqlite3): its transactions must not interleave, so they queue here.
  // This is the only process-local state of the service, and SQLite is single-process by nature.
  private sqliteQueue: Promise<unknown> = Promise.resolve();

  constructor(readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
    this.read = new Sql(dataSource.manager, this.dialect, readPath(dataSource));
  }

  /** The database server's clock, UTC, as it stores datetimes (`YYYY-MM-DD hh:mm:ss`). */
  async currentTime(): Promise<string> {
    const row = await this.read.one<{ now: string }>(this.dialect === 'mysql' ? 'SELECT UTC_TIMESTAMP() AS now' : "SELECT datetime('now') AS now");
    return row!.now;
  }

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    const run = () => this.dataSource.transaction((manager) => work(new Sql(manager, this.dialect)));
    if (this.dialect === 'mysql') return run();
    const result = this.sqliteQueue.then(run, run);
    this.sqliteQueue = result.catch(() => undefined);
    return result;
  }
}
