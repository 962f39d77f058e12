import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { ActivityEntry, ChangeRecorder } from './bug.types.js';
import { BugHistoryRepository } from './bug-history.repository.js';

/**
 * The one writer of bug history: every module that changes a bug hands its changes
 * here, inside its transaction, and each change becomes a history row (bug_activity, read by
 * GET /rest/bug/(id)/history). The history is the bugs' audit trail, as in Bugzilla 5.0 ("Bugs have their own
 * auditing table, bugs_activity"): bugs and comments write no audit_log rows (docs/decisions.md).
 */
@Injectable()
export class ChangeRecorderService implements ChangeRecorder {
  constructor(private readonly history: BugHistoryRepository) {}

  async record(tx: Sql, entries: readonly ActivityEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.history.add(tx, entries);
  }
}
