import { Injectable } from '@nestjs/common';
import type { Caller } from '../../common/caller.js';
import { companionValue, type CompanionFound, type CompanionPlan, type CompanionRead, type CompanionRequest } from '../../common/http/companion-read.js';
import { Db } from '../../database/db.service.js';
import { plainBugIds, type KnownVisibility } from '../bug-visibility.service.js';
import { BugVisibilityRepository, visibilityOfRows } from './bug-visibility.repository.js';

/**
 * The bug ids a bug route names (the path's first, plus `ids`), when every reference is an id: the bugs a companion
 * read can look up with the caller. References by alias are resolved by the route itself.
 */
export function bugIdsNamed(request: CompanionRequest): number[] | undefined {
  return plainBugIds(request.params.listWithPath('ids', [request.path.id_or_alias]));
}

/** Ids a companion read plans for at most: its statement's bound list stays small. */
const MAX_PLANNED_IDS = 500;

/**
 * Update Bug's companion read: whether the bugs it names exist and the caller may see them (its 100/101/102 check
 * before the transaction), read in the caller's credential statement — one round trip less per update (issue 13):
 * the statement BugVisibilityRepository.visibilityOf runs.
 */
@Injectable()
export class BugVisibilityCompanion implements CompanionRead<KnownVisibility> {
  constructor(
    private readonly db: Db,
    private readonly repository: BugVisibilityRepository,
  ) {}

  plan(request: CompanionRequest, caller: Caller): CompanionPlan<KnownVisibility> | undefined {
    const named = bugIdsNamed(request);
    const ids = named && [...new Set(named)];
    if (!ids?.length || ids.length > MAX_PLANNED_IDS) return undefined;
    return {
      statement: this.repository.visibilityStatement(this.db.read, caller, ids),
      read: (rows) => ({ caller, ids: new Set(ids), visible: new Map(visibilityOfRows(rows).map((r) => [r.id, r.visible])) }),
    };
  }
}

/** The bugs' existence and visibility that the request's companion read brought with its caller, if it did. */
export function visibilityKnownTo(ctx: { companion?: CompanionFound }): KnownVisibility | undefined {
  return companionValue(ctx.companion, BugVisibilityCompanion);
}
