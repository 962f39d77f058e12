import { Injectable } from '@nestjs/common';
import type { Caller } from '../../common/caller.js';
import { companionValue, type CompanionFound, type CompanionPlan, type CompanionRead, type CompanionRequest } from '../../common/http/companion-read.js';
import { bugIdsNamed } from './bug-visibility.companion.js';
import type { KnownVisibility } from '../bug-visibility.service.js';
import { BugLoaderService, type KnownStamps } from './bug-loader.service.js';

/**
 * Get Bug's companion read: the stamps of the bugs it names by id, with their visibility for the caller, read in the
 * caller's credential statement. A warm Get Bug of a kept bug then costs that one statement (issue 13).
 * References by alias are resolved by the route itself, so a request naming one reads its stamps itself.
 */
@Injectable()
export class BugStampsCompanion implements CompanionRead<KnownStamps> {
  constructor(private readonly loader: BugLoaderService) {}

  /** Whether visibility remembered for an unchanged stamp may stand in for the rule (BugLoaderService.stampsPlan). */
  protected readonly trustRemembered: boolean = true;

  plan(request: CompanionRequest, caller: Caller): CompanionPlan<KnownStamps> | undefined {
    const ids = bugIdsNamed(request);
    return ids && this.loader.stampsPlan(ids, caller, { trustRemembered: this.trustRemembered });
  }
}

/**
 * The companion read of routes that write to the bugs they name (Create Comment, Create Attachment): their stamps,
 * always with the visibility rule in the statement. Each such write moves the bug's stamp, so Get Bug's shortcut
 * (visibility remembered for an unchanged stamp) would miss on the caller's next write and cost two reads more.
 */
@Injectable()
export class BugStampsForWriteCompanion extends BugStampsCompanion {
  protected override readonly trustRemembered = false;
}

/** What stamps read with the caller say of the bugs' existence and visibility, as BugVisibilityService.lookup takes it. */
export function visibilityOfStamps(known: KnownStamps | undefined): KnownVisibility | undefined {
  return known && { caller: known.caller, ids: known.ids, visible: new Map([...known.stamps].map(([id, stamp]) => [id, stamp.visible])) };
}

/** The bugs' stamps, with their visibility, that the request's companion read brought with its caller, if it did. */
export function stampsKnownTo(ctx: { companion?: CompanionFound }): KnownStamps | undefined {
  return companionValue(ctx.companion, BugStampsCompanion);
}
