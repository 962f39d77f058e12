import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Errors, TrackerError } from '../errors/index.js';
import { bucketOf, noteTakenToken, setRateHeaders, type RateLimiter } from './rate-limit.js';
import { FieldSelection } from '../fields/field-selection.js';
import type { CallerResolver } from '../guards/caller-resolver.js';
import { accessRuleOf, type AccessRule } from '../guards/access.decorators.js';
import { accessRefusal } from '../guards/access.guard.js';
import { requestTime, type Clock } from '../time/clock.js';
import { validateCallback } from './output-format.js';
import { RequestParams } from './request-params.js';
import { setCredentialsRefusal, setRequestContext, type RequestContext } from './request-context.js';
import { COMPANION_READ, type CompanionRead, type CompanionReadType } from './companion-read.js';
import { KEPT_ANSWER, type KeptAnswer, type KeptAnswerType } from './kept-answer.js';
import { sendError, toTrackerError } from './exception.filter.js';
import { sendsRawJson } from './raw-json.js';
import { PRESUMES_CALLER } from './presumed-caller.js';
import type { Admission } from './admission.js';

/**
 * The first step of a routed request, before any guard: merges the parameters, resolves the caller once, reads the
 * clock once and leaves the RequestContext for everything after it. A malformed request (body, callback) is refused
 * here; credentials that name no caller are kept for the access guard to refuse (see setCredentialsRefusal). A route
 * with a KeptAnswer may be answered right here, around Nest's pipeline (once its companion read, if it has one, was
 * confirmed).
 *
 * The hook is attached to each route declared after this call. app.factory calls it just before Nest declares the
 * controllers' routes, so the OpenAPI document and unknown paths (32614) are served as before, without it.
 */
export function installRequestHook(fastify: FastifyInstance, dependencies: RequestHookDependencies): void {
  const { admission } = dependencies;
  // Declared, so that every request object has the same shape.
  if (admission) fastify.decorateRequest(ADMITTED, false);
  fastify.addHook('onRoute', (route) => {
    const config = route.config as Record<string, unknown> | undefined;
    const rule = accessRuleOf(config);
    if (rule.operational) return;
    const declared = route.preHandler === undefined ? [] : [route.preHandler].flat();
    // Instances are taken as the route is declared: a provider missing from its module fails the start.
    const companionType = config?.[COMPANION_READ] as CompanionReadType | undefined;
    const answerType = config?.[KEPT_ANSWER] as KeptAnswerType | undefined;
    const keptAnswer = answerType && dependencies.fastPaths ? { answerer: dependencies.instanceOf(answerType), rule } : undefined;
    const presumes = config?.[PRESUMES_CALLER] === true ? rule : undefined;
    route.preHandler = [...declared, requestReader(dependencies, rule, companionType && dependencies.instanceOf(companionType), keptAnswer, presumes)];
    // Every answer goes through onSend, errors and the hook's own answers included: the request's work is done.
    if (admission) route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), leaving(admission)];
  });
}

/** Set on a request that holds one of the admission's slots, until its answer is sent. */
const ADMITTED = Symbol('admitted');
type Admitted = { [ADMITTED]: boolean };

