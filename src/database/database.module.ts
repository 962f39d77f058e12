import { Global, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source-options.js';
import { openDataSource } from './open-data-source.js';
import { Db } from './db.service.js';
import { InstallService } from './install/install.service.js';

/**
 * The data source (migrations run at start, never synchronize) over the entities the composition root names, the
 * Db helper, and the install data.
 */
@Global()
@Module({})
export class DatabaseModule implements OnModuleInit {
  static forRoot(entities: Function[]): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.databaseUrl, config.databaseReplicaUrls, entities),
            migrationsRun: true,
          }),
          dataSourceFactory: (options) => openDataSource(options!),
        }),
      ],
      providers: [Db, InstallService],
      exports: [Db, InstallService],
    };
  }

  constructor(private readonly install: InstallService) {}

  async onModuleInit(): Promise<void> {
    await this.install.installIfEmpty();
  }
}
