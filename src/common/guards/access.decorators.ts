import { RouteOption, type RouteOptions } from '../http/route-option.js';

/** The route config key of a handler's AccessRule (read by the AccessGuard and by the request hook). */
export const ACCESS_RULE = 'trackerAccessRule';

/** What a handler demands of its caller; checked by the AccessGuard before the handler runs. */
export interface AccessRule {
  /** Anonymous callers get 410 login_required. */
  login?: boolean;
  /** Membership of a group (by name), else 304 auth_failure naming the action and object. */
  group?: { name: string; action: string; object: string };
  /** Still answers anonymous callers when the `requirelogin` parameter is on (version, timezone, parameters, login). */
  openWithRequireLogin?: boolean;
  /**
   * The caller is resolved without the request's API key (Bugzilla 5.0.6 answers version and timezone so: a bad key
   * is no error there); a token, a login and password are still checked.
   */
  ignoresApiKey?: boolean;
  /** An operational endpoint (health): no parameters, no caller, no database read before the handler. */
  operational?: boolean;
}

/** The route's rule; the default one (any caller, `requirelogin` applies) when it declares none. */
export function accessRuleOf(options: RouteOptions): AccessRule {
  return ((options as Record<string, unknown> | undefined)?.[ACCESS_RULE] as AccessRule | undefined) ?? {};
}

const rule = (declared: AccessRule) => RouteOption({ [ACCESS_RULE]: declared });

export const RequireLogin = () => rule({ login: true });

/** `@RequireGroup('editusers', 'create', 'users')`: anonymous callers get 410 first when `login` is set too. */
export const RequireGroup = (name: string, action: string, object: string, options: { login?: boolean } = {}) =>
  rule({ group: { name, action, object }, login: options.login });

export const OpenWithRequireLogin = (options: { ignoresApiKey?: boolean } = {}) =>
  rule({ openWithRequireLogin: true, ignoresApiKey: options.ignoresApiKey });

/**
 * For the endpoints of operators and orchestrators (liveness, readiness): the request hook resolves no caller for
 * them (liveness must answer while the database is down) and the guard lets them through.
 */
export const Operational = () => rule({ operational: true });
