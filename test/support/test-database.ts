import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

/**
 * One throwaway database per test file: a temporary SQLite file, or a MariaDB/MySQL database created for the
 * file and dropped afterwards. TEST_DIALECT picks the dialect (sqlite by default); TEST_DATABASE_URL the server.
 */
export interface TestDatabase {
  dialect: 'sqlite' | 'mysql';
  url: string;
  drop(): Promise<void>;
  /** Fault injection (MariaDB/MySQL): kills every server connection to this database; answers how many. */
  killConnections(): Promise<number>;
  /** This database's URL reaching its server through the server's Unix socket instead (MariaDB/MySQL). */
  socketUrl(): Promise<string>;
  /** The client address of each server connection to this database: `localhost` for a Unix socket's (MariaDB/MySQL). */
  connectionHosts(): Promise<string[]>;
  /** How many transactions on this database wait for a row lock now (MariaDB/MySQL). */
  lockWaits(): Promise<number>;
}

export const testDialect = (): 'sqlite' | 'mysql' => (process.env.TEST_DIALECT === 'mysql' ? 'mysql' : 'sqlite');

export async function createTestDatabase(): Promise<TestDatabase> {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  if (testDialect() === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-test-'));
    return {
      dialect: 'sqlite',
      url: `sqlite:${path.join(dir, 'tracker.sqlite')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
      killConnections: () => Promise.reject(new Error('SQLite has no server connections to kill')),
      socketUrl: () => Promise.reject(new Error('SQLite has no server socket')),
      connectionHosts: () => Promise.reject(new Error('SQLite has no server connections')),
      lockWaits: () => Promise.reject(new Error('SQLite has no row locks')),
    };
  }
  const server = process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306';
  const name = `tracker_test_${suffix}`;
  const admin = await mysql.createConnection(serverOnly(server));
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const location = new URL(server);
  location.pathname = `/${name}`;
  const url = location.toString();
  return {
    dialect: 'mysql',
    url,
    drop: () => onServer(async (connection) => void (await connection.query(`DROP DATABASE IF EXISTS \`${name}\``))),
    killConnections: () => onServer(async (connection) => {
      const [rows] = await connection.query('SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()', [name]);
      const ids = (rows as Array<{ id: number }>).map((row) => Number(row.id));
      // A connection may end by itself between the list and the kill (unknown thread id): that is no failure.
      await Promise.all(ids.map((id) => connection.query(`KILL ${id}`).catch(() => undefined)));
      return ids.length;
    }),
    socketUrl: () => onServer(async (connection) => {
      const [rows] = await connection.query('SELECT @@socket AS socket');
      const local = new URL(url);
      local.hostname = 'localhost';
      local.port = '';
      local.searchParams.set('socketPath', (rows as Array<{ socket: string }>)[0].socket);
      return local.toString();
    }),
    connectionHosts: () => onServer(async (connection) => {
      const [rows] = await connection.query('SELECT HOST AS host FROM information_schema.PROCESSLIST WHERE DB = ?', [name]);
      return (rows as Array<{ host: string }>).map((row) => row.host);
    }),
    // A row-lock wait shows as a LOCK WAIT transaction; MariaDB 10.11 does not always list an INSERT waiting for a
    // gap lock in INNODB_TRX, but its connection then stays in the "Update" state: that counts as waiting too.
    lockWaits: () => onServer(async (connection) => {
      const [rows] = await connection.query(
        "SELECT COUNT(*) AS waiting FROM information_schema.PROCESSLIST p LEFT JOIN information_schema.INNODB_TRX t ON t.trx_mysql_thread_id = p.ID " +
          "WHERE p.DB = ? AND (t.trx_state = 'LOCK WAIT' OR (p.COMMAND = 'Query' AND p.STATE = 'Update' AND p.TIME_MS >= 500))",
        [name],
      );
      return Number((rows as Array<{ waiting: number }>)[0].waiting);
    }),
  };

  async function onServer<T>(work: (connection: mysql.Connection) => Promise<T>): Promise<T> {
    const connection = await mysql.createConnection(serverOnly(server));
    try {
      return await work(connection);
    } finally {
      await connection.end();
    }
  }
}

function serverOnly(url: string): string {
  const location = new URL(url.replace(/^mariadb:/, 'mysql:'));
  location.pathname = '/';
  return location.toString();
}
