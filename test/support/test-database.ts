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
    drop: async () => {
      const connection = await mysql.createConnection(serverOnly(server));
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
    killConnections: async () => {
      const connection = await mysql.createConnection(serverOnly(server));
      try {
        const [rows] = await connection.query('SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()', [name]);
        const ids = (rows as Array<{ id: number }>).map((row) => Number(row.id));
        // A connection may end by itself between the list and the kill (unknown thread id): that is no failure.
        await Promise.all(ids.map((id) => connection.query(`KILL ${id}`).catch(() => undefined)));
        return ids.length;
      } finally {
        await connection.end();
      }
    },
  };
}

function serverOnly(url: string): string {
  const location = new URL(url.replace(/^mariadb:/, 'mysql:'));
  location.pathname = '/';
  return location.toString();
}
