import { SetMetadata } from '@nestjs/common';

export const ACCESS_RULE = 'tracker:access-rule';

/** What a handler demands of its caller; checked by the AccessGuard before the handler runs. */
export interface AccessRule {
  /** Anonymous callers get 410 login_required. */
  login?: boolean;
  /** Membership of a group (by name), else 304 auth_failure naming the action and object. */
  group?: { name: string; action: string; object: string };
  /** Still answers anonymous callers when the `requirelogin` parameter is on (version, timezone, parameters, login). */
  openWithRequireLogin?: boolean;
}

const merge = (rule: AccessRule) => SetMetadata(ACCESS_RULE, rule);

export const RequireLogin = () => merge({ login: true });

/** `@RequireGroup('editusers', 'create', 'users')`: anonymous callers get 410 first when `login` is set too. */
export const RequireGroup = (name: string, action: string, object: string, options: { login?: boolean } = {}) =>
  merge({ group: { name, action, object }, login: options.login });

export const OpenWithRequireLogin = () => merge({ openWithRequireLogin: true });
