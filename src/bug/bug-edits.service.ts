import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { BugRepository } from './bug.repository.js';

/**
 * The writes the modules above bug make to the bug a thing of theirs hangs on (an attachment created or changed):
 * the bug's last_change_time moves (updates.md), and flag requestees join its cc list (observed on 5.0.6). The
 * history of those changes goes through the ChangeRecorderService, as every change of a bug does.
 */
@Injectable()
export class BugEditsService {
  constructor(private readonly bugs: BugRepository) {}

  touch(tx: Sql, bugIds: readonly number[], at: string): Promise<void> {
    return this.bugs.touch(tx, bugIds, at);
  }

  addCc(tx: Sql, bugId: number, userIds: readonly number[]): Promise<void> {
    return this.bugs.addCc(tx, bugId, userIds);
  }
}
