import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { INestApplication } from '@nestjs/common';
import { applyOpenApiDecorators } from './common/openapi/openapi-decorators.js';
import { TRACKER_VERSION } from './info/info.service.js';

const DOCUMENT_PATH = 'rest/openapi';
/** What @nestjs/swagger serves for DOCUMENT_PATH: the page and its files, the document as JSON and as YAML. */
const DOCUMENT_ROUTES = [`/${DOCUMENT_PATH}`, `/${DOCUMENT_PATH}/*`, `/${DOCUMENT_PATH}.json`, `/${DOCUMENT_PATH}-yaml`];
/** Headers of the documents server's answer not copied: the service's reply sets them for itself. */
const SET_BY_THE_REPLY = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);

/**
 * The service describes itself at /rest/openapi.json, with a browsable page at /rest/openapi. @nestjs/swagger is
 * loaded, and the document made, at the first request for one of them, not at start (src/common/openapi): it is
 * ~20 MB of memory and an eighth of a cold start. Its routes are declared now, while the app still takes routes; they
 * hand the request to a documents server that @nestjs/swagger sets up as it would the app (its own Fastify
 * instance, never listening), and send its answer back.
 */
export function setupOpenApi(app: NestFastifyApplication): void {
  let documents: Promise<FastifyInstance> | undefined;
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    documents ??= documentsServer(app).catch((error: unknown) => {
      documents = undefined;
      throw error;
    });
    // Asked as GET for a HEAD too: Fastify's HEAD route takes this GET handler's answer and sends its headers only.
    const answered = await (await documents).inject({ method: 'GET', url: request.url, headers: request.headers });
    if (answered.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answered.headers)) if (!SET_BY_THE_REPLY.has(name) && value !== undefined) reply.header(name, value);
    return reply.code(answered.statusCode).send(answered.rawPayload);
  };
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  for (const url of DOCUMENT_ROUTES) fastify.get(url, answer);
}

async function documentsServer(app: NestFastifyApplication): Promise<FastifyInstance> {
  const swagger = await import('@nestjs/swagger');
  applyOpenApiDecorators(swagger);
  const config = new swagger.DocumentBuilder()
    .setTitle('Tracker REST API')
    .setDescription('Issue tracker wire-compatible with the Bugzilla 5.0 REST API. Routes marked "beyond Bugzilla 5.0" are Tracker extensions.')
    .setVersion(TRACKER_VERSION)
    .addApiKey({ type: 'apiKey', in: 'query', name: 'Tracker_api_key' }, 'api_key')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-BUGZILLA-API-KEY' }, 'api_key_header')
    .build();
  const adapter = new FastifyAdapter();
  // SwaggerModule.setup asks the app only for its HTTP adapter (and a global prefix, which it is told not to use).
  const documentsApp = { getHttpAdapter: () => adapter } as unknown as INestApplication;
  swagger.SwaggerModule.setup(DOCUMENT_PATH, documentsApp, () => swagger.SwaggerModule.createDocument(app, config), { jsonDocumentUrl: `${DOCUMENT_PATH}.json` });
  const server = adapter.getInstance<FastifyInstance>();
  await server.ready();
  return server;
}
