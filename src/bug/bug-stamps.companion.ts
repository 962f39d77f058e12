import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import type { CompanionPlan, CompanionRead, CompanionRequest } from '../common/http/companion-read.js';
import { bugIdsNamed } from './bug-visibility.companion.js';
import { BugLoaderService, type KnownStamps } from './bug-loader.service.js';

/**
 * Get Bug's companion read: the stamps of the bugs it names by id, with their visibility for the caller, read in the
 * caller's credential statement. A warm Get Bug of a kept bug then costs that one statement (issue 13).
 * References by alias are resolved by the route itself, so a request naming one reads its stamps itself.
 */
@Injectable()
export class BugStampsCompanion implements CompanionRead<KnownStamps> {
  constructor(private readonly loader: BugLoaderService) {}

  plan(request: CompanionRequest, caller: Caller): CompanionPlan<KnownStamps> | undefined {
    const ids = bugIdsNamed(request);
    return ids && this.loader.stampsPlan(ids, caller);
  }
}
