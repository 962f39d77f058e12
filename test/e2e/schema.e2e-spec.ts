import { In, type DataSource, type Repository } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { openDataSource } from '../../src/database/open-data-source.js';
import { pendingSchemaChanges } from '../../src/database/schema-diff.js';
import { ENTITIES } from '../../src/entities.js';
import { findRows, insertRows } from '../../src/database/entity-rows.js';
import { WriteOutsideTransaction } from '../../src/database/written-tables.js';
import { User } from '../../src/user/entities/user.entity.js';
import { Keyword } from '../../src/field/entities/keyword.entity.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

describe('schema', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource({ ...dataSourceOptions(database.url, ENTITIES), migrationsRun: true });
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database.drop();
  });

  /**
   * The committed migrations build exactly the schema the entities describe: on a fresh database, after every
   * migration, TypeORM's schema diff has nothing to do. A change to an entity without its generated migration (or
   * the reverse) fails here, on each dialect.
   */
  describe('migrations and entities agree', () => {
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

  /**
   * insertRows writes its INSERTs from the entity metadata (no query builder): the stored rows must be those TypeORM
   * would have written — values through the column transformers, a cell a row leaves out taking the column default —
   * on each dialect. Outside a transaction it writes nothing: such a write would move no settings mark.
   */
  describe('insertRows writes what the entity describes', () => {
    it('stores transformed values and defaults, and answers the generated id', async () => {
      const firstId = await dataSource.transaction((manager) => insertRows(manager.getRepository(Keyword), [
        { name: 'insert-a', description: 'a', isActive: false },
        { name: 'insert-b', description: 'b' },
      ]));
      await expect(insertRows(dataSource.getRepository(Keyword), [{ name: 'insert-c', description: 'c' }])).rejects.toThrow(WriteOutsideTransaction);
      const lastId = await dataSource.transaction((manager) => insertRows(manager.getRepository(Keyword), [{ name: 'insert-c', description: 'c', isActive: false }]));
      const stored = await dataSource.getRepository(Keyword).find({ where: [{ name: 'insert-a' }, { name: 'insert-b' }, { name: 'insert-c' }], order: { id: 'ASC' } });
      expect(stored.map(({ name, isActive }) => [name, isActive])).toEqual([['insert-a', false], ['insert-b', true], ['insert-c', false]]);
      // MySQL answers the first row's id of a multi-row INSERT, SQLite the last one's.
      expect([stored[0].id, stored[1].id]).toContain(firstId);
      expect(lastId).toBe(stored[2].id);
      expect(await insertRows(dataSource.getRepository(Keyword), [])).toBe(0);
    });

    it('reads by ids what a repository find reads (findRowsByIds)', async () => {
      const users = dataSource.getRepository(User);
      await dataSource.transaction((manager) => insertRows(manager.getRepository(User), [
        { loginName: 'rows-a@example.com', email: 'rows-a@example.com', loginDeniedText: '', creationTs: '2024-02-03 04:05:06', lastSeenDate: null },
        {
          loginName: 'rows-b@example.com', email: 'rows-b@example.com', realname: 'B', cryptpassword: 'x', loginDeniedText: 'no',
          emailEnabled: false, creationTs: '2024-12-31 23:59:59', lastSeenDate: '2025-01-01 00:00:00',
        },
      ]));
      const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);
      for (const repository of [users, dataSource.getRepository(Keyword)] as Array<Repository<{ id: number }>>) {
        const ids = (await repository.find({ select: { id: true } })).map((row) => row.id);
        expect(ids.length).toBeGreaterThanOrEqual(2);
        expect(byId(await findRows(repository, { id: [...ids, 999_999] }))).toEqual(byId(await repository.findBy({ id: In(ids) })));
      }
      expect(await findRows(users, { id: [] })).toEqual([]);
      const neverSeen = (await findRows(users, { lastSeenDate: null })).map((user) => user.loginName);
      expect(neverSeen).toContain('rows-a@example.com');
      expect(neverSeen).not.toContain('rows-b@example.com');
    });
  });
});
