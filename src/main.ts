process.env.TZ = 'UTC';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from './config/app-config.js';
import { createApp } from './app.factory.js';

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
  app.enableShutdownHooks();
  await app.listen(config.port, config.host);
  new Logger('Tracker').log(`Serving http://${config.host}:${config.port}/rest (database: ${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')})`);
}

void main();
