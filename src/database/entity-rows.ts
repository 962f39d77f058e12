import type { EntityMetadata, ObjectLiteral, Repository } from 'typeorm';
import { dialectOf } from './dialect.js';
import { holdStatement, isSqlExpression, runInsertHeld, runWrite, runWriteLater, type HeldRowId, type PendingId, type ReadRepository, type RowId, type SqlValue, type WriteValue } from './sql.js';
import { insertSql, updateSql, type Assignment, type WriteShape } from './held-writes.js';

/**
 * Statements on one entity's table written from its metadata — the columns, their escaped names, each value prepared
 * by the driver as TypeORM prepares it (transformers, booleans) and read back as TypeORM hydrates it — without a query
 * builder per call. On Create and Update Bug, building query builders (and TypeORM's entity mapping) was a fifth of
 * the service's time (issue 13). Repositories use these for their plain reads and writes by column values; anything
 * richer (joins, ordering, locks in shared mode) stays with the query builder or hand-written SQL.
 */

type ColumnMetadata = EntityMetadata['columns'][number];

/** A condition on entity properties, all of which must hold: each equal to a value (null: IS NULL), or one of a list. */
export type Where<T> = { [K in keyof T]?: T[K] | ReadonlyArray<T[K]> };

/** A value of a row to insert: a number column may take a row id still held in the database (HeldRowId). */
export type NewRowValue<V> = V | (V extends number ? HeldRowId : never);

/** A row to insert: its properties' values (NewRowValue). */
export type NewRow<T> = { [K in keyof T]?: NewRowValue<T[K]> };

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
export async function insertRows<T extends ObjectLiteral>(repository: Repository<T>, rows: ReadonlyArray<NewRow<T>>): Promise<number> {
  let id = 0;
  for (const statement of insertStatements(repository, rows)) id = (await runWrite(repository.manager, statement.sql, statement.params, statement.shape)).insertId;
  return id;
}

/** One row inserted as insertRows does, whose generated id is asked for later, if at all (runWriteLater). */
export function insertRowLater<T extends ObjectLiteral>(repository: Repository<T>, row: NewRow<T>): Promise<PendingId> {
  const [statement] = insertStatements(repository, [row]);
  return runWriteLater(repository.manager, statement.sql, statement.params);
}

/** One row inserted as insertRows does, whose id the next statements name before it is known (runInsertHeld). */
export function insertRowHeld<T extends ObjectLiteral>(repository: Repository<T>, row: NewRow<T>): Promise<RowId> {
  const [statement] = insertStatements(repository, [row]);
  return runInsertHeld(repository.manager, statement.sql, statement.params);
}

function insertStatements<T extends ObjectLiteral>(repository: Repository<T>, rows: ReadonlyArray<NewRow<T>>): Array<{ sql: string; params: WriteValue[]; shape: WriteShape }> {
  const { metadata, manager } = repository;
  const driver = manager.connection.driver;
  const statements: Array<{ sql: string; params: WriteValue[]; shape: WriteShape }> = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT) as ReadonlyArray<Record<string, unknown>>;
    const columns = metadata.columns.filter((column) => column.isInsert && chunk.some((row) => row[column.propertyName] !== undefined));
    const params: unknown[] = [];
    for (const row of chunk) {
      for (const column of columns) {
        const value = row[column.propertyName];
        params.push(value === undefined ? (column.default ?? null) : isSqlExpression(value) ? value : driver.preparePersistentValue(value, column));
      }
    }
    const { sql, head, row } = insertStatement(metadata, columns, chunk.length, (name) => driver.escape(name));
    statements.push({ sql, params: params as WriteValue[], shape: { kind: 'insert', table: metadata.tableName, head, row, rows: chunk.length } });
  }
  return statements;
}

/**
 * The rows matching `where` (in no particular order), with their selectable columns; `forUpdate` locks them for the
 * rest of the transaction on MySQL (SQLite's writer is alone).
 */
export async function findRows<T extends ObjectLiteral>(repository: ReadRepository<T>, where: NoInfer<Where<T>>, options: { forUpdate?: boolean } = {}): Promise<T[]> {
  // A read, so a read handle's repository will do: its statement goes through that repository's manager.
  const readable = repository as Repository<T>;
  const { metadata, manager } = readable;
  const driver = manager.connection.driver;
  const condition = whereClause(readable, where);
  if (!condition) return [];
  const columns = metadata.columns.filter((column) => column.isSelect);
  const lock = options.forUpdate && dialectOf(manager.connection) === 'mysql' ? ' FOR UPDATE' : '';
  const rows = await manager.query<Array<Record<string, unknown>>>(
    `SELECT ${columns.map((column) => driver.escape(column.databaseName)).join(', ')} FROM ${driver.escape(metadata.tableName)} WHERE ${condition.sql}${lock}`,
    condition.params,
  );
  return rows.map((row) => {
    const entity = metadata.create() as Record<string, unknown>;
    for (const column of columns) entity[column.propertyName] = driver.prepareHydratedValue(row[column.databaseName], column);
    return entity as T;
  });
}

