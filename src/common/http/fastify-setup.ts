import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { LogController, type FastifyHttpOptions, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { Errors, TrackerError } from '../errors/index.js';
import { sendError, toTrackerError } from './exception.filter.js';
import { errorBody } from './error-body.js';
import { httpDuration, httpRequests } from '../metrics/metrics.js';
import { peekRequestContext } from './request-context.js';
import { etagMatches, etagOf, htmlBody, isValidCallback, JSON_TYPE, jsonpBody, negotiate } from './output-format.js';
import { giveBackTakenToken } from './rate-limit.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
const CORS_ALLOW_HEADERS = 'origin, content-type, accept, x-requested-with, authorization, x-bugzilla-api-key, x-bugzilla-token, x-bugzilla-login, x-bugzilla-password, x-tracker-api-key, x-tracker-token, x-tracker-login, x-tracker-password';

/**
 * Errors Fastify and Node's HTTP parser raise before any route runs, in the service's envelope with a numeric code
 * (their own bodies have string codes, and FST_ERR_BAD_URL's message repeats the URL, credentials included).
 */
export function edgeErrorHandlers(): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors: (error, request, reply) => {
      const code = (error as { code?: string }).code;
      const coded = code === 'FST_ERR_BAD_URL' ? TrackerError.of(Errors.BAD_URL)
        : code === 'FST_ERR_MAX_PARAM_LENGTH' ? TrackerError.of(Errors.URL_TOO_LONG)
          : toTrackerError(error, { method: request.method, url: request.url });
      sendError(reply, coded);
    },
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      // A reset connection has nobody left to answer.
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const coded = error.code === 'HPE_HEADER_OVERFLOW' ? TrackerError.of(Errors.HEADERS_TOO_LARGE, { limit: '16 KB' })
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? TrackerError.of(Errors.REQUEST_TIMEOUT)
          : TrackerError.of(Errors.BAD_REQUEST);
      const body = JSON.stringify(errorBody(coded));
      if (socket.writable) {
        socket.write(`HTTP/1.1 ${coded.httpStatus} ${STATUS_CODES[coded.httpStatus]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `X-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      }
      socket.destroy(error);
    },
  };
}

/**
 * A deadline for receiving a whole request, headers and body: Fastify leaves Node's off (requestTimeout 0), so a
 * body sent a byte at a time held its connection for ever. Past it Node raises ERR_HTTP_REQUEST_TIMEOUT, answered 408
 * by clientErrorHandler above, and closes the connection. Given to the server as it is made: Node 24 applies a
 * requestTimeout set later (as Fastify sets its own) to the headers only. Node looks for expired requests every
 * connectionsCheckingInterval (30 s by default): a quarter of the deadline here, at most a second.
 */
export function requestDeadline(timeoutMs: number): Pick<FastifyHttpOptions<Server>, 'requestTimeout' | 'http'> {
  return {
    requestTimeout: timeoutMs,
    http: { requestTimeout: timeoutMs, connectionsCheckingInterval: Math.min(1000, Math.ceil(timeoutMs / 4)) },
  };
}

/**
 * Fastify's request logging, reduced to one line per request when it completes: method, route template (never the
 * URL: its query may carry credentials), status, duration and caller id, beside the request id of the child logger.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // The app's logger is pino (createLog), whose children answer isLevelEnabled; skip building the line if unused.
    if (!(request.log as Logger).isLevelEnabled('info')) return;
    request.log.info({
      method: request.method, route: request.routeOptions.url ?? '(no route)', status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10, caller: peekRequestContext(request)?.caller.id,
    }, 'request');
  }
}

/** The request id: the client's `X-Request-Id` when it is a sane token, else a new UUID; returned in the header. */
export function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && /^[\w.:-]{1,128}$/.test(sent) ? sent : randomUUID();
}

/**
 * The HTTP edge, shared by every route: bodies are read as text (RequestParams parses them, so a bad body gets a
 * coded error and any Content-Type is accepted), OPTIONS answers with the route's methods, and every response is rendered in the negotiated format (JSON, JSONP, HTML)
 * with Vary, CORS, nosniff and ETag headers.
 */
export function configureHttp(fastify: FastifyInstance, options: { metrics: boolean }): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // A callback hook, not an async one: it runs on every request, and only OPTIONS needs it.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS') {
      done();
      return;
    }
    const url = request.url.split('?')[0];
    const allowed = METHODS.filter((method) => fastify.findRoute({ method, url }));
    if (!allowed.length) {
      sendError(reply, TrackerError.of(Errors.REST_INVALID_RESOURCE, { method: request.method, path: url }));
      return;
    }
    void reply.status(200).header('Allow', allowed.join(', ')).header('Access-Control-Allow-Methods', allowed.join(', ')).send('');
  });

  // A callback hook, as the one above: an async one costs every response a promise and its ticks.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const rendered = renderOutput(request, reply, payload);
    const givingBack = reply.statusCode === 304 ? giveBackTakenToken(request) : undefined;
    if (givingBack) void givingBack.then(() => done(null, rendered));
    else done(null, rendered);
  });
  // Only when /metrics is served: a hook per request is not free on the fastest routes.
  if (options.metrics) {
    fastify.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? '(no route)';
      httpRequests.inc({ method: request.method, route, status: reply.statusCode });
      httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });
  }

}

function renderOutput(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  void reply.header('X-Request-Id', request.id);
  void reply.header('Vary', 'Accept');
  void reply.header('Access-Control-Allow-Origin', '*');
  void reply.header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
  // Every answer is what its Content-Type says: a browser must not guess another type (JSON read as HTML or script).
  void reply.header('X-Content-Type-Options', 'nosniff');
  // The seed answers every success with 200, creates included (routes.md, "Success status").
  if (reply.statusCode === 201) void reply.status(200);
  const contentType = String(reply.getHeader('content-type') ?? '');
  if (typeof payload !== 'string' || !contentType.startsWith('application/json')) return payload;

  const query = request.query as Record<string, unknown> | undefined;
  const callback = typeof query?.callback === 'string' ? query.callback : bodyCallback(request);
  let body = payload;
  let type: string;
  if (isValidCallback(callback)) {
    body = jsonpBody(callback, payload);
    type = 'text/javascript; charset=utf-8';
  } else if (callback !== undefined) {
    type = JSON_TYPE; // a bad callback's error is plain JSON
  } else {
    const negotiated = negotiate(request.headers.accept);
    if (negotiated === 'text/html') body = htmlBody(payload);
    type = `${negotiated}; charset=utf-8`;
  }
  void reply.header('content-type', type);

  // HEAD answers with GET's headers (RFC 9110), its ETag too: for the representation sent, not a kept JSON's.
  if ((request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200) {
    // The text, not its bytes: node writes a text body with the headers in one write (a Buffer takes a writev).
    // An answer kept with its ETag (RawJson.tagged, sendsRawJson) brings it, valid while the body goes out as that JSON.
    const kept = body === payload && type === JSON_TYPE ? reply.getHeader('etag') : undefined;
    const etag = typeof kept === 'string' ? kept : etagOf(body, type);
    void reply.header('ETag', etag);
    if (etagMatches(request.headers['if-none-match'], etag)) {
      void reply.status(304);
      return '';
    }
  }
  return body;
}

/** On non-GET requests the callback may come in the JSON body (misc.md, JSONP). */
function bodyCallback(request: FastifyRequest): string | undefined {
  const raw = peekRequestContext(request)?.params.raw('callback');
  return typeof raw === 'string' ? raw : undefined;
}
