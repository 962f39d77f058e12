import fs from 'node:fs';
import path from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { migrations } from './migrations/index.js';
import { SnakeCaseNamingStrategy } from './naming-strategy.js';
import { CountingLogger } from './counting-logger.js';

type Entities = NonNullable<DataSourceOptions['entities']>;

/**
 * TypeORM options for a DATABASE_URL; shared by the app, the admin command line and ormconfig.ts. The entities come
 * from the caller (src/entities.ts lists them): this folder knows no resource module. Read replicas are not TypeORM's
 * (its replication's PoolCluster drops a failing node for good): Db opens their pools (replicas.ts).
 */
export function dataSourceOptions(databaseUrl: string, entities: Entities = []): DataSourceOptions {
  const common = {
    migrations,
    entities,
    namingStrategy: new SnakeCaseNamingStrategy(),
    logger: new CountingLogger(),
    synchronize: false,
    migrationsTransactionMode: 'each' as const,
  };
  if (databaseUrl.startsWith('sqlite:')) {
    const database = databaseUrl.slice('sqlite:'.length);
    if (database !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(database)), { recursive: true });
    return { ...common, type: 'better-sqlite3', database, enableWAL: true, prepareDatabase: (db: { pragma(source: string): unknown }) => void db.pragma('busy_timeout = 5000') };
  }
  const connection = {
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    dateStrings: true,
    // maxPreparedStatements bounds each connection's cache of prepared statements (Db.read's, and the writes of
    // Db.transaction), so that 20 connections of several instances stay far below the server's max_prepared_stmt_count.
    extra: { decimalNumbers: true, connectionLimit: 20, maxPreparedStatements: 100 },
    // A transaction sends the statements it holds back with its next one, as one query (db.service.ts). Values stay
    // bound (escaped by the driver) and names quoted: `npm run check:sql` keeps SQL text inside repositories.
    multipleStatements: true,
  };
  const type = databaseUrl.startsWith('mariadb:') ? ('mariadb' as const) : ('mysql' as const);
  return { ...common, ...connection, type, ...serverLocation(databaseUrl) };
}

/**
 * Where a MySQL/MariaDB URL points: the URL as TypeORM reads it, and the server's Unix socket when its query names
 * one (`?socketPath=`, checked by the configuration): for a server that listens on no TCP port (skip-networking),
 * or whose accounts are bound to the socket.
 */
export function serverLocation(databaseUrl: string): { url: string; socketPath?: string } {
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  const socketPath = url.searchParams.get('socketPath') ?? undefined;
  url.search = '';
  return socketPath ? { url: url.toString(), socketPath } : { url: url.toString() };
}
