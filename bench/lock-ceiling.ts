/**
 * The ceiling of updates of one bug (issue 13): `npm run bench:lock`. Every Update Bug of the same bug waits for the
 * bug's row lock and holds it until its COMMIT, so their rate is bounded by how long the statements under the lock
 * take, whatever the service does. This measures that bound with no service at all: 8 connections (as wrk -c8) each
 * run transactions that lock one row (`SELECT … FOR UPDATE`), send N - 2 trivial INSERTs and one UPDATE, and commit.
 * N = 10 is Update Bug's shape today (status + cc + comment: see bench/RESULTS.md). Uses a scratch database on
 * BENCH_DATABASE_URL's server (default mysql://root@127.0.0.1:3306), dropped afterwards.
 */
import mysql from 'mysql2/promise';

const SERVER = new URL(process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 8;
const STATEMENTS_UNDER_LOCK = [10, 6, 3];

async function main(): Promise<void> {
  SERVER.pathname = '/';
  const name = `tracker_lock_ceiling_${process.pid}`;
  const admin = await mysql.createConnection(SERVER.toString());
  await admin.query(`CREATE DATABASE \`${name}\``);
  const url = new URL(SERVER.toString());
  url.pathname = `/${name}`;
  try {
    const setup = await mysql.createConnection(url.toString());
    await setup.query('CREATE TABLE locked (id int PRIMARY KEY, v int NOT NULL) ENGINE=InnoDB');
    await setup.query('INSERT INTO locked VALUES (1, 0)');
    await setup.query('CREATE TABLE written (id int PRIMARY KEY AUTO_INCREMENT, locked_id int NOT NULL, t varchar(64) NOT NULL, KEY (locked_id)) ENGINE=InnoDB');
    await setup.end();
    for (const statements of STATEMENTS_UNDER_LOCK) {
      const connections = await Promise.all(Array.from({ length: CONNECTIONS }, () => mysql.createConnection(url.toString())));
      let done = 0;
      const end = Date.now() + SECONDS * 1000;
      await Promise.all(connections.map(async (c) => {
        while (Date.now() < end) {
          await c.query('START TRANSACTION');
          await c.execute('SELECT v FROM locked WHERE id = ? FOR UPDATE', [1]);
          for (let i = 0; i < statements - 2; i++) await c.execute('INSERT INTO written (locked_id, t) VALUES (?, ?)', [1, 'row']);
          await c.execute('UPDATE locked SET v = v + 1 WHERE id = ?', [1]);
          await c.query('COMMIT');
          done++;
        }
      }));
      await Promise.all(connections.map((c) => c.end()));
      process.stdout.write(`${statements} statements under one row lock, then COMMIT, ${CONNECTIONS} connections: ${Math.round(done / SECONDS)} transactions/s\n`);
    }
  } finally {
    await admin.query(`DROP DATABASE \`${name}\``);
    await admin.end();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
