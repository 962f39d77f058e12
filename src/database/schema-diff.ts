import type { DataSource } from 'typeorm';

/** The statements that would bring the database to what the entities describe: none when the two agree. */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<{ up: string[]; down: string[] }> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return { up: log.upQueries.map((q) => q.query), down: log.downQueries.map((q) => q.query).reverse() };
}
