import { Injectable } from '@nestjs/common';
import { BugRepository } from './bug.repository.js';
import { BugUpdateRepository } from './bug-update.repository.js';
import { knownId, pendingIdOf, type RowId, type Sql } from '../../database/sql.js';
import type { NewRowId } from '../bug-events.js';

export type { NewBugRow } from './bug.repository.js';
export type { BugColumns } from './bug-update.repository.js';

/**
 * A new bug's id as insertBug answers it. While no step needs the number it stays in the database, and the bug's
 * lists and description name it there, so that they travel with the bug's INSERT and the COMMIT in one round trip
 * (issue 13). A step that needs the number asks (bugNumber); a reader that may not need it takes bugIdToAsk.
 */
export type NewBugId = RowId;

/** The number of a new bug's id, asking the database for it if it is still held there. */
export function bugNumber(id: NewBugId): Promise<number> {
  return knownId(id);
}

/** A new bug's id for a reader that may not need it (an event's listener): asked for only if it does. */
export function bugIdToAsk(id: NewBugId): NewRowId {
  return pendingIdOf(id);
}

/** The lists a new bug is filed with. */
export interface NewBugLists {
  ccIds: readonly number[];
  keywordIds: readonly number[];
  groupIds: readonly number[];
  seeAlso: readonly string[];
  custom: ReadonlyArray<{ fieldId: number; values: readonly string[] }>;
}

/**
 * The bug tables as the writers above the bug module (Create and Update Bug, the comment changes: src/bug-write) write
 * them: the bugs row and the lists hanging on a bug. The bug module owns those tables, so the writers call this and
 * never its repositories. Each method is the repository's, on the handle it is given (the write's `tx`); what it
 * says about held rows and locks is said there (bug.repository.ts, bug-update.repository.ts).
 */
@Injectable()
export class BugStoreService {
  constructor(
    private readonly bugs: BugRepository,
    private readonly lists: BugUpdateRepository,
  ) {}

  // ---- Rows, locks and the dependency graph (BugRepository) -------------------------------------------------

  rows(...args: Parameters<BugRepository['rows']>) { return this.bugs.rows(...args); }
  lock(...args: Parameters<BugRepository['lock']>) { return this.bugs.lock(...args); }
  dependencyNeighbours(...args: Parameters<BugRepository['dependencyNeighbours']>) { return this.bugs.dependencyNeighbours(...args); }

  // ---- What Create and Update Bug both add (BugRepository) ----------------------------------------------------

  insertBug(...args: Parameters<BugRepository['insertBug']>) { return this.bugs.insertBug(...args); }
  addAliases(...args: Parameters<BugRepository['addAliases']>) { return this.bugs.addAliases(...args); }
  addCc(...args: Parameters<BugRepository['addCc']>) { return this.bugs.addCc(...args); }
  addKeywords(...args: Parameters<BugRepository['addKeywords']>) { return this.bugs.addKeywords(...args); }
  addGroups(...args: Parameters<BugRepository['addGroups']>) { return this.bugs.addGroups(...args); }
  addSeeAlso(...args: Parameters<BugRepository['addSeeAlso']>) { return this.bugs.addSeeAlso(...args); }
  addCustomValues(...args: Parameters<BugRepository['addCustomValues']>) { return this.bugs.addCustomValues(...args); }
  addEdges(...args: Parameters<BugRepository['addEdges']>) { return this.bugs.addEdges(...args); }

  /** Adds a new bug's lists. Nothing reads these writes' answers: they go with the transaction's next statement. */
  addNewBugLists(tx: Sql, id: NewBugId, lists: NewBugLists): Promise<void> {
    return tx.withHeldWrites(async () => {
      await this.bugs.addCc(tx, id, lists.ccIds);
      await this.bugs.addKeywords(tx, id, lists.keywordIds);
      await this.bugs.addGroups(tx, id, lists.groupIds);
      await this.bugs.addSeeAlso(tx, id, lists.seeAlso);
      await this.bugs.addCustomValues(tx, id, lists.custom);
    });
  }

  /** Removes and adds cc rows of a bug; nothing reads these writes' answers, so they go with the transaction's next statement. */
  changeCc(tx: Sql, bugId: number, removedIds: readonly number[], addedIds: readonly number[]): Promise<void> {
    return tx.withHeldWrites(async () => {
      if (removedIds.length) await this.lists.removeCc(tx, bugId, removedIds);
      await this.bugs.addCc(tx, bugId, addedIds);
    });
  }

  // ---- What Update Bug changes and removes (BugUpdateRepository) ---------------------------------------------

  updateBug(...args: Parameters<BugUpdateRepository['updateBug']>) { return this.lists.updateBug(...args); }
  statusesOf(...args: Parameters<BugUpdateRepository['statusesOf']>) { return this.lists.statusesOf(...args); }
  isOnCc(...args: Parameters<BugUpdateRepository['isOnCc']>) { return this.lists.isOnCc(...args); }
  removeGroups(...args: Parameters<BugUpdateRepository['removeGroups']>) { return this.lists.removeGroups(...args); }
  removeKeywords(...args: Parameters<BugUpdateRepository['removeKeywords']>) { return this.lists.removeKeywords(...args); }
  removeAlias(...args: Parameters<BugUpdateRepository['removeAlias']>) { return this.lists.removeAlias(...args); }
  replaceCustomValues(...args: Parameters<BugUpdateRepository['replaceCustomValues']>) { return this.lists.replaceCustomValues(...args); }
  removeSeeAlso(...args: Parameters<BugUpdateRepository['removeSeeAlso']>) { return this.lists.removeSeeAlso(...args); }
  hasSeeAlso(...args: Parameters<BugUpdateRepository['hasSeeAlso']>) { return this.lists.hasSeeAlso(...args); }
  removeEdge(...args: Parameters<BugUpdateRepository['removeEdge']>) { return this.lists.removeEdge(...args); }
  dependsOnIds(...args: Parameters<BugUpdateRepository['dependsOnIds']>) { return this.lists.dependsOnIds(...args); }
  dependencyPartners(...args: Parameters<BugUpdateRepository['dependencyPartners']>) { return this.lists.dependencyPartners(...args); }
  setDupeOf(...args: Parameters<BugUpdateRepository['setDupeOf']>) { return this.lists.setDupeOf(...args); }
  dupeOfLocked(...args: Parameters<BugUpdateRepository['dupeOfLocked']>) { return this.lists.dupeOfLocked(...args); }
}
