import type { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { openDataSource } from '../../src/database/open-data-source.js';
import { pendingSchemaChanges } from '../../src/database/schema-diff.js';
import { ENTITIES } from '../../src/entities.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * The committed migrations build exactly the schema the entities describe: on a fresh database, after every
 * migration, TypeORM's schema diff has nothing to do. A change to an entity without its generated migration (or
 * the reverse) fails here, on each dialect.
 */
describe('schema: migrations and entities agree', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource({ ...dataSourceOptions(database.url, [], ENTITIES), migrationsRun: true });
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database.drop();
  });

  it('leaves no schema change pending after the migrations', async () => {
    expect(await pendingSchemaChanges(dataSource)).toEqual({ up: [], down: [] });
  });

  it('gives every table an entity', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      const tables = (await runner.getTables())
        .filter((table) => !table.database || table.database === dataSource.driver.database)
        .map((table) => table.name.replace(/^.*\./, ''))
        .filter((name) => name !== 'migrations' && !name.startsWith('sqlite_'));
      const entityTables = dataSource.entityMetadatas.map((m) => m.tableName);
      expect([...tables].sort()).toEqual([...entityTables].sort());
    } finally {
      await runner.release();
    }
  });
});
