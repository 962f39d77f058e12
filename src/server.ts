process.env.TZ = 'UTC';
import 'reflect-metadata';
import { Logger, type INestApplication } from '@nestjs/common';
import { ConfigError, loadConfig, withoutPassword } from './config/app-config.js';
import { createApp } from './app.factory.js';

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
  const app = await createApp(config);
  stopGracefullyOn(['SIGTERM', 'SIGINT'], app, config.shutdownGraceMs);
  await app.listen(config.port, config.host);
  new Logger('Tracker').log(`Serving http://${config.host}:${config.port}/rest (database: ${withoutPassword(config.databaseUrl)})`);
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
