// The TypeORM CLI's data source (`npx typeorm migration:show -d dist/ormconfig.js`); the app builds the same one.
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config.js';
import { dataSourceOptions } from './src/database/data-source-options.js';
import { ENTITIES } from './src/entities.js';

const config = loadConfig();
export default new DataSource(dataSourceOptions(config.databaseUrl, ENTITIES));