function leaving(admission: Admission) {
  return (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void => {
    if ((request as unknown as Admitted)[ADMITTED]) {
      (request as unknown as Admitted)[ADMITTED] = false;
      admission.leave();
    }
    done(null, payload);
  };
}

/**
 * Takes one of the admission's slots for the request: true when taken, false when refused (the refusal is sent), a
 * promise of either when the request waits for its turn. No promise when it needs none: most requests wait for none.
 */
function admit(admission: Admission, request: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean> {
  let wait: Promise<void> | undefined;
  try {
    wait = admission.enter();
  } catch (error) {
    return refused(request, reply, error);
  }
  if (!wait) return taken(request);
  return wait.then(() => taken(request), (error: unknown) => refused(request, reply, error));
}

function taken(request: FastifyRequest): true {
  (request as unknown as Admitted)[ADMITTED] = true;
  return true;
}

function refused(request: FastifyRequest, reply: FastifyReply, error: unknown): false {
  sendError(reply, toTrackerError(error, request));
  return false;
}

interface RequestHookDependencies {
  resolver: CallerResolver;
  clock: Clock;
  /** Present when rate limits are on (TRACKER_RATE_LIMIT_*): checked before the caller is resolved. */
  limiter?: RateLimiter;
  /** AppConfig.fastPaths: off, no route is answered here (its kept answer: fast-paths.ts); each goes through Nest's pipeline. */
  fastPaths: boolean;
  /** Present unless TRACKER_MAX_IN_FLIGHT=0: a request waits here for its turn before anything else. */
  admission?: Admission;
  /** The application's instance of a provider a route names (its companion read, its kept answer: fast-paths.ts). */
  instanceOf: <T>(type: abstract new (...args: never[]) => T) => T;
}

function requestReader(
  { resolver, clock, limiter, admission }: RequestHookDependencies,
  rule: AccessRule,
  companion: CompanionRead<unknown> | undefined,
  keptAnswer: { answerer: KeptAnswer; rule: AccessRule } | undefined,
  presumes: AccessRule | undefined,
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (admission) {
      let admitted = admit(admission, request, reply);
      if (typeof admitted !== 'boolean') admitted = await admitted;
      if (!admitted) return reply;
    }
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    const body = isRead ? undefined : RequestParams.parseBody(request.body as string | undefined, request.headers['content-type']);
    const params = RequestParams.merge(request.query as Record<string, unknown>, body);
    const credentials = params.credentials(request.headers);
    const resolving = rule.ignoresApiKey ? { ...credentials, apiKey: undefined } : credentials;
    if (limiter) {
      const kind = isRead ? 'read' : 'write';
      const bucket = bucketOf(kind, credentials, request.ip);
      const decision = await limiter.take(kind, bucket);
      if (decision) setRateHeaders(reply, decision);
      if (decision && !decision.allowed) throw TrackerError.of(Errors.RATE_LIMITED, { kind, seconds: decision.retryAfterSeconds });
      if (decision && isRead && request.headers['if-none-match'] !== undefined) noteTakenToken(request, () => limiter.giveBack(kind, bucket));
    }
    validateCallback(params.string('callback'));
    const begin = (resolved: Pick<RequestContext, 'caller' | 'companion' | 'presumed'>): RequestContext => {
      const selection = FieldSelection.of(params.fieldList('include_fields'), params.fieldList('exclude_fields'));
      const context = { params, ...resolved, selection, now: requestTime(clock), ip: request.ip };
      setRequestContext(request, context);
      return context;
    };
    // A presumed caller the route would refuse is not presumed: the refusal must be the credential's current one.
    const presumed = presumes && resolver.presume(resolving, request.ip);
    if (presumed && !accessRefusal(presumed.caller, presumes)) {
      try {
        begin({ caller: presumed.caller, presumed });
        return undefined;
      } catch {
        // A malformed field list: the credential is checked first, as on every request, and the list fails after it.
      }
    }
    const ask = companion && { read: companion, request: { path: request.params as Record<string, string>, params } };
    let resolved: Awaited<ReturnType<CallerResolver['resolve']>>;
    try {
      resolved = await resolver.resolve(resolving, request.ip, ask);
    } catch (error) {
      setCredentialsRefusal(request, error);
      return undefined;
    }
    const context = begin(resolved);
    // A route with a companion read is answered here only once that read was confirmed for the caller.
    if (!keptAnswer || (ask && !resolved.companion) || accessRefusal(resolved.caller, keptAnswer.rule)) return undefined;
    try {
      const answer = await keptAnswer.answerer.answer(context, ask?.request ?? { path: request.params as Record<string, string>, params });
      sendsRawJson(reply, answer);
      return reply.send(answer.text);
    } catch (error) {
      sendError(reply, toTrackerError(error, request));
      return reply;
    }
  };
}
