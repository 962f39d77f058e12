import { serverLocation } from './data-source-options.js';

/** The database DATABASE_URL names does not exist on its server, and nobody asked to create it. */
export class MissingDatabaseError extends Error {}

/** ER_BAD_DB_ERROR: the server knows no database of that name. */
const UNKNOWN_DATABASE = 1049;

/**
 * Before the service or the admin command line opens its pools on a MySQL/MariaDB server: a database that does not
 * exist yet would otherwise be 28 s of TypeORM's connection retries, each with a stack trace, before `Unknown
 * database`. With `create` (TRACKER_CREATE_DATABASE=1) it is created, with the character set the migrations
 * expect (and `created` says so); otherwise a MissingDatabaseError says how. Any other failure (server down, wrong password) is left to
 * the normal start, which retries and reports it.
 */
export async function ensureDatabaseExists(databaseUrl: string, create: boolean): Promise<{ created: boolean }> {
  if (databaseUrl.startsWith('sqlite:')) return { created: false };
  const { createConnection } = (await import('mysql2/promise')).default;
  const { url, socketPath } = serverLocation(databaseUrl);
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1));
  try {
    await (await createConnection({ uri: url, socketPath })).end();
    return { created: false };
  } catch (err) {
    if ((err as { errno?: number }).errno !== UNKNOWN_DATABASE || !database) return { created: false };
  }
  if (!create) {
    throw new MissingDatabaseError(
      `The database '${database}' does not exist on ${target.host || socketPath}: create it ` +
        `(CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci) or start with TRACKER_CREATE_DATABASE=1.`,
    );
  }
  target.pathname = '/';
  const server = await createConnection({ uri: target.toString(), socketPath });
  try {
    await server.query(`CREATE DATABASE IF NOT EXISTS ${server.escapeId(database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await server.end();
  }
  return { created: true };
}
