import type { DataSource } from 'typeorm';

const ACTIVITY_TABLE = Symbol('activityTable');

/**
 * Marks an entity's table as everyday activity (bugs, comments, sessions, mail …), written by users' ordinary
 * requests, as opposed to the settings an administrator changes (products, fields, groups, parameters …). Writing
 * any table NOT marked so moves the settings mark, under which the catalogue modules keep their reads
 * (KeptReads): a forgotten mark costs speed, never correctness.
 */
export function ActivityTable(): ClassDecorator {
  return (target) => Reflect.defineMetadata(ACTIVITY_TABLE, true, target);
}

/** Whether a write to `table` leaves the settings untouched (tables without an entity count as settings). */
export function isActivityTable(dataSource: DataSource, table: string): boolean {
  const metadata = dataSource.entityMetadatas.find((m) => m.tableName === table);
  return metadata !== undefined && typeof metadata.target === 'function' && Reflect.getMetadata(ACTIVITY_TABLE, metadata.target) === true;
}
