import { DataSource, type DataSourceOptions } from 'typeorm';
import { adaptEntitiesToDialect } from './columns.js';

/** Every data source of the service is opened here: initialised, then its entities given their dialect's types. */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  adaptEntitiesToDialect(dataSource);
  return dataSource;
}
