import { Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Route config flag (`@RouteOption`) of the routes whose body carries attachment contents. */
export const ATTACHMENT_BODY = 'trackerAttachmentBody';

/** The most any attachment body is read up to, whatever the parameters say (the configuration's own ceiling). */
export const ATTACHMENT_BODY_CEILING = 1024 * 1024 * 1024;

/** Room for the other fields of the request (summary, comment, flags …) beside the encoded contents. */
const OTHER_FIELDS = 1024 * 1024;

/** The body a request may have to carry an attachment of `maxBytes`: base64 is four characters per three bytes. */
export function attachmentBodyLimit(maxBytes: number): number {
  return Math.ceil(maxBytes / 3) * 4 + OTHER_FIELDS;
}

function tooLarge(limit: number): Error {
  return Object.assign(new Error(`Request body is too large (limit ${limit} bytes)`), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', limit });
}

/** The attachment size limit (bytes) of the parameters: as this instance last kept them (if any), and read afresh. */
export interface AttachmentSizeLimit {
  guessed(): number | undefined;
  current(): Promise<number>;
}

/**
 * Create Attachment's body follows `maxattachmentsize` (an administrator changes it at run time) instead of the
 * server-wide body limit: the flagged routes read up to the ceiling, and each request is held to the limit of the
 * parameters of the moment, by its Content-Length before anything is read and by counting for a chunked body.
 * A Content-Length within the limit of the parameters this instance kept last goes on without reading them: the
 * service checks the decoded contents against the caller's current parameters anyway (600), so a stale guess can only
 * let a body be read, never refuse one; a refusal, and a chunked body, wait for the parameters read afresh.
 * Must run before the routes are declared (app.init()).
 */
export function installAttachmentBodyLimit(fastify: FastifyInstance, serverLimit: number, sizeLimit: AttachmentSizeLimit): void {
  fastify.addHook('onRoute', (route) => {
    if (!(route.config as Record<string, unknown> | undefined)?.[ATTACHMENT_BODY]) return;
    route.bodyLimit = ATTACHMENT_BODY_CEILING;
    const hooks = route.preParsing === undefined ? [] : Array.isArray(route.preParsing) ? route.preParsing : [route.preParsing];
    route.preParsing = [...hooks, async (request, _reply, payload) => {
      const bodyLimit = (maxBytes: number) => Math.max(serverLimit, attachmentBodyLimit(maxBytes));
      const declared = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
      const guessed = sizeLimit.guessed();
      const withinGuess = declared !== undefined && guessed !== undefined && declared <= bodyLimit(guessed);
      const limit = bodyLimit(withinGuess ? guessed : await sizeLimit.current());
      if ((declared ?? 0) > limit) throw tooLarge(limit);
      let seen = 0;
      return payload.pipe(new Transform({
        transform(chunk: Buffer, _encoding, done) {
          seen += chunk.length;
          done(seen > limit ? tooLarge(limit) : null, chunk);
        },
      }));
    }];
  });
}
