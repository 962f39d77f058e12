import { Injectable } from '@nestjs/common';
import type { Caller } from '../../common/caller.js';
import { companionValue, type CompanionFound, type CompanionPlan, type CompanionRead, type CompanionRequest } from '../../common/http/companion-read.js';
import { BugVisibilityService, plainBugIds, type KnownVisibility } from '../bug-visibility.service.js';

/**
 * The bug ids a bug route names (the path's first, plus `ids`), when every reference is an id: the bugs a companion
 * read can look up with the caller. References by alias are resolved by the route itself.
 */
export function bugIdsNamed(request: CompanionRequest): number[] | undefined {
  return plainBugIds(request.params.listWithPath('ids', [request.path.id_or_alias]));
}

/**
 * Update Bug's companion read: whether the bugs it names exist and the caller may see them (its 100/101/102 check
 * before the transaction), read in the caller's credential statement — one round trip less per update (issue 13).
 */
@Injectable()
export class BugVisibilityCompanion implements CompanionRead<KnownVisibility> {
  constructor(private readonly visibility: BugVisibilityService) {}

  plan(request: CompanionRequest, caller: Caller): CompanionPlan<KnownVisibility> | undefined {
    const ids = bugIdsNamed(request);
    return ids && this.visibility.visibilityPlan(ids, caller);
  }
}

/** The bugs' existence and visibility that the request's companion read brought with its caller, if it did. */
export function visibilityKnownTo(ctx: { companion?: CompanionFound }): KnownVisibility | undefined {
  return companionValue(ctx.companion, BugVisibilityCompanion);
}
