import type { Sql, SqlValue } from '../database/sql.js';
import type { Caller } from '../common/caller.js';

export type { SqlCondition } from './store/bug-visibility.repository.js';

/**
 * Shared contracts of the bug module: the bug row as stored, and the services the create/get/history code and
 * the update code both use. Implementations: bug-visibility.service.ts, change-recorder.service.ts,
 * bug-loader.service.ts, comment module's CommentService.
 */

/** The two ways of the dependency graph: the bugs a bug depends on, and those it blocks. */
export type Direction = 'depends_on' | 'blocks';

/** A `bugs` row with API-named fields; times are DB strings (`YYYY-MM-DD hh:mm:ss`, UTC). */
export interface BugRow {
  id: number;
  summary: string;
  status: string;
  resolution: string;
  productId: number;
  componentId: number;
  version: string;
  targetMilestone: string;
  opSys: string;
  platform: string;
  priority: string;
  severity: string;
  reporterId: number;
  assignedToId: number;
  qaContactId: number | null;
  url: string;
  whiteboard: string;
  isConfirmed: boolean;
  isCreatorAccessible: boolean;
  isCcAccessible: boolean;
  estimatedTime: number;
  remainingTime: number;
  deadline: string | null;
  creationTime: string;
  lastChangeTime: string;
}

/** One history row (bug_activity); `field` uses the API names of `changes` (status, summary, flagtypes.name …). */
export interface ActivityEntry {
  bugId: number;
  userId: number;
  /** The request's one timestamp, DB format. */
  at: string;
  field: string;
  removed: string;
  added: string;
  attachmentId?: number | null;
  commentId?: number | null;
}

export interface BugVisibility {
  /**
   * A SQL boolean expression (with its parameters) true for the bugs `caller` may see, over the bugs table aliased
   * `alias`: not in any group, or in groups the caller satisfies (all of them, or any with `or_groups`), or the
   * caller is the reporter (with is_creator_accessible), on the cc (with is_cc_accessible), assignee or QA contact.
   * The ONE visibility rule: get, search, history, comments, attachments, flags and counts all use it.
   */
  predicate(caller: Caller, alias?: string): { sql: string; params: SqlValue[] };
  /** Of these ids, those the caller may see (one query). */
  visibleIds(caller: Caller, ids: readonly number[], sql?: Sql): Promise<Set<number>>;
  /**
   * Resolves ids/aliases as given by a client (`123`, `#123`, `my-alias`) to bug ids, in order: unknown digits → 101,
   * unknown alias or empty → 100, invisible → 102 (bug_access_denied, or bug_access_query for anonymous).
   */
  resolveVisible(caller: Caller, idsOrAliases: readonly string[], sql?: Sql): Promise<number[]>;
}

export interface ChangeRecorder {
  /** Writes history rows (one per field change) in the caller's transaction. */
  record(tx: Sql, entries: readonly ActivityEntry[]): Promise<void>;
}
