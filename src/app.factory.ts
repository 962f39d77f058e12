import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { LogLevel } from '@nestjs/common';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { configureHttp } from './common/http/fastify-setup.js';
import { setupOpenApi } from './openapi.js';

/**
 * Builds the HTTP application (main.ts and the e2e tests share it). The e2e tests turn the browsable OpenAPI page
 * off: its static-file plugin needs require() of an ES module, which Jest on Node 20 cannot do.
 */
export async function createApp(config: AppConfig, options: { logger?: LogLevel[] | false; openApiUi?: boolean } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: config.maxBodyBytes, trustProxy: process.env.TRACKER_TRUST_PROXY === '1' });
  configureHttp(adapter.getInstance() as never);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: options.logger ?? ['error', 'warn', 'log'],
    // Bodies are read as text by configureHttp and parsed by RequestParams (coded errors, any Content-Type).
    bodyParser: false,
  });
  app.setGlobalPrefix('rest');
  setupOpenApi(app, { ui: options.openApiUi ?? true });
  await app.init();
  return app;
}
