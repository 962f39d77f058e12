import { Injectable } from '@nestjs/common';
import type { Sql } from '../../database/sql.js';
import { BugLoaderService } from '../bug-loader.service.js';
import type { BugRelation, LoadedBug } from '../loaded-bug.js';

/**
 * What an update needs to know of one bug: the page loader's bug (row, names, people, dupe_of) with the relations
 * the request touches. Aliases, cc, keywords and groups are always there (the response and the mail need them:
 * keywords for its X-Bugzilla-Keywords header, groups to know whose eyes it may reach); relations the request does
 * not touch stay empty and are never queried.
 */
export type BugState = LoadedBug;

export interface StateNeeds {
  dependencies?: boolean;
  seeAlso?: boolean;
  flags?: boolean;
  custom?: boolean;
}

/**
 * Loads the bugs of one update through the page loader, inside the update's transaction (so that what is checked is
 * what is written): two queries whatever the number of bugs, sent with the row locks in one round trip.
 */
@Injectable()
export class UpdateStateLoader {
  constructor(private readonly loader: BugLoaderService) {}

  /** Locks the bugs' rows for the transaction (BugLoaderService.lock): the first read after it runs under the locks. */
  lock(tx: Sql, ids: readonly number[]): Promise<void> {
    return this.loader.lock(tx, ids);
  }

  async load(tx: Sql, ids: readonly number[], needs: StateNeeds): Promise<Map<number, BugState>> {
    const wanted = new Set<BugRelation>(['alias', 'cc', 'keywords', 'groups']);
    if (needs.dependencies) {
      wanted.add('blocks');
      wanted.add('depends_on');
    }
    if (needs.seeAlso) wanted.add('see_also');
    if (needs.flags) wanted.add('flags');
    if (needs.custom) wanted.add('custom');
    // Both reads go in one round trip, with the transaction's START and row locks before them (Sql.gathering).
    const [details, { byBug }] = await tx.gathering((sql) => Promise.all([this.loader.details(ids, { sql }), this.loader.relations(ids, wanted, { sql })]));
    const present = ids.filter((id) => details.has(id));
    return new Map(present.map((id) => [id, { ...details.get(id)!, ...byBug.get(id)! }]));
  }
}
