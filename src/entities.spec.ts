import { DataSource, type EntityMetadata } from 'typeorm';
import { dataSourceOptions } from './database/data-source-options.js';
import { ENTITIES } from './entities.js';
import { ActivityTable, declaredTableKind, SettingsTable } from './database/activity-table.js';

/**
 * MariaDB runs here, but the service must also start on MySQL 8, where GROUPS, RANK and SYSTEM are reserved: every
 * identifier the ORM sends must be quoted. The statements are built on a MySQL driver that never connects.
 */
async function mysqlDataSource(): Promise<DataSource> {
  const dataSource = new DataSource(dataSourceOptions('mysql://nobody@127.0.0.1:1/none', ENTITIES));
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return dataSource;
}

/** The words of a statement outside backquotes, parameters and string literals. */
function bareWords(sql: string): Set<string> {
  const outside = sql.replace(/`[^`]*`/g, ' ').replace(/'[^']*'/g, ' ');
  return new Set(outside.toLowerCase().match(/[a-z_][a-z0-9_]*/g) ?? []);
}

function statementsOf(dataSource: DataSource, entity: EntityMetadata): string[] {
  const sample = Object.fromEntries(entity.columns.map((column) => [column.propertyName, 1]));
  const where = Object.fromEntries(entity.primaryColumns.map((column) => [column.propertyName, 1]));
  return [
    dataSource.createQueryBuilder(entity.target, 'e').where(where).orderBy(`e.${entity.columns[0].propertyName}`).getQuery(),
    dataSource.createQueryBuilder().insert().into(entity.target).values(sample).getQuery(),
    dataSource.createQueryBuilder().update(entity.target).set(sample).where(where).getQuery(),
    dataSource.createQueryBuilder().delete().from(entity.target).where(where).getQuery(),
  ];
}

describe('MySQL statements built from the entities', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await mysqlDataSource();
  });

  it('names groups in backquotes (GROUPS is reserved since MySQL 8.0.2)', () => {
    const sql = dataSource.createQueryBuilder().select('g.id').from('Group', 'g').where('g.name = :name', { name: 'admin' }).getQuery();
    expect(sql).toContain('FROM `groups` `g`');
  });

  it('quotes every table and column name in selects, inserts, updates and deletes of every entity', () => {
    for (const entity of dataSource.entityMetadatas) {
      const identifiers = [entity.tableName, ...entity.columns.map((column) => column.databaseName)];
      for (const sql of statementsOf(dataSource, entity)) {
        const bare = bareWords(sql);
        expect({ sql, unquoted: identifiers.filter((name) => bare.has(name.toLowerCase())) }).toEqual({ sql, unquoted: [] });
      }
    }
  });
});

/** The entities that declare no table kind (@SettingsTable or @ActivityTable), by class name. */
const undeclared = (entities: readonly object[]) => entities.filter((entity) => declaredTableKind(entity) === undefined).map((entity) => (entity as { name: string }).name);

describe('every entity declares whether its table is settings or activity (the settings mark)', () => {
  it('each entity of the service declares one: none counts as settings by default', () => {
    expect(undeclared(ENTITIES)).toEqual([]);
  });

  it('an entity that declares none is named, one that declares both is refused', () => {
    class Forgotten {}
    @SettingsTable()
    class Catalogue {}
    @ActivityTable({ partOf: 'bugs' })
    class Part {}
    expect(undeclared([Forgotten, Catalogue, Part])).toEqual(['Forgotten']);
    expect([declaredTableKind(Catalogue), declaredTableKind(Part)]).toEqual(['settings', 'activity']);
    expect(() => SettingsTable()(Part)).toThrow(/declares its table kind twice/);
  });
});
