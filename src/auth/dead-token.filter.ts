import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Errors, TrackerError } from '../common/errors/index.js';
import { sendError } from '../common/http/exception.filter.js';

/**
 * For logout and valid_login only: a login token that is no longer valid (logged out, expired, foreign, malformed)
 * is not an error there. The seed says logout with a token not in use does nothing, and valid_login answers false
 * (5.0.6 answers 32000 to both; routes.md). The access guard rejects such a token before the handler runs, so the
 * answer is given here; every other error is rendered as usual.
 */
@Catch(TrackerError)
export class DeadTokenAnswer implements ExceptionFilter {
  constructor(private readonly answer: Record<string, unknown>) {}

  catch(error: TrackerError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (error.definition !== Errors.INVALID_COOKIES_OR_TOKEN) return sendError(reply, error);
    void reply.status(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(this.answer));
  }
}
