import { Logger, type CallHandler, type ExecutionContext } from '@nestjs/common';
import { lastValueFrom, defer } from 'rxjs';
import { PresumedCallerInterceptor } from './presumed-caller.js';
import { requestContext, setRequestContext, type RequestContext } from './request-context.js';
import type { PresumedCaller } from '../guards/caller-resolver.js';
import type { Caller } from '../caller.js';

/** A write whose presumed caller's transaction did not commit: what the interceptor answers, and who each run was for. */
async function settle(presumed: PresumedCaller, firstRun: () => Promise<unknown>): Promise<{ answer: unknown; runs: Array<Caller | undefined> }> {
  const request = { method: 'POST', url: '/rest/bug', routeOptions: { config: {}, url: '/rest/bug' } };
  setRequestContext(request, { caller: presumed.caller, presumed } as unknown as RequestContext);
  const runs: Array<Caller | undefined> = [];
  const next: CallHandler = {
    handle: () => defer(async () => {
      const context = requestContext(request);
      runs.push(context.presumed ? undefined : context.caller);
      return context.presumed ? firstRun() : 'committed';
    }),
  };
  const context = { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  return { answer: await lastValueFrom(new PresumedCallerInterceptor().intercept(context, next)).catch((error: unknown) => error), runs };
}

beforeAll(() => Logger.overrideLogger(false));

describe('PresumedCallerInterceptor', () => {
  const caller = { id: 7, settingsMark: 3, isLoggedIn: true, inGroup: () => true } as unknown as Caller;
  const overflow = Object.assign(new Error("BIGINT UNSIGNED value is out of range in '~0 + !exists(…)'"), { errno: 1690 });

  it('runs the handler again when the condition failed, even if the credential still reads as the presumed caller', async () => {
    const presumed: PresumedCaller = { caller, condition: { statement: { sql: '', params: [] }, met: false }, resolve: async () => caller };
    const { answer, runs } = await settle(presumed, async () => {
      presumed.condition.failed = true;
      throw overflow;
    });
    expect(answer).toBe('committed');
    expect(runs).toEqual([undefined, caller]);
  });

  it('keeps the outcome of a run that failed for another reason, for the same caller', async () => {
    const refusal = new Error('refused by a rule');
    const presumed: PresumedCaller = { caller, condition: { statement: { sql: '', params: [] }, met: false }, resolve: async () => caller };
    const { answer, runs } = await settle(presumed, () => Promise.reject(refusal));
    expect(answer).toBe(refusal);
    expect(runs).toEqual([undefined]);
  });
});
