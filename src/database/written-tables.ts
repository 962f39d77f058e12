import type { QueryRunner } from 'typeorm';

/**
 * The tables a transaction wrote, noted on its query runner (`queryRunner.data`) by every write path — TypeORM's
 * entity events and Sql.run alike — so that whoever must react to "this transaction changed something" (the settings
 * mark) learns it without each writer remembering to say so. Writes outside a transaction are not noted.
 */
const WRITTEN_TABLES = 'writtenTables';

/**
 * A write refused because it ran outside a transaction (a read handle's manager): it would be noted nowhere, so it
 * would move no settings mark, and every instance would keep serving the settings it changed. Write in
 * `Db.transaction`.
 */
export class WriteOutsideTransaction extends Error {
  constructor(table: string) {
    super(`a write of ${table} outside a transaction: it would move no settings mark (write in Db.transaction)`);
  }
}

export function noteWrittenTable(runner: QueryRunner | undefined, table: string): void {
  if (!runner?.isTransactionActive) return;
  const data = runner.data as { [WRITTEN_TABLES]?: Set<string> };
  (data[WRITTEN_TABLES] ??= new Set()).add(table);
}

/** The tables written since the transaction began (or since the last `forgetWrittenTables`). */
export function writtenTables(runner: QueryRunner): ReadonlySet<string> {
  return (runner.data as { [WRITTEN_TABLES]?: Set<string> })[WRITTEN_TABLES] ?? new Set();
}

/** Clears the note: SQLite's driver reuses one query runner for every transaction. */
export function forgetWrittenTables(runner: QueryRunner): void {
  delete (runner.data as { [WRITTEN_TABLES]?: Set<string> })[WRITTEN_TABLES];
}

/** The table a write statement names (INSERT INTO / REPLACE INTO / UPDATE / DELETE FROM); undefined for any other. */
export function writeTarget(statement: string): string | undefined {
  return /^\s*(?:(?:INSERT|REPLACE)(?:\s+IGNORE)?\s+INTO|UPDATE(?:\s+IGNORE)?|DELETE\s+FROM)\s+[`"]?(\w+)/i.exec(statement)?.[1];
}

/** The table a write statement names, or the statement's first word. */
export function tableWrittenBy(statement: string): string {
  return writeTarget(statement) ?? statement.trim().split(/\s+/, 1)[0].toLowerCase();
}
