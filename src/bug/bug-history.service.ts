import { Inject, Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Caller } from '../common/caller.js';
import { parseDateInput, toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { BugVisibilityService } from './bug-visibility.service.js';
import { visibilityKnownTo } from './store/bug-visibility.companion.js';
import type { RequestContext } from '../common/http/request-context.js';
import { BugLoaderService } from './store/bug-loader.service.js';
import { emailFilter } from './bug.presenter.js';
import { apiFieldName } from './changes.js';
import { TIME_TRACKING_FIELDS } from './bug.fields.js';
import { BugHistoryRepository } from './bug-history.repository.js';
import { UserService } from '../user/user.service.js';
import { BUG_ATTACHMENTS, type BugAttachments } from './bug-attachments.js';

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
 * same person, rows one after the other), oldest first, several rows of one field in a set joined into one change; `new_since` keeps changes strictly after it. Hidden: from non-insiders, changes of
 * private attachments and flips that made a comment private; from non-time-trackers, time-tracking fields.
 */
@Injectable()
export class BugHistoryService {
  constructor(
    private readonly db: Db,
    private readonly visibility: BugVisibilityService,
    private readonly loader: BugLoaderService,
    private readonly repository: BugHistoryRepository,
    private readonly users: UserService,
    @Inject(BUG_ATTACHMENTS) private readonly attachments: BugAttachments,
  ) {}

  /** The bugs' visibility is taken from the route's companion read when it brought it with the caller. */
  async history(ctx: Pick<RequestContext, 'caller' | 'companion'>, references: readonly string[], newSince?: string): Promise<{ bugs: BugHistory[] }> {
    const { caller } = ctx;
    const ids = await this.visibility.resolveVisible(caller, references, undefined, visibilityKnownTo(ctx));
    const since = newSince === undefined || newSince.trim() === '' ? undefined : toDbDateTime(parseDateInput(newSince, 'new_since'));
    const [rows, relations] = await Promise.all([
      this.repository.ofBugs(this.db.read, ids, since),
      this.loader.relations(ids, new Set(['alias'])),
    ]);
    const [changers, privateAttachments] = await Promise.all([
      this.users.findByIds(rows.map((row) => Number(row.userId))),
      caller.isInsider ? new Set<number>() : this.attachments.privateAmong(this.db.read, rows.flatMap((row) => (row.attachmentId == null ? [] : [Number(row.attachmentId)]))),
    ]);

    const email = emailFilter(caller);
    const historyOf = new Map<number, HistoryItem[]>(ids.map((id) => [id, []]));
    /** Per bug, the change set and the change the last shown row went to. */
    const last = new Map<number, { set: string; change: HistoryChange; of: string }>();
    for (const row of rows) {
      // As the join it replaces: a change by an unknown user is not shown.
      const changer = changers.get(Number(row.userId));
      if (!changer) continue;
      const field = apiFieldName(row.fieldName);
      if (!mayShowChange(caller, { field, added: row.added, attachmentId: row.attachmentId }, privateAttachments)) continue;
      const bugId = Number(row.bugId);
      const items = historyOf.get(bugId)!;
      const when = toApiDateTime(row.changedAt)!;
      const who = email(changer.login);
      const set = `${when}|${who}`;
      const of = `${field}|${row.commentId ?? 0}|${row.attachmentId ?? 0}`;
      const previous = last.get(bugId);
      if (previous?.set === set && previous.of === of) {
        // Bugzilla joins the rows of one field (comment, attachment) in one change set into one change.
        previous.change.removed = joinActivityEntries(field, previous.change.removed, row.removed ?? '');
        previous.change.added = joinActivityEntries(field, previous.change.added, row.added ?? '');
        continue;
      }
      if (previous?.set !== set) items.push({ when, who, changes: [] });
      const change: HistoryChange = {
        field_name: field,
        removed: row.removed ?? '',
        added: row.added ?? '',
        ...(row.attachmentId == null ? {} : { attachment_id: Number(row.attachmentId) }),
      };
      items[items.length - 1].changes.push(change);
      last.set(bugId, { set, change, of });
    }
    return {
      bugs: ids.map((id) => ({ id, alias: relations.byBug.get(id)?.aliases ?? [], history: historyOf.get(id)! })),
    };
  }
}

/**
 * Bugzilla's join_activity_entries (Bugzilla::Util), by API field name: the text of two rows of one field joined —
 * lists of bugs and See Also with ", ", the URL as it is, anything else with a space — unless the second starts with
 * a comma or space; the first empty gives the second.
 */
export function joinActivityEntries(field: string, current: string, next: string): string {
  if (current === '') return next;
  if (next.startsWith(',') || next.startsWith(' ')) return current + next;
  if (field === 'depends_on' || field === 'blocks' || field === 'see_also') return `${current}, ${next}`;
  return field === 'url' ? current + next : `${current} ${next}`;
}

/**
 * Whether a change (a history row, a webhook's `changes` entry) may be shown to `caller`: time-tracking fields only
 * to time trackers; changes of private attachments and comments made private only to the insider group.
 */
export function mayShowChange(
  caller: Caller,
  change: { field: string; added: unknown; attachmentId?: number | string | null },
  privateAttachments: ReadonlySet<number>,
): boolean {
  if (TIME_TRACKING_FIELDS.has(change.field) && !caller.isTimeTracker) return false;
  if (caller.isInsider) return true;
  if (change.attachmentId != null && privateAttachments.has(Number(change.attachmentId))) return false;
  return !(change.field === 'longdescs.isprivate' && String(change.added).trim() === '1');
}
