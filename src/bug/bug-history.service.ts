import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Caller } from '../common/caller.js';
import { parseDateInput, toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { BugVisibilityService } from './bug-visibility.service.js';
import { BugLoaderService } from './bug-loader.service.js';
import { emailFilter } from './bug.presenter.js';
import { apiFieldName } from './rules/changes.js';
import { TIME_TRACKING_FIELDS } from './rules/field-permissions.js';

export interface HistoryChange {
  field_name: string;
  removed: string;
  added: string;
  attachment_id?: number;
}

export interface HistoryItem {
  when: string;
  who: string;
  changes: HistoryChange[];
}

export interface BugHistory {
  id: number;
  alias: string[];
  history: HistoryItem[];
}

/**
 * Bug history (`GET /rest/bug/(id)/history`, updates.md "Bug history entries"): one item per change set (same time,
 * same person), oldest first; `new_since` keeps changes strictly after it. Hidden: from non-insiders, changes of
 * private attachments and flips that made a comment private; from non-time-trackers, time-tracking fields.
 */
@Injectable()
export class BugHistoryService {
  constructor(private readonly db: Db, private readonly visibility: BugVisibilityService, private readonly loader: BugLoaderService) {}

  async history(caller: Caller, references: readonly string[], newSince?: string): Promise<{ bugs: BugHistory[] }> {
    const ids = await this.visibility.resolveVisible(caller, references);
    const since = newSince === undefined || newSince.trim() === '' ? undefined : toDbDateTime(parseDateInput(newSince, 'new_since'));
    const sql = this.db.read;
    const [rows, relations] = await Promise.all([
      sql.all(
        `SELECT a.id, a.bug_id, a.attachment_id, a.changed_at, a.field_name, a.removed, a.added, u.login_name, att.is_private AS attachment_private
           FROM bug_activity a
           JOIN users u ON u.id = a.user_id
           LEFT JOIN attachments att ON att.id = a.attachment_id
          WHERE a.bug_id IN ${sql.in(ids)}${since ? ' AND a.changed_at > ?' : ''}
          ORDER BY a.changed_at, a.id`,
        [...ids, ...(since ? [since] : [])],
      ),
      this.loader.relations(ids, new Set(['alias'])),
    ]);

    const email = emailFilter(caller);
    const historyOf = new Map<number, HistoryItem[]>(ids.map((id) => [id, []]));
    const lastKey = new Map<number, string>();
    for (const row of rows) {
      const field = apiFieldName(row.field_name);
      if (!this.mayShow(caller, field, row)) continue;
      const bugId = Number(row.bug_id);
      const items = historyOf.get(bugId)!;
      const when = toApiDateTime(row.changed_at)!;
      const who = email(row.login_name);
      const key = `${when}|${who}`;
      if (lastKey.get(bugId) !== key) {
        items.push({ when, who, changes: [] });
        lastKey.set(bugId, key);
      }
      items[items.length - 1].changes.push({
        field_name: field,
        removed: row.removed ?? '',
        added: row.added ?? '',
        ...(row.attachment_id == null ? {} : { attachment_id: Number(row.attachment_id) }),
      });
    }
    return {
      bugs: ids.map((id) => ({ id, alias: relations.byBug.get(id)?.aliases ?? [], history: historyOf.get(id)! })),
    };
  }

  private mayShow(caller: Caller, field: string, row: Record<string, any>): boolean {
    if (TIME_TRACKING_FIELDS.has(field) && !caller.isTimeTracker) return false;
    if (caller.isInsider) return true;
    if (row.attachment_id != null && Number(row.attachment_private) === 1) return false;
    return !(field === 'longdescs.isprivate' && String(row.added).trim() === '1');
  }
}
