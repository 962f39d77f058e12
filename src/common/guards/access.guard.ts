import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../caller.js';
import { Errors, TrackerError } from '../errors/index.js';
import { credentialsRefusal, requestContext } from '../http/request-context.js';
import { accessRuleOf, type AccessRule } from './access.decorators.js';

/**
 * Authorises every routed request, reading the caller the request hook resolved: refuses credentials that named no
 * caller, then enforces `requirelogin` and the route's AccessRule (accessRefusal).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const rule = accessRuleOf(request.routeOptions.config);
    if (rule.operational) return true;
    const refusal = credentialsRefusal(request);
    if (refusal) throw refusal.error;
    const refused = accessRefusal(requestContext(request).caller, rule);
    if (refused) throw refused;
    return true;
  }
}

/** Why the caller may not use a route under `rule`, or undefined when they may (the one statement of the rule). */
export function accessRefusal(caller: Caller, rule: AccessRule): TrackerError | undefined {
  if (!caller.isLoggedIn && caller.parameters.bool('requirelogin') && !rule.openWithRequireLogin) {
    return TrackerError.of(Errors.LOGIN_REQUIRED);
  }
  if (rule.login && !caller.isLoggedIn) return TrackerError.of(Errors.LOGIN_REQUIRED);
  if (rule.group && !caller.inGroup(rule.group.name)) {
    return TrackerError.of(Errors.AUTH_FAILURE, { group: rule.group.name, action: rule.group.action, object: rule.group.object });
  }
  return undefined;
}
