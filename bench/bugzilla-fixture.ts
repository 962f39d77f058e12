/**
 * The Bugzilla 5.0.6 fixture (test/fixtures/bugzilla-5.0.6, what a real Bugzilla 5.0.6 produced; its README.md) as a
 * scratch MariaDB database: shared by the import benchmark (bench/import.ts) and its e2e test
 * (test/e2e/import-bugzilla.e2e-spec.ts). The dump is fed to the `mariadb` client, as the fixture's README says.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { spawn } from 'node:child_process';
import mysql from 'mysql2/promise';

/** The repository's root, from bench/ or, built, from dist/bench/. */
const ROOT = path.resolve(import.meta.dirname, path.basename(path.dirname(import.meta.dirname)) === 'dist' ? '../..' : '..');

/** The fixture's folder; BUGZILLA_FIXTURE names another one of the same layout. */
export const BUGZILLA_FIXTURE = process.env.BUGZILLA_FIXTURE ?? path.join(ROOT, 'test/fixtures/bugzilla-5.0.6');

/** Feeds `input` (SQL) to the `mariadb` client on database `name` of `server` (mysql://user[:pass]@host[:port]). */
export async function runMariadbClient(server: string, name: string, input: Readable): Promise<void> {
  const location = new URL(server);
  const args = ['-h', location.hostname, '-P', location.port || '3306', '-u', decodeURIComponent(location.username || 'root')];
  if (location.password) args.push(`-p${decodeURIComponent(location.password)}`);
  await new Promise<void>((resolve, reject) => {
    const client = spawn('mariadb', [...args, name], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    client.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    client.on('error', reject);
    client.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`the mariadb client failed (${code}): ${err}`))));
    input.pipe(client.stdin);
  });
}

/** The URL of database `name` on `server`. */
export function databaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates database `name` on `server` (dropped first if it exists) and loads the fixture's dump into it. */
export async function loadBugzillaFixture(server: string, name: string): Promise<void> {
  const admin = await mysql.createConnection(server);
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb3`);
  await admin.end();
  await runMariadbClient(server, name, fs.createReadStream(`${BUGZILLA_FIXTURE}/bugzilla-5.0.6-sample.sql.gz`).pipe(zlib.createGunzip()));
}

export async function dropDatabase(server: string, name: string): Promise<void> {
  const admin = await mysql.createConnection(server);
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.end();
}
