import { IntersectionType as intersectionOfInputs, OmitType as inputWithout } from '@nestjs/mapped-types';
import type * as Swagger from '@nestjs/swagger';

/*
 * The OpenAPI decorators the service's controllers and DTOs use, with @nestjs/swagger's signatures, applied when the
 * document is first asked for rather than at start (issue 13). Loading @nestjs/swagger costs ~20 MB of resident
 * memory and an eighth of a cold start (~560 of its ~2,800 modules), for a document few instances are ever asked for.
 * Each decorator here only records where it was put and with what; `applyOpenApiDecorators` puts the real ones in the
 * same places, in the same order, once @nestjs/swagger is loaded (src/openapi.ts). Import these, never
 * '@nestjs/swagger' (a rule of check:deps).
 */

type Decorator = 'ApiBody' | 'ApiOkResponse' | 'ApiOperation' | 'ApiPropertyOptional' | 'ApiQuery' | 'ApiServiceUnavailableResponse' | 'ApiTags';

interface Placement {
  decorator: Decorator;
  args: unknown[];
  target: object;
  key?: string | symbol;
  descriptor?: PropertyDescriptor;
}

const placements: Placement[] = [];
let swaggerLoaded: typeof Swagger | undefined;

function deferred<D extends Decorator>(decorator: D): (typeof Swagger)[D] {
  const recorder = (...args: unknown[]) => (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    place({ decorator, args, target, key, descriptor });
  };
  return recorder;
}

/** Records a placement; once @nestjs/swagger is loaded (a class defined after the document was asked for), applies it too. */
function place(placement: Placement): void {
  placements.push(placement);
  if (swaggerLoaded) applyPlacement(swaggerLoaded, placement);
}

function applyPlacement(swagger: typeof Swagger, { decorator, args, target, key, descriptor }: Placement): void {
  const decorate = (swagger[decorator] as (...a: unknown[]) => (t: object, k?: string | symbol, d?: PropertyDescriptor) => unknown)(...args);
  decorate(target, key, descriptor);
}

export const ApiBody = deferred('ApiBody');
export const ApiOkResponse = deferred('ApiOkResponse');
export const ApiOperation = deferred('ApiOperation');
export const ApiPropertyOptional = deferred('ApiPropertyOptional');
export const ApiQuery = deferred('ApiQuery');
export const ApiServiceUnavailableResponse = deferred('ApiServiceUnavailableResponse');
export const ApiTags = deferred('ApiTags');
export type ApiPropertyOptions = Swagger.ApiPropertyOptions;

type Type<T> = new (...args: any[]) => T; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * @nestjs/swagger's IntersectionType: the input rules of the classes (@nestjs/mapped-types, which @nestjs/swagger's
 * helper also uses), and the OpenAPI properties of each, given to the new class.
 */
export const IntersectionType: typeof intersectionOfInputs = (...classRefs: Type<unknown>[]) => {
  const type = (intersectionOfInputs as (...refs: Type<unknown>[]) => Type<unknown>)(...classRefs);
  for (const classRef of classRefs) givePropertiesOf(classRef, type, () => true);
  return type as never;
};

/** @nestjs/swagger's OmitType: the input rules and the OpenAPI properties of the class but the named ones. */
export const OmitType: typeof inputWithout = <T, K extends keyof T>(classRef: Type<T>, keys: readonly K[]) => {
  const type = inputWithout(classRef, keys);
  givePropertiesOf(classRef, type, (key) => !keys.includes(key as K));
  return type;
};

/** Puts the property decorators found on `from` and the classes it extends (the furthest first) on `to` too. */
function givePropertiesOf(from: Type<unknown>, to: Type<unknown>, kept: (key: string | symbol) => boolean): void {
  const chain: object[] = [];
  for (let prototype: object | null = from.prototype as object; prototype && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype) as object | null) {
    chain.unshift(prototype);
  }
  for (const prototype of chain) {
    for (const placement of placements.filter((p) => p.target === prototype && p.key !== undefined && p.descriptor === undefined && kept(p.key))) {
      place({ ...placement, target: to.prototype as object });
    }
  }
}

/** Puts @nestjs/swagger's decorators where the recorded ones were, once per process (the classes are shared). */
export function applyOpenApiDecorators(swagger: typeof Swagger): void {
  if (swaggerLoaded) return;
  swaggerLoaded = swagger;
  for (const placement of placements) applyPlacement(swagger, placement);
}
