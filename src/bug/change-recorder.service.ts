import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { AuditService } from '../audit/audit.service.js';
import type { ActivityEntry, ChangeRecorder } from './bug.types.js';
import { BugHistoryRepository } from './bug-history.repository.js';

/** The audit class of bugs (GET /rest/last_audit_time?class=Tracker::Bug, or Bugzilla::Bug). */
export const BUG_AUDIT_CLASS = 'Tracker::Bug';

/**
 * The one writer of bug history (design.md "Change recording"): every module that changes a bug hands its
 * changes here, inside its transaction, and each change becomes a history row (bug_activity, read by
 * GET /rest/bug/(id)/history) and an audit row (class Tracker::Bug), so the two logs never disagree.
 */
@Injectable()
export class ChangeRecorderService implements ChangeRecorder {
  constructor(private readonly audit: AuditService, private readonly history: BugHistoryRepository) {}

  async record(tx: Sql, entries: readonly ActivityEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.history.add(tx, entries);
    await this.auditBug(tx, entries);
  }

  /** Audit rows of bug changes; `record` calls it, so only code that writes no history calls it directly. */
  async auditBug(tx: Sql, entries: readonly ActivityEntry[]): Promise<void> {
    await this.audit.recordMany(tx, entries.map((e) => ({
      userId: e.userId,
      className: BUG_AUDIT_CLASS,
      objectId: e.bugId,
      field: e.field,
      removed: e.removed,
      added: e.added,
      at: e.at,
    })));
  }

  /** A new bug: audited as `__create__` with its summary; its creation is not a history entry (updates.md). */
  recordCreate(tx: Sql, bug: { bugId: number; userId: number; summary: string; at: string }): Promise<void> {
    return this.audit.recordCreate(tx, { userId: bug.userId, className: BUG_AUDIT_CLASS, objectId: bug.bugId, added: bug.summary, at: bug.at });
  }
}
