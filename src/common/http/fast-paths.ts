import { UseInterceptors, type Type } from '@nestjs/common';
import { COMPANION_READ, type CompanionReadType } from './companion-read.js';
import { KEPT_ANSWER, type KeptAnswerType } from './kept-answer.js';
import { PRESUMES_CALLER, PresumedCallerInterceptor } from './presumed-caller.js';
import { RouteOption } from './route-option.js';

/**
 * What the request machinery does for a route besides running its handler. Declared for the routes in one table
 * (src/fast-paths.ts), never on a handler: a controller says what a route does, the table which machinery serves it.
 */
export interface RouteFastPaths {
  /**
   * A write for the caller its credential named last on this instance, the credential checked in the write's one
   * transaction (PresumedCaller, presumed-caller.ts): the handler must write nothing outside that transaction.
   */
  presumesCaller?: true;
  /** A read sent with the caller's credential statement (CompanionRead, companion-read.ts). */
  companion?: CompanionReadType;
  /** The answer given by the request hook from what is kept (KeptAnswer, kept-answer.ts). */
  keptAnswer?: KeptAnswerType;
}

/** One row of the table: a controller's handler and its fast paths. */
export interface FastPathRoute {
  controller: Type;
  handler: string;
  paths: RouteFastPaths;
}

/** A row of the table, the handler's name checked against its controller by the compiler. */
export function fastPath<T>(controller: Type<T>, handler: keyof T & string, paths: RouteFastPaths): FastPathRoute {
  return { controller, handler, paths };
}

/** Handlers already given their fast paths: an application made again in one process (the tests) finds them done. */
const declared = new WeakSet<object>();

/**
 * Gives each handler of the table its route config (read by the request hook as Nest declares the route) and, when
 * it presumes its caller, the interceptor that settles the caller after it. app.factory calls this before Nest
 * scans the modules: Nest makes the interceptors a handler names as it scans, and silently skips one named later.
 */
export function declareFastPaths(routes: readonly FastPathRoute[]): void {
  for (const { controller, handler, paths } of routes) {
    const prototype = controller.prototype as object;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, handler);
    if (typeof descriptor?.value !== 'function') throw new Error(`fast paths: ${controller.name}.${handler} is no handler`);
    if (declared.has(descriptor.value as object)) continue;
    declared.add(descriptor.value as object);
    RouteOption({
      ...(paths.presumesCaller ? { [PRESUMES_CALLER]: true } : {}),
      ...(paths.companion ? { [COMPANION_READ]: paths.companion } : {}),
      ...(paths.keptAnswer ? { [KEPT_ANSWER]: paths.keptAnswer } : {}),
    })(prototype, handler, descriptor);
    if (paths.presumesCaller) UseInterceptors(PresumedCallerInterceptor)(prototype, handler, descriptor);
  }
}
