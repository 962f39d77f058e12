import { Injectable } from '@nestjs/common';
import type { Sql } from '../../database/sql.js';
import { BugLoaderService, type LockedBug } from '../../bug/store/bug-loader.service.js';
import type { BugRelation, LoadedBug } from '../../bug/loaded-bug.js';

/**
 * What an update needs to know of one bug: the page loader's bug (row, names, people, dupe_of) with the relations
 * the request touches. Aliases, cc, keywords and groups are always there (the response and the mail need them:
 * keywords for its X-Bugzilla-Keywords header, groups to know whose eyes it may reach); relations the request does
 * not touch are never queried, so they are empty — or as kept, when the bug's state is the one this instance keeps.
 */
export type BugState = LoadedBug;

export interface StateNeeds {
  dependencies?: boolean;
  regressions?: boolean;
  seeAlso?: boolean;
  flags?: boolean;
  custom?: boolean;
}

/**
 * Loads the bugs of one update inside its transaction (so that what is checked is what is written), under their row
 * locks: the page loader's bugs with the relations the request needs, from what this instance keeps when the stamps
 * read under the locks say it is current (BugLoaderService.lockedStates), else in two queries whatever the number of
 * bugs, sent with the row locks in one round trip.
 */
@Injectable()
export class UpdateStateLoader {
  constructor(private readonly loader: BugLoaderService) {}

  /** Locks the bugs' rows for the transaction (BugLoaderService.lock): the first read after it runs under the locks. */
  lock(tx: Sql, ids: readonly number[]): Promise<void> {
    return this.loader.lock(tx, ids);
  }

  load(tx: Sql, ids: readonly number[], needs: StateNeeds): Promise<Map<number, LockedBug>> {
    return this.loader.lockedStates(tx, ids, wantedFor(needs));
  }

  /**
   * The bug as this transaction has left it so far (a bug an earlier bug of the request changed, or an earlier request
   * of a shared transaction), with what `before` says of its lock (its stamp).
   */
  async reload(tx: Sql, before: LockedBug, needs: StateNeeds): Promise<LockedBug> {
    const wanted = wantedFor(needs);
    const id = before.bug.row.id;
    const { details, byBug, customFields } = await this.loader.currentStates(tx, [id], wanted);
    return { ...before, bug: { ...details.get(id)!, ...byBug.get(id)! }, relations: wanted, customFields };
  }
}

/** Aliases, cc, keywords and groups always; the others when the request touches them. */
function wantedFor(needs: StateNeeds): Set<BugRelation> {
  const wanted = new Set<BugRelation>(['alias', 'cc', 'keywords', 'groups']);
  if (needs.dependencies) {
    wanted.add('blocks');
    wanted.add('depends_on');
  }
  if (needs.regressions) {
    wanted.add('regressed_by');
    wanted.add('regressions');
  }
  if (needs.seeAlso) wanted.add('see_also');
  if (needs.flags) wanted.add('flags');
  if (needs.custom) wanted.add('custom');
  return wanted;
}
