import { DataSource, type DataSourceOptions } from 'typeorm';
import { adaptEntitiesToDialect } from './columns.js';

/**
 * Every data source of the service is opened here: initialised, told the server's family, then its entities given
 * their dialect's types.
 */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  await recogniseMariaDb(dataSource);
  adaptEntitiesToDialect(dataSource);
  return dataSource;
}

/**
 * Operators write `mysql://` for a MariaDB server too. TypeORM then takes MariaDB 10.x for MySQL ≥ 8 and sends
 * syntax MariaDB refuses (a shared row lock as `FOR SHARE`), and reads its schema wrongly (a nullable column's
 * default `NULL`). The server says what it is; the driver is told before any statement of the service runs.
 * Features TypeORM enables only for a connection declared `mariadb` (RETURNING) stay off, as under `mysql`.
 */
async function recogniseMariaDb(dataSource: DataSource): Promise<void> {
  const driver = dataSource.driver as { options: { type: string } };
  if (driver.options.type !== 'mysql') return;
  const [{ version }] = await dataSource.query<Array<{ version: string }>>('SELECT VERSION() AS version');
  if (/mariadb/i.test(version)) driver.options.type = 'mariadb';
}
