import type { CompanionRequest } from './companion-read.js';
import type { RawJson } from './raw-json.js';
import type { RequestContext } from './request-context.js';

/**
 * A route's whole answer, given by the request hook itself (issue 13) — for a route with a companion read, once that
 * read was confirmed for the caller: a warm read then skips Nest's pipeline (guard, parameter decorators, DTO
 * validation, interceptors), about a sixth of the cost of a kept Get Bug and a third of Get Version's. The hook has
 * already checked the route's access rule (accessRefusal, the guard's own rule); the answer must be exactly what the
 * route's handler would send, so a KeptAnswer builds the handler's DTO (toDto) and calls the handler's own service
 * method. Errors it throws are sent as the global exception filter sends them: a route with exception filters of
 * its own must not name one.
 */
export interface KeptAnswer {
  /** The answer as JSON text (with its ETag, when the answer is kept with it). */
  answer(context: RequestContext, request: CompanionRequest): Promise<RawJson>;
}

/**
 * The Fastify route config key under which a GET route (with a companion read, or whose answer needs none) names its
 * KeptAnswer (`keptAnswer` in fast-paths.ts).
 */
export const KEPT_ANSWER = 'trackerKeptAnswer';

export type KeptAnswerType = abstract new (...args: never[]) => KeptAnswer;
