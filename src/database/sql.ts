import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { queryCounter } from './counting-logger.js';
import type { Dialect } from './dialect.js';
import { noteWrittenTable, tableWrittenBy } from './written-tables.js';

export type SqlValue = string | number | boolean | null | Buffer;

export { queryCounter };
export type Row = Record<string, unknown>;

/** The generated id of an INSERT from the driver's raw result (better-sqlite3: the row id; MySQL: `insertId`). */
export function insertIdOf(raw: unknown): number {
  if (typeof raw === 'number' || typeof raw === 'bigint') return Number(raw);
  return Number((raw as { insertId?: number } | null | undefined)?.insertId ?? 0);
}

/** What the drivers answer to a write: MySQL's result header, better-sqlite3's run info. */
type WriteResult = { insertId?: number; affectedRows?: number; changes?: number } | null | undefined;

/** Rows per INSERT statement: keeps the bound parameters under SQLite's limit. */
const ROWS_PER_INSERT = 500;

/**
 * An INSERT of entity rows, one statement per 500 rows, written from the entity's metadata: the columns any row
 * gives a value, each value prepared by the driver as TypeORM prepares it (transformers, booleans), a cell a row
 * leaves out taking the column's default. No re-select of defaulted columns (MySQL and SQLite have no RETURNING) and
 * no query builder: building one per statement was a fifth of a Create Bug's time (issue 13). The statement text is
 * made once per entity, column list and row count. Returns the driver's generated id (MySQL: the first row's;
 * SQLite: the last row's; 0 for no rows).
 */
export async function insertRows<T extends ObjectLiteral>(repository: Repository<T>, rows: ReadonlyArray<Partial<T>>): Promise<number> {
  const { metadata, manager } = repository;
  const driver = manager.connection.driver;
  let id = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT) as ReadonlyArray<Record<string, unknown>>;
    const columns = metadata.columns.filter((column) => column.isInsert && chunk.some((row) => row[column.propertyName] !== undefined));
    const params: unknown[] = [];
    for (const row of chunk) {
      for (const column of columns) {
        const value = row[column.propertyName];
        params.push(value === undefined ? (column.default ?? null) : driver.preparePersistentValue(value, column));
      }
    }
    const statement = insertStatement(metadata, columns, chunk.length, (name) => driver.escape(name));
    id = insertIdOf((await runWrite(manager, statement, params as SqlValue[])).raw);
  }
  return id;
}

/**
 * The entity rows whose primary key is one of `ids` (in no particular order), read and hydrated from the entity's
 * metadata as a repository's `findBy({ id: In(ids) })` would — the selectable columns, values through the driver and
 * the column transformers — without building a query builder per call: that was most of TypeORM's share of a
 * Create Bug, for the users its mail names (issue 13).
 */
export async function findRowsByIds<T extends ObjectLiteral>(repository: Repository<T>, ids: readonly number[]): Promise<T[]> {
  if (!ids.length) return [];
  const { metadata, manager } = repository;
  const driver = manager.connection.driver;
  const columns = metadata.columns.filter((column) => column.isSelect);
  const statement = `SELECT ${columns.map((column) => driver.escape(column.databaseName)).join(', ')} FROM ${driver.escape(metadata.tableName)} ` +
    `WHERE ${driver.escape(metadata.primaryColumns[0].databaseName)} IN (${ids.map(() => '?').join(', ')})`;
  const rows = await manager.query<Array<Record<string, unknown>>>(statement, [...ids]);
  return rows.map((row) => {
    const entity = metadata.create() as Record<string, unknown>;
    for (const column of columns) entity[column.propertyName] = driver.prepareHydratedValue(row[column.databaseName], column);
    return entity as T;
  });
}

type ColumnMetadata = EntityMetadata['columns'][number];

const INSERT_STATEMENTS = new WeakMap<EntityMetadata, Map<string, string>>();

function insertStatement(metadata: EntityMetadata, columns: readonly ColumnMetadata[], rowCount: number, escape: (name: string) => string): string {
  let known = INSERT_STATEMENTS.get(metadata);
  if (!known) INSERT_STATEMENTS.set(metadata, (known = new Map<string, string>()));
  const key = `${rowCount}:${columns.map((column) => column.databaseName).join(',')}`;
  let statement = known.get(key);
  if (statement === undefined) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    statement = `INSERT INTO ${escape(metadata.tableName)} (${columns.map((column) => escape(column.databaseName)).join(', ')}) ` +
      `VALUES ${Array.from({ length: rowCount }, () => row).join(', ')}`;
    // Chunks of up to 500 rows of a handful of shapes: only the common sizes are worth keeping.
    if (rowCount <= 16) known.set(key, statement);
  }
  return statement;
}

/**
 * Runs a write on the manager and answers the driver's raw result. Inside a transaction the write is noted on its
 * query runner, as TypeORM's entity events note theirs (written-tables.ts).
 */
async function runWrite(manager: EntityManager, sql: string, params: SqlValue[]): Promise<{ raw: WriteResult; affected?: number }> {
  const runner = manager.queryRunner;
  if (runner) {
    noteWrittenTable(runner, tableWrittenBy(sql));
    const result = await runner.query(sql, params, true);
    return { raw: result.raw as WriteResult, affected: result.affected };
  }
  return { raw: await manager.query<WriteResult>(sql, params) };
}

/**
 * Plain SQL over one EntityManager (the transaction's, or the data source's for reads). Both dialects take `?`
 * placeholders. Values are bound, never interpolated; lists go through `in()`.
 */
export class Sql {
  /**
   * `reads` decides where reads outside a transaction go: `manager` (the default), `replica` (TypeORM replication's
   * "slave" mode) or a direct function (the MySQL pool itself, skipping TypeORM's per-query runner on the hot path).
   */
  constructor(
    readonly manager: EntityManager,
    readonly dialect: Dialect,
    private readonly reads: 'manager' | 'replica' | ((sql: string, params: SqlValue[]) => Promise<unknown[]>) = 'manager',
  ) {}

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
    if (this.reads === 'manager') return this.manager.query<T[]>(sql, params);
    const runner = this.manager.connection.createQueryRunner('slave');
    try {
      return (await runner.query(sql, params)) as T[];
    } finally {
      await runner.release();
    }
  }

  async one<T extends object = Row>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, params);
    return rows[0];
  }

  /** Runs a write; returns the generated id of an INSERT and the number of affected rows (runWrite). */
  async run(sql: string, params: SqlValue[] = []): Promise<{ insertId: number; affected: number }> {
    const { raw, affected } = await runWrite(this.manager, sql, params);
    return { insertId: insertIdOf(raw), affected: affected ?? Number(raw?.affectedRows ?? raw?.changes ?? 0) };
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

/**
 * Quoted names by dialect: the hot statements are written anew per request, and quoting their names cost a Get Bug
 * about 2% of its time (issue 13). The names are the code's own, a few hundred; the bound only guards the memory.
 */
const QUOTED: Record<Dialect, Map<string, string>> = { mysql: new Map(), sqlite: new Map() };
const MAX_QUOTED = 4096;
