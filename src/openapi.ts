import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TRACKER_VERSION } from './info/info.service.js';

/** The service describes itself at /rest/openapi.json, with a browsable page at /rest/openapi. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Tracker REST API')
    .setDescription('Issue tracker wire-compatible with the Bugzilla 5.0 REST API. Routes marked "beyond Bugzilla 5.0" are Tracker extensions.')
    .setVersion(TRACKER_VERSION)
    .addApiKey({ type: 'apiKey', in: 'query', name: 'Tracker_api_key' }, 'api_key')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-BUGZILLA-API-KEY' }, 'api_key_header')
    .build();
  // Made at the first request for it, not at start: scanning every controller is a tenth of a cold start.
  SwaggerModule.setup('rest/openapi', app, () => SwaggerModule.createDocument(app, config), { jsonDocumentUrl: 'rest/openapi.json' });
}
