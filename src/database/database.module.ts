import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source-options.js';
import { Db } from './db.service.js';
import { InstallService } from './install/install.service.js';

/** The data source (migrations run at start, never synchronize), the Db helper, and the install data. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl, config.databaseReplicaUrls),
        autoLoadEntities: true,
        migrationsRun: true,
      }),
    }),
  ],
  providers: [Db, InstallService],
  exports: [Db, InstallService],
})
export class DatabaseModule implements OnModuleInit {
  constructor(private readonly install: InstallService) {}

  async onModuleInit(): Promise<void> {
    await this.install.installIfEmpty();
  }
}
