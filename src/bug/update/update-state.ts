import { Injectable } from '@nestjs/common';
import type { Sql } from '../../database/sql.js';
import { BugLoaderService } from '../bug-loader.service.js';
import type { BugRelation, LoadedBug } from '../loaded-bug.js';

/**
 * What an update needs to know of one bug: the page loader's bug (row, names, people, dupe_of) with the relations
 * the request touches. Aliases, cc and keywords are always there (the response and the mail need them: keywords for
 * its X-Bugzilla-Keywords header); relations the request does not touch stay empty and are never queried.
 */
export type BugState = LoadedBug;

export interface StateNeeds {
  groups?: boolean;
  dependencies?: boolean;
  seeAlso?: boolean;
  flags?: boolean;
  custom?: boolean;
}

/**
 * Loads the bugs of one update through the page loader, inside the update's transaction (so that what is checked is
 * what is written): two queries whatever the number of bugs, after the row locks.
 */
@Injectable()
export class UpdateStateLoader {
  constructor(private readonly loader: BugLoaderService) {}

  /** Locks the bugs' rows for the transaction (BugLoaderService.lock): the first read after it runs under the locks. */
  lock(tx: Sql, ids: readonly number[]): Promise<void> {
    return this.loader.lock(tx, ids);
  }

  async load(tx: Sql, ids: readonly number[], needs: StateNeeds): Promise<Map<number, BugState>> {
    const wanted = new Set<BugRelation>(['alias', 'cc', 'keywords']);
    if (needs.groups) wanted.add('groups');
    if (needs.dependencies) {
      wanted.add('blocks');
      wanted.add('depends_on');
    }
    if (needs.seeAlso) wanted.add('see_also');
    if (needs.flags) wanted.add('flags');
    if (needs.custom) wanted.add('custom');
    const details = await this.loader.details(ids, { sql: tx });
    const present = ids.filter((id) => details.has(id));
    const { byBug } = await this.loader.relations(present, wanted, { sql: tx });
    return new Map(present.map((id) => [id, { ...details.get(id)!, ...byBug.get(id)! }]));
  }
}
