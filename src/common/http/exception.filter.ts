import { Catch, HttpException, Logger, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Errors, TrackerError, isDatabaseUnavailable } from '../errors/index.js';
import { errorBody } from './error-body.js';
import { redactCredentials } from './redact.js';

const logger = new Logger('Errors');

/** Maps anything thrown while serving a request to a TrackerError of the catalogue. */
export function toTrackerError(exception: unknown, request: { method: string; url: string }): TrackerError {
  if (exception instanceof TrackerError) return exception;
  const path = request.url.split('?')[0];
  if (exception instanceof NotFoundException) return TrackerError.of(Errors.REST_INVALID_RESOURCE, { method: request.method, path });
  const fastifyCode = (exception as { code?: string })?.code;
  const status = exception instanceof HttpException ? exception.getStatus() : (exception as { statusCode?: number })?.statusCode;
  if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return TrackerError.of(Errors.BODY_TOO_LARGE, { limit: (exception as { limit?: number }).limit ?? 'the configured' });
  }
  if (fastifyCode === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fastifyCode === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fastifyCode === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return TrackerError.of(Errors.JSON_INVALID_PARAMS, { reason: (exception as Error).message });
  }
  if (status === 404) return TrackerError.of(Errors.REST_INVALID_RESOURCE, { method: request.method, path });
  if (isDatabaseUnavailable(exception)) {
    logger.warn(redactCredentials(`${request.method} ${path}: database unavailable: ${(exception as Error)?.message ?? String(exception)}`));
    return TrackerError.of(Errors.DATABASE_UNAVAILABLE);
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return TrackerError.of(Errors.JSON_INVALID_PARAMS, { reason: (exception as Error).message });
  }
  logger.error(redactCredentials(`${request.method} ${path}: ${(exception as Error)?.stack ?? String(exception)}`));
  return TrackerError.of(Errors.INTERNAL);
}

/** Clients wait this long before trying again when the service answers 503. */
const RETRY_AFTER_SECONDS = '1';

export function sendError(reply: FastifyReply, error: TrackerError): void {
  if (error.httpStatus === 503) void reply.header('Retry-After', RETRY_AFTER_SECONDS);
  // Also here: an error Fastify raises before routing (frameworkErrors) is sent without the onSend hook that sets it.
  void reply.header('X-Content-Type-Options', 'nosniff');
  void reply.status(error.httpStatus).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(errorBody(error)));
}

/** The one exception filter: every error leaves as `{error, code, message, documentation}` with its HTTP status. */
@Catch()
export class TrackerExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    sendError(http.getResponse<FastifyReply>(), toTrackerError(exception, request));
  }
}
