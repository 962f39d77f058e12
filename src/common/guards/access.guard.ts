import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Errors, TrackerError } from '../errors/index.js';
import { FieldSelection } from '../fields/field-selection.js';
import { RequestParams } from '../http/request-params.js';
import { setRequestContext } from '../http/request-context.js';
import { validateCallback } from '../http/output-format.js';
import { ACCESS_RULE, type AccessRule } from './access.decorators.js';
import { CALLER_RESOLVER, type CallerResolver } from './caller-resolver.js';

/**
 * The front door of every routed request: merges the parameters, resolves the caller once, enforces
 * `requirelogin` and the handler's AccessRule, and leaves the RequestContext for everything after it.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector, @Inject(CALLER_RESOLVER) private readonly resolver: CallerResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const body = request.method === 'GET' || request.method === 'HEAD'
      ? undefined
      : RequestParams.parseBody(request.body as string | undefined, request.headers['content-type']);
    const params = RequestParams.merge(request.query as Record<string, unknown>, body);
    validateCallback(params.string('callback'));
    const caller = await this.resolver.resolve(params.credentials(request.headers), request.ip);
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const selection = new FieldSelection(params.fieldList('include_fields'), params.fieldList('exclude_fields'));
    setRequestContext(request, { params, caller, selection, now, ip: request.ip });

    const rule = this.reflector.get<AccessRule | undefined>(ACCESS_RULE, context.getHandler()) ?? {};
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
