import { SetMetadata, applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';

export const ACCESS_RULE = 'tracker:access-rule';

/** What a handler demands of its caller; checked by the AccessGuard before the handler runs. */
export interface AccessRule {
  /** Anonymous callers get 410 login_required. */
  login?: boolean;
  /** Membership of a group (by name), else 304 auth_failure naming the action and object. */
  group?: { name: string; action: string; object: string };
  /** Still answers anonymous callers when the `requirelogin` parameter is on (version, timezone, parameters, login). */
  openWithRequireLogin?: boolean;
  /** An operational endpoint (health): no parameters, no caller, no database read before the handler. */
  operational?: boolean;
}

/** The Fastify route config key that tells the request hook to leave a route alone (see Operational). */
export const OPERATIONAL_ROUTE = 'trackerOperational';

const merge = (rule: AccessRule) => SetMetadata(ACCESS_RULE, rule);

export const RequireLogin = () => merge({ login: true });

/** `@RequireGroup('editusers', 'create', 'users')`: anonymous callers get 410 first when `login` is set too. */
export const RequireGroup = (name: string, action: string, object: string, options: { login?: boolean } = {}) =>
  merge({ group: { name, action, object }, login: options.login });

export const OpenWithRequireLogin = () => merge({ openWithRequireLogin: true });

/**
 * For the endpoints of operators and orchestrators (liveness, readiness): the request hook resolves no caller for
 * them (liveness must answer while the database is down) and the guard lets them through.
 */
export const Operational = () => applyDecorators(merge({ operational: true }), RouteConfig({ [OPERATIONAL_ROUTE]: true }));
