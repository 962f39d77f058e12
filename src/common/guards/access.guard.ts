import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Errors, TrackerError } from '../errors/index.js';
import { credentialsRefusal, requestContext } from '../http/request-context.js';
import { ACCESS_RULE, type AccessRule } from './access.decorators.js';

/**
 * Authorises every routed request, reading the caller the request hook resolved: refuses credentials that named no
 * caller, then enforces `requirelogin` and the handler's AccessRule.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const rule = this.reflector.get<AccessRule | undefined>(ACCESS_RULE, context.getHandler()) ?? {};
    if (rule.operational) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const refusal = credentialsRefusal(request);
    if (refusal) throw refusal.error;
    const { caller } = requestContext(request);

    if (!caller.isLoggedIn && caller.parameters.bool('requirelogin') && !rule.openWithRequireLogin) {
      throw TrackerError.of(Errors.LOGIN_REQUIRED);
    }
    if (rule.login && !caller.isLoggedIn) throw TrackerError.of(Errors.LOGIN_REQUIRED);
    if (rule.group && !caller.inGroup(rule.group.name)) {
      throw TrackerError.of(Errors.AUTH_FAILURE, { group: rule.group.name, action: rule.group.action, object: rule.group.object });
    }
    return true;
  }
}
