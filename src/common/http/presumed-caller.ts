import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { accessRuleOf } from '../guards/access.decorators.js';
import { accessRefusal } from '../guards/access.guard.js';
import type { PresumedCaller } from '../guards/caller-resolver.js';
import { requestContext, setRequestContext } from './request-context.js';
import { presumedCallerReruns } from '../metrics/metrics.js';

const log = new Logger('PresumedCaller');

/**
 * The Fastify route config key of a write route that presumes its caller (`presumesCaller` in the fast paths' table,
 * fast-paths.ts): a request with an API key or login token whose caller this instance knows is handled for that
 * caller at once, without the credential's own round trip (the request hook presumes it, PresumedCaller), and the
 * handler passes `ctx.presumed.condition` to the one transaction it writes in. The handler must write nothing outside
 * that transaction: a request that did not commit under the condition is run again when the credential names
 * another caller now (PresumedCallerInterceptor).
 */
export const PRESUMES_CALLER = 'trackerPresumesCaller';

/**
 * Settles a presumed caller after the handler. A commit under the condition proves the caller, whatever followed;
 * otherwise — the handler failed, its transaction failed the condition, or it wrote nothing — the credential is
 * checked the whole way: for the presumed caller the outcome stands, for another one (or none: its refusal is the
 * answer) the handler runs again, as the access guard would have let it. Nothing was committed, so nothing is
 * done twice; but the first run's transaction was sent and rolled back, and on MySQL the ids its INSERTs took (a
 * bug's, a comment's) stay unused. This instance does not presume across a settings change it made itself
 * (CallerResolverService.presume); one made through another instance is only seen by the condition, so such a run
 * again happens once per caller after each, and is logged and counted (tracker_presumed_caller_reruns_total).
 */
@Injectable()
export class PresumedCallerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const presumed = requestContext(request).presumed;
    return presumed ? from(this.settled(request, next, presumed)) : next.handle();
  }

  private async settled(request: FastifyRequest, next: CallHandler, presumed: PresumedCaller): Promise<unknown> {
    let outcome: { answer: unknown } | { error: unknown };
    try {
      outcome = { answer: await lastValueFrom(next.handle()) };
    } catch (error) {
      outcome = { error };
    }
    if (presumed.condition.met) return given(outcome);
    const caller = await presumed.resolve();
    // A failed condition is never the answer: the caller was presumed under what the credential no longer says (a
    // caller resolved from a read behind the primary, say), and the handler runs again for the caller as read now.
    if (caller === presumed.caller && !presumed.condition.failed) return given(outcome);
    const refused = accessRefusal(caller, accessRuleOf(request.routeOptions.config));
    if (refused) throw refused;
    presumedCallerReruns.inc();
    log.log(`${request.method} ${request.routeOptions.url ?? request.url} presumed user ${presumed.caller.id} under settings mark ${presumed.caller.settingsMark}; `
      + `the credential names user ${caller.id} under mark ${caller.settingsMark} now: nothing was committed, and it runs again for them`);
    setRequestContext(request, { ...requestContext(request), caller, presumed: undefined });
    return lastValueFrom(next.handle());
  }
}

function given(outcome: { answer: unknown } | { error: unknown }): unknown {
  if ('error' in outcome) throw outcome.error;
  return outcome.answer;
}
