import type { ReadSql, Sql, SqlValue } from '../database/sql.js';
import type { Caller } from '../common/caller.js';

import type { SqlCondition } from './store/bug-visibility.repository.js';

export type { SqlCondition };

/**
 * Shared contracts of the bug module: the bug row as stored, and the services the create/get/history code and
 * the update code both use. Implementations: bug-visibility.service.ts, change-recorder.service.ts,
 * bug-loader.service.ts, comment module's CommentService.
 */

/**
 * The ways of the two graphs between bugs: the bugs a bug depends on and those it blocks (dependencies), the bugs that
 * introduced it and those it introduced (BMO's regressions).
 */
export type Direction = 'depends_on' | 'blocks' | 'regressed_by' | 'regressions';

/** A graph between bugs by its two directions from a bug: `down` to the bugs it needs (depends on, was regressed by). */
export interface BugGraph {
  name: 'dependencies' | 'regressions';
  down: Direction;
  up: Direction;
}

export const DEPENDENCIES: BugGraph = { name: 'dependencies', down: 'depends_on', up: 'blocks' };
export const REGRESSIONS: BugGraph = { name: 'regressions', down: 'regressed_by', up: 'regressions' };

/** One edge of a graph: `upperId` depends on (was regressed by) `lowerId`. */
export interface GraphEdge {
  upperId: number;
  lowerId: number;
}

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
  /** BMO's bug type and how the bug was filed (issue 43). */
  type: string;
  filedVia: string;
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

/**
 * A value test on one column, built by Search Bugs for one criterion (`substring`, `regexp`, a list of user ids …):
 * given the quoted column expression it answers the SQL condition. The module that owns the table places it in its
 * own sub-select, so Search Bugs never names that table.
 */
export type ColumnMatcher = (column: string) => SqlCondition;

/** A column of the `bugs` table a search criterion tests directly. */
export type BugColumn =
  | 'id' | 'version' | 'target_milestone' | 'status' | 'resolution' | 'priority' | 'severity' | 'op_sys' | 'platform' | 'summary'
  | 'whiteboard' | 'url' | 'creation_time' | 'last_change_time' | 'deadline' | 'estimated_time' | 'remaining_time'
  | 'is_confirmed' | 'is_creator_accessible' | 'is_cc_accessible' | 'type' | 'filed_via';

/** A column of `bugs` holding another module's id: the search resolves names to ids through that module's service. */
export type BugIdColumn = 'product_id' | 'component_id' | 'reporter_id' | 'assigned_to_id' | 'qa_contact_id';

/** Rows of the bug module's own tables that hang on a bug and that a search criterion tests. */
export type SearchableRelation =
  | 'aliases' | 'tags' | 'blocked' | 'dependson' | 'dup_id' | 'see_also' | 'keywords' | 'cc' | 'groups' | 'regressed_by' | 'regresses';

/** One sort key of a search's `order`: a column of `bugs`, ascending or descending. */
export interface SortKey {
  column: BugColumn;
  descending: boolean;
}

/** A page of a search: at most `limit` ids after skipping `offset`, past `after` when given (keyset paging). */
export interface SearchWindow {
  limit: number;
  offset: number;
  after?: SortedBug;
}

/** A bug of a search's result with its values of the sort keys (in `order`'s order): where a keyset page ends. */
export interface SortedBug {
  id: number;
  keys: ReadonlyArray<string | number | null>;
}

/**
 * Search Bugs' criteria over the bug module's own tables, and the page and count of a compiled search. A search is
 * one WHERE over `bugs` aliased `b`. Provided as BUG_CRITERIA by BugModule (bug-criteria.repository.ts), used by
 * the bug-search module, which composes the criteria of every module into that WHERE.
 */
export interface BugCriteria {
  /**
   * The bugs meeting `where`, sorted by `order` then ascending id (so pages never skip or repeat a bug), each with its
   * sort keys' values.
   */
  findIds(sql: ReadSql, where: SqlCondition, order: readonly SortKey[], window: SearchWindow): Promise<SortedBug[]>;
  /** How many bugs meet `where`. */
  count(sql: ReadSql, where: SqlCondition): Promise<number>;
  /** A test of a column of the bug itself. */
  onBug(sql: ReadSql, column: BugColumn | BugIdColumn, match: ColumnMatcher): SqlCondition;
  /** `b.id IN (bugs with a row of the relation whose value matches)`; tags count only the owner's. */
  related(sql: ReadSql, relation: SearchableRelation, match: ColumnMatcher, tagOwnerId?: number): SqlCondition;
  /** A custom field's value (one row per value, multi-selects have several). */
  custom(sql: ReadSql, fieldId: number, match: ColumnMatcher): SqlCondition;
  /**
   * The `changed*` operators: bugs whose history has a change of one of `fields` meeting every given test (moment
   * before/after, old value, new value, who).
   */
  changed(sql: ReadSql, fields: readonly string[], test: { before?: string; after?: string; from?: ColumnMatcher; to?: ColumnMatcher; by?: ColumnMatcher }): SqlCondition;
  /**
   * Ids of at most `limit` bugs meeting `where`, ranked by how many of `ranks` each meets, then the newest first,
   * each with the bug it is a duplicate of (Possible Duplicates).
   */
  ranked(sql: ReadSql, where: SqlCondition, ranks: readonly SqlCondition[], limit: number): Promise<Array<{ id: number; dupeOf: number | null }>>;
  /** The bug each of `ids` that is a duplicate is a duplicate of. */
  dupeTargets(sql: ReadSql, ids: readonly number[]): Promise<Map<number, number>>;
  /** A bug's summary (undefined for an unknown bug). */
  summaryOf(sql: ReadSql, id: number): Promise<string | undefined>;
}

export const BUG_CRITERIA = Symbol('BugCriteria');