/**
 * Locks the rows matching `where` for the rest of the transaction (MySQL; SQLite's writer is alone, so nothing is sent
 * there). Nobody reads the lock's answer, so it goes with the transaction's next statement (sql.ts, holdStatement):
 * that read runs once the locks are held, in the same round trip.
 */
export async function lockRows<T extends ObjectLiteral>(repository: Repository<T>, where: NoInfer<Where<T>>): Promise<void> {
  const { metadata, manager } = repository;
  const condition = whereClause(repository, where);
  if (!condition || dialectOf(manager.connection) !== 'mysql') return;
  const escape = (name: string) => manager.connection.driver.escape(name);
  const key = metadata.primaryColumns.map((column) => escape(column.databaseName)).join(', ');
  await holdStatement(manager, `SELECT ${key} FROM ${escape(metadata.tableName)} WHERE ${condition.sql} FOR UPDATE`, condition.params);
}

/** Sets `values` on the rows matching `where`, and moves their version column by one as TypeORM's updates do; answers how many rows matched. */
export async function updateRows<T extends ObjectLiteral>(repository: Repository<T>, where: NoInfer<Where<T>>, values: NoInfer<Partial<T>>): Promise<number> {
  const condition = whereClause(repository, where);
  const set = Object.entries(values).filter(([, value]) => value !== undefined).map(([property, value]) => [columnOf(repository, property), value] as const);
  if (!condition || !set.length) return 0;
  const driver = repository.manager.connection.driver;
  const assignments: Assignment[] = set.map(([column]) => ({ column: driver.escape(column.databaseName) }));
  const version = repository.metadata.versionColumn;
  if (version && !set.some(([column]) => column === version)) {
    const name = driver.escape(version.databaseName);
    assignments.push({ column: name, expression: `${name} + 1` });
  }
  const shape: WriteShape = { kind: 'update', table: repository.metadata.tableName, target: driver.escape(repository.metadata.tableName), assignments, where: condition.sql };
  const params = [...set.map(([column, value]) => driver.preparePersistentValue(value, column) as SqlValue), ...condition.params];
  return (await runWrite(repository.manager, updateSql(shape), params, shape)).affected;
}

/** Deletes the rows matching `where`; answers how many there were. */
export async function deleteRows<T extends ObjectLiteral>(repository: Repository<T>, where: NoInfer<Where<T>>): Promise<number> {
  const condition = whereClause(repository, where);
  if (!condition) return 0;
  const driver = repository.manager.connection.driver;
  return (await runWrite(repository.manager, `DELETE FROM ${driver.escape(repository.metadata.tableName)} WHERE ${condition.sql}`, condition.params)).affected;
}

function columnOf(repository: Repository<ObjectLiteral>, property: string): ColumnMetadata {
  const column = repository.metadata.findColumnWithPropertyName(property);
  if (!column) throw new Error(`${repository.metadata.name} has no column ${property}`);
  return column;
}

/** `where` as SQL with bound values, or undefined when a list in it is empty (nothing can match). */
function whereClause<T extends ObjectLiteral>(repository: Repository<T>, where: Where<T>): { sql: string; params: SqlValue[] } | undefined {
  const driver = repository.manager.connection.driver;
  const terms: string[] = [];
  const params: SqlValue[] = [];
  for (const [property, value] of Object.entries(where)) {
    const column = columnOf(repository, property);
    const name = driver.escape(column.databaseName);
    if (value === null) {
      terms.push(`${name} IS NULL`);
    } else if (Array.isArray(value)) {
      if (!value.length) return undefined;
      terms.push(`${name} IN (${value.map(() => '?').join(', ')})`);
      for (const item of value) params.push(driver.preparePersistentValue(item, column) as SqlValue);
    } else {
      terms.push(`${name} = ?`);
      params.push(driver.preparePersistentValue(value, column) as SqlValue);
    }
  }
  if (!terms.length) throw new Error('a condition is required');
  return { sql: terms.join(' AND '), params };
}

/** An INSERT's text up to VALUES, one row's placeholders, and the statements of the common row counts. */
interface InsertText {
  head: string;
  row: string;
  byRows: Map<number, string>;
}

const INSERT_STATEMENTS = new WeakMap<EntityMetadata, Map<string, InsertText>>();

function insertStatement(metadata: EntityMetadata, columns: readonly ColumnMetadata[], rowCount: number, escape: (name: string) => string): { sql: string; head: string; row: string } {
  let known = INSERT_STATEMENTS.get(metadata);
  if (!known) INSERT_STATEMENTS.set(metadata, (known = new Map<string, InsertText>()));
  const key = columns.map((column) => column.databaseName).join(',');
  let text = known.get(key);
  if (!text) {
    const head = `INSERT INTO ${escape(metadata.tableName)} (${columns.map((column) => escape(column.databaseName)).join(', ')}) VALUES `;
    known.set(key, (text = { head, row: `(${columns.map(() => '?').join(', ')})`, byRows: new Map() }));
  }
  let sql = text.byRows.get(rowCount);
  if (sql === undefined) {
    sql = insertSql(text.head, text.row, rowCount);
    // Chunks of up to 500 rows of a handful of shapes: only the common sizes are worth keeping.
    if (rowCount <= 16) text.byRows.set(rowCount, sql);
  }
  return { sql, head: text.head, row: text.row };
}
