import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source-options.js';
import { openDataSource } from './open-data-source.js';
import { Db } from './db.service.js';
import { CommitSignals } from './commit-signals.js';

/**
 * The data source (migrations run at start, never synchronize) over the entities the composition root names, and
 * the Db helper, and the commit signals that wake the outbox workers. The install data lives at the composition root (src/install).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(entities: NonNullable<DataSourceOptions['entities']>): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.databaseUrl, entities),
            migrationsRun: true,
          }),
          dataSourceFactory: (options) => openDataSource(options!),
        }),
      ],
      providers: [Db, CommitSignals],
      exports: [Db, CommitSignals],
    };
  }
}
