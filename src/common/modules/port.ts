import type { DynamicModule, InjectionToken, Type } from '@nestjs/common';

/**
 * A module as the composition root imports it to fill a lower module's port: `token` (declared by the lower
 * module, which cannot import the upper one) is provided by the module's `implementation` and made visible
 * app-wide, and nothing else of the module is but the `sharedUpward` services a module above reads (importing the
 * module again would make a second instance of it: Nest tells a dynamic module from its static self). Example:
 * `MailModule.forBug()` provides the bug's BUG_MAILER, and MailService for the webhooks.
 */
export function providingPorts(
  module: Type,
  ports: ReadonlyArray<{ token: InjectionToken; implementation: Type }>,
  sharedUpward: readonly Type[] = [],
): DynamicModule {
  return {
    module,
    global: true,
    providers: ports.map(({ token, implementation }) => ({ provide: token, useExisting: implementation })),
    exports: [...ports.map(({ token }) => token), ...sharedUpward],
  };
}
