import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';

/**
 * `@RouteOption({ key: value })` on a handler: adds keys to its Fastify route config, which Nest hands to Fastify
 * when it declares the route (`route.config` in an onRoute hook, `request.routeOptions.config` per request). Nest's
 * own RouteConfig replaces the whole config, so two of them on one handler would silently lose one: every piece of
 * route config in this service goes through this decorator instead.
 */
export const RouteOption = (options: Readonly<Record<string, unknown>>): MethodDecorator => (_target, _key, descriptor) => {
  const handler = descriptor.value as object;
  const declared = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined;
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...declared, ...options }, handler);
  return descriptor;
};

/** A route's config as Fastify holds it (route.config, request.routeOptions.config). */
export type RouteOptions = object | undefined;
