import { Global, Module, type DynamicModule } from '@nestjs/common';

/**
 * Where "now" comes from. The request hook reads it once per request (RequestContext.now), so every row of one
 * change carries the same time; workers and commands outside a request inject it too. Tests provide a clock they
 * can move instead of sleeping.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** The request's one timestamp: the clock's time to the second, as the database stores datetimes. */
export function requestTime(clock: Clock): Date {
  return new Date(Math.floor(clock.now().getTime() / 1000) * 1000);
}

/** Provides the Clock everywhere: the system clock, or the one the composition root passes (tests). */
@Global()
@Module({})
export class ClockModule {
  static forRoot(clock: Clock = new SystemClock()): DynamicModule {
    return { module: ClockModule, providers: [{ provide: Clock, useValue: clock }], exports: [Clock] };
  }
}
