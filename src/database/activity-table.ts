import type { DataSource } from 'typeorm';

const ACTIVITY_TABLE = Symbol('activityTable');

interface ActivityTableOptions {
  /**
   * The table whose rows show this table's rows as part of themselves (a bug shows its cc list): a change of them must
   * also write that row (a bug change touches the bug, which moves its revision, under which LoadedBugCache keeps it).
   */
  partOf?: string;
}

/**
 * Marks an entity's table as everyday activity (bugs, comments, sessions, mail …), written by users' ordinary
 * requests, as opposed to the settings an administrator changes (products, fields, groups, parameters …). Writing
 * any table NOT marked so moves the settings mark, under which the catalogue modules keep their reads
 * (KeptReads), and so does writing a `partOf` table without its owner: a forgotten mark or touch costs speed, never
 * correctness.
 */
export function ActivityTable(options: ActivityTableOptions = {}): ClassDecorator {
  return (target) => Reflect.defineMetadata(ACTIVITY_TABLE, options, target);
}

function optionsOf(dataSource: DataSource, table: string): ActivityTableOptions | undefined {
  const metadata = dataSource.entityMetadatas.find((m) => m.tableName === table);
  return metadata && typeof metadata.target === 'function' ? (Reflect.getMetadata(ACTIVITY_TABLE, metadata.target) as ActivityTableOptions | undefined) : undefined;
}

/**
 * Whether a transaction that wrote `tables` leaves the settings untouched: each is an activity table (tables without
 * an entity count as settings), and each one that is part of another table's rows was written with that table.
 */
export function leavesSettingsAlone(dataSource: DataSource, tables: ReadonlySet<string>): boolean {
  for (const table of tables) {
    const options = optionsOf(dataSource, table);
    if (!options || (options.partOf !== undefined && !tables.has(options.partOf))) return false;
  }
  return true;
}
