import { Injectable } from '@nestjs/common';
import type { Sql } from '../../database/sql.js';
import type { Bug } from '../entities/bug.entity.js';
import { BugLoaderService } from './bug-loader.service.js';
import { BugRepository } from './bug.repository.js';

/**
 * The writes that move a bug's stamp from outside Update Bug's own row write: what another thing of the bug changed
 * (a comment added, an attachment created or changed, a bug's dependency filed, comment tags), and flag requestees
 * joining its cc list (observed on 5.0.6). Each forgets the bug this instance kept (BugLoaderService
 * .forgetWhenCommitted), so that the bug's next update reads its state with its lock rather than hope for a kept one
 * in vain (BugLoaderService.lockedStates). The history of those changes goes through the ChangeRecorderService, as
 * every change of a bug does.
 */
@Injectable()
export class BugEditsService {
  constructor(
    private readonly bugs: BugRepository,
    private readonly loader: BugLoaderService,
  ) {}

  /** Moves the bugs' last_change_time (updates.md), with `columns` changed beside it. */
  async touch(tx: Sql, bugIds: readonly number[], at: string, columns: Partial<Pick<Bug, 'remainingTime'>> = {}): Promise<void> {
    await this.bugs.touch(tx, bugIds, at, columns);
    this.loader.forgetWhenCommitted(tx, bugIds);
  }

  /** Moves the bugs' revision alone: what they show changed, but no change of the bug in Bugzilla's sense. */
  async moveRevision(tx: Sql, bugIds: readonly number[]): Promise<void> {
    await this.bugs.moveRevision(tx, bugIds);
    this.loader.forgetWhenCommitted(tx, bugIds);
  }

  addCc(tx: Sql, bugId: number, userIds: readonly number[]): Promise<void> {
    return this.bugs.addCc(tx, bugId, userIds);
  }

  /**
   * Runs `write`: the writes that record a change (the bugs' stamps, joined cc, history, the outbox) and the reads
   * they compose from, when nothing reads the writes' answers. The writes go with the transaction's next statement
   * (on MySQL often the COMMIT): each answers no id and no rows, and one that fails fails that statement, so the
   * transaction, as it would have alone. A write whose answer is needed (an id, a count) does not belong here.
   */
  recordChange<T>(tx: Sql, write: () => Promise<T>): Promise<T> {
    return tx.withHeldWrites(write);
  }
}
