process.env.TZ = 'UTC';
import 'reflect-metadata';
import net from 'node:net';
import { Logger, type INestApplication } from '@nestjs/common';
import { ConfigError, loadConfig, withoutPassword, type AppConfig } from './config/app-config.js';
import { ensureDatabaseExists, MissingDatabaseError } from './database/missing-database.js';
import { createApp } from './app.factory.js';

/** Exit code of a start the operator must fix: bad configuration, a busy port, a database that does not exist. */
const EXIT_SETUP = 2;

/** A start that cannot succeed, said in one line (no stack trace: nothing in the code is wrong). */
class SetupError extends Error {}

/** The service: configuration, the app, the listener and a graceful stop (loaded by main.ts). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  try {
    await checkSetup(config);
    const app = await createApp(config);
    stopGracefullyOn(['SIGTERM', 'SIGINT'], app, config.shutdownGraceMs);
    await app.listen(config.port, config.host).catch((err: unknown) => {
      throw busyPort(err, config) ?? err;
    });
  } catch (err) {
    if (err instanceof SetupError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(EXIT_SETUP);
    }
    throw err;
  }
  new Logger('Tracker').log(`Serving http://${config.host}:${config.port}/rest (database: ${withoutPassword(config.databaseUrl)})`);
}

/**
 * What the operator must fix, found before the app is made: a port another process holds (else Nest would report
 * the app started, run the migrations, then fail on listen), and a MySQL/MariaDB database that does not exist
 * (else TypeORM would retry for 28 s), created instead with TRACKER_CREATE_DATABASE=1.
 */
async function checkSetup(config: AppConfig): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer().once('error', (err) => reject(busyPort(err, config) ?? err));
    probe.listen(config.port, config.host, () => probe.close(() => resolve()));
  });
  try {
    const { created } = await ensureDatabaseExists(config.databaseUrl, config.createDatabase);
    if (created) new Logger('Tracker').log(`Created the database of ${withoutPassword(config.databaseUrl)} (TRACKER_CREATE_DATABASE=1)`);
  } catch (err) {
    throw err instanceof MissingDatabaseError ? new SetupError(err.message) : err;
  }
}

function busyPort(err: unknown, config: AppConfig): SetupError | undefined {
  if ((err as NodeJS.ErrnoException)?.code !== 'EADDRINUSE') return undefined;
  return new SetupError(`Port ${config.port} on ${config.host} is already in use: stop what holds it or set PORT to another port.`);
}

/**
 * A graceful stop: app.close() stops accepting connections, lets in-flight requests finish (Fastify), lets the mail
 * worker finish its claimed message and closes the pools (the modules' destroy hooks); then the process exits 0.
 * Past the grace period it exits 1 with what was left. A second signal does not restart the stop.
 */
function stopGracefullyOn(signals: readonly NodeJS.Signals[], app: INestApplication, graceMs: number): void {
  const logger = new Logger('Tracker');
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: stopping (in-flight requests get up to ${graceMs} ms)`);
    setTimeout(() => {
      logger.error(`Still busy after ${graceMs} ms: exiting anyway`);
      process.exit(1);
    }, graceMs).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error(`Stopping failed: ${(err as Error)?.stack ?? String(err)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, stop);
}

void main();
