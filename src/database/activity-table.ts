import type { DataSource } from 'typeorm';

/**
 * Every entity declares which kind of table it is, for the settings mark: `@SettingsTable()` or `@ActivityTable()`.
 * An entity that declares neither still counts as settings at run time (slower, never stale), but fails
 * src/entities.spec.ts: the choice is made on purpose, not by default.
 */
const TABLE_KIND = Symbol('tableKind');

interface ActivityTableOptions {
  /**
   * The table whose rows show this table's rows as part of themselves (a bug shows its cc list): a change of them must
   * also write that row (a bug change touches the bug, which moves its revision, under which LoadedBugCache keeps it).
   */
  partOf?: string;
}

type TableKind = { kind: 'settings' } | ({ kind: 'activity' } & ActivityTableOptions);

function declareKind(kind: TableKind): ClassDecorator {
  return (target) => {
    if (Reflect.hasOwnMetadata(TABLE_KIND, target)) throw new Error(`${target.name} declares its table kind twice (@SettingsTable, @ActivityTable)`);
    Reflect.defineMetadata(TABLE_KIND, kind, target);
  };
}

/**
 * Marks an entity's table as settings an administrator changes (products, fields, groups, parameters …), under which
 * the catalogue modules keep their reads (KeptReads): every committed transaction that writes it moves the settings
 * mark, and with it every value kept under the mark on every instance.
 */
export function SettingsTable(): ClassDecorator {
  return declareKind({ kind: 'settings' });
}

/**
 * Marks an entity's table as everyday activity (bugs, comments, sessions, mail …), written by users' ordinary
 * requests: writing it leaves the settings mark alone, unless it is `partOf` a table the transaction did not write
 * (a forgotten touch costs speed, never correctness).
 */
export function ActivityTable(options: ActivityTableOptions = {}): ClassDecorator {
  return declareKind({ kind: 'activity', ...options });
}

/** The kind an entity class declared itself (undefined: none, which src/entities.spec.ts refuses). */
export function declaredTableKind(entity: object): TableKind['kind'] | undefined {
  return (Reflect.getOwnMetadata(TABLE_KIND, entity) as TableKind | undefined)?.kind;
}

function activityOf(dataSource: DataSource, table: string): ActivityTableOptions | undefined {
  const metadata = dataSource.entityMetadatas.find((m) => m.tableName === table);
  const kind = metadata && typeof metadata.target === 'function' ? (Reflect.getMetadata(TABLE_KIND, metadata.target) as TableKind | undefined) : undefined;
  return kind?.kind === 'activity' ? kind : undefined;
}

/**
 * Whether a transaction that wrote `tables` leaves the settings untouched: each is an activity table (settings tables,
 * and tables without an entity, count as settings), and each one that is part of another table's rows was written
 * with that table.
 */
export function leavesSettingsAlone(dataSource: DataSource, tables: ReadonlySet<string>): boolean {
  for (const table of tables) {
    const options = activityOf(dataSource, table);
    if (!options || (options.partOf !== undefined && !tables.has(options.partOf))) return false;
  }
  return true;
}
