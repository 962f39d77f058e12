import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.service.js';
import type { SqlValue } from '../../database/sql.js';
import type { Caller } from '../../common/caller.js';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { parseDateInput, toDbDateTime } from '../../common/time/datetime.js';
import { likeEscape } from '../../database/dialect.js';
import { BugVisibilityService } from '../bug-visibility.service.js';
import type { BugSearchInput } from '../dto/bug-search.dto.js';

/** One criterion of a search: a SQL condition over the bugs table aliased `b`, with its parameters. */
interface Condition {
  sql: string;
  params: SqlValue[];
}

/** The text-list criteria of a search. */
type SearchList = { [K in keyof BugSearchInput]-?: BugSearchInput[K] extends string[] | undefined ? K : never }[keyof BugSearchInput];

/** Exact-match ("any of") criteria on a column of `bugs` (search.md: select fields keep commas). */
const EXACT_COLUMNS: Readonly<Partial<Record<SearchList, string>>> = {
  version: 'version',
  target_milestone: 'target_milestone',
  priority: 'priority',
  severity: 'severity',
  bug_severity: 'severity',
  op_sys: 'op_sys',
  platform: 'platform',
  rep_platform: 'platform',
};

/** Substring criteria: parameter → column of `bugs`. */
const TEXT_COLUMNS: ReadonlyArray<[SearchList, string]> = [
  ['summary', 'summary'], ['short_desc', 'summary'], ['whiteboard', 'whiteboard'], ['status_whiteboard', 'whiteboard'], ['url', 'url'],
];

/** People criteria: parameter → user column of `bugs`. */
const PEOPLE_COLUMNS: ReadonlyArray<[SearchList, string]> = [
  ['assigned_to', 'assigned_to_id'], ['creator', 'reporter_id'], ['reporter', 'reporter_id'], ['qa_contact', 'qa_contact_id'],
];

/**
 * Search Bugs (`GET /rest/bug`, search.md), the part clients use to fetch bugs: `id`, `alias`, the select fields,
 * `status` (with `__open__`/`__closed__`/`__all__`), `resolution`, `summary`/`whiteboard`/`url` substrings, people by
 * login, personal `tags`, `creation_time`/`last_change_time`, `limit`/`offset`,
 * always under the visibility rule so hidden bugs are silently absent. Each criterion is one entry of `conditions`:
 * the full search (text matching, people, boolean charts, quicksearch, order) slots in here as more entries.
 */
@Injectable()
export class BugSearchService {
  constructor(private readonly db: Db, private readonly visibility: BugVisibilityService) {}

  /** Ids of the visible bugs matching the request, in ascending id order, limited as search.md says. */
  async findIds(caller: Caller, input: BugSearchInput): Promise<number[]> {
    const sql = this.db.read;
    const conditions = this.conditions(caller, input);
    if (!conditions.length && !caller.parameters.bool('search_allow_no_criteria')) throw TrackerError.of(Errors.BUGLIST_PARAMETERS_REQUIRED);
    const visible = this.visibility.predicate(caller);
    const { limit, offset } = this.window(caller, input);
    const rows = await sql.all<{ id: number }>(
      `SELECT b.id FROM bugs b WHERE ${[...conditions.map((c) => c.sql), visible.sql].join(' AND ')}
        ORDER BY b.id LIMIT ${limit} OFFSET ${offset}`,
      [...conditions.flatMap((c) => c.params), ...visible.params],
    );
    return rows.map((r) => Number(r.id));
  }

  private conditions(caller: Caller, input: BugSearchInput): Condition[] {
    const sql = this.db.read;
    const conditions: Condition[] = [];
    const anyOf = (column: string, values: SqlValue[]) => conditions.push({ sql: `${column} IN ${sql.in(values)}`, params: values });

    if (input.id !== undefined) anyOf('b.id', input.id);
    if (input.alias !== undefined) {
      conditions.push({ sql: `b.id IN (SELECT bug_id FROM bug_aliases WHERE alias IN ${sql.in(input.alias)})`, params: input.alias });
    }
    if (input.product !== undefined) {
      conditions.push({ sql: `b.product_id IN (SELECT id FROM products WHERE name IN ${sql.in(input.product)})`, params: input.product });
    }
    if (input.component !== undefined) {
      conditions.push({ sql: `b.component_id IN (SELECT id FROM components WHERE name IN ${sql.in(input.component)})`, params: input.component });
    }
    for (const [key, column] of Object.entries(EXACT_COLUMNS) as Array<[SearchList, string]>) {
      const values = input[key];
      if (values !== undefined) anyOf(`b.${column}`, values);
    }
    for (const values of [input.status, input.bug_status]) if (values !== undefined) conditions.push(this.statusCondition(values));
    if (input.resolution !== undefined) {
      // `---` and the empty string both mean "no resolution" (the seed: an empty string finds open bugs).
      anyOf('b.resolution', input.resolution.map((r) => (r === '---' ? '' : r)));
    }
    // Text fields: a substring of any of the values (the seed: not split on spaces), case-insensitive.
    const like = sql.dialect === 'mysql' ? 'LIKE ?' : "LIKE ? ESCAPE '\\'";
    for (const [key, column] of TEXT_COLUMNS) {
      const values = input[key] ?? [];
      if (values.length) conditions.push({ sql: `(${values.map(() => `b.${column} ${like}`).join(' OR ')})`, params: values.map((v) => `%${likeEscape(v)}%`) });
    }
    // People: the login, exactly (the seed); `reporter` is the other name of `creator`.
    for (const [key, column] of PEOPLE_COLUMNS) {
      const logins = input[key] ?? [];
      if (logins.length) conditions.push({ sql: `b.${column} IN (SELECT id FROM users WHERE login_name IN ${sql.in(logins)})`, params: logins });
    }
    if (input.tags !== undefined) {
      conditions.push({
        sql: `b.id IN (SELECT x.bug_id FROM bug_tags x JOIN tags t ON t.id = x.tag_id WHERE t.user_id = ? AND t.name IN ${sql.in(input.tags)})`,
        params: [caller.id, ...input.tags],
      });
    }
    for (const key of ['creation_time', 'last_change_time'] as const) {
      const value = input[key];
      if (value !== undefined) conditions.push({ sql: `b.${key} >= ?`, params: [toDbDateTime(parseDateInput(value, key))] });
    }
    return conditions;
  }

  private statusCondition(values: string[]): Condition {
    const open = (flag: number) =>
      `b.status IN (SELECT v.value FROM field_values v JOIN fielddefs f ON f.id = v.field_id WHERE f.name = 'bug_status' AND v.is_open = ${flag})`;
    const parts: string[] = [];
    const plain = values.filter((v) => !['__open__', '__closed__', '__all__'].includes(v));
    if (values.includes('__all__')) return { sql: '1 = 1', params: [] };
    if (values.includes('__open__')) parts.push(open(1));
    if (values.includes('__closed__')) parts.push(open(0));
    if (plain.length) parts.push(`b.status IN ${this.db.read.in(plain)}`);
    return { sql: `(${parts.join(' OR ')})`, params: plain };
  }

  /** limit/offset of search.md: capped by max_search_results; 0 means "all" (still capped); offset needs a limit. */
  private window(caller: Caller, { limit, offset }: BugSearchInput): { limit: number; offset: number } {
    const max = caller.parameters.int('max_search_results') || 10000;
    if (offset !== undefined && limit === undefined) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Bug.search', param: 'limit' });
    if (limit === undefined || limit <= 0) return { limit: max, offset: limit === 0 ? 0 : Math.max(offset ?? 0, 0) };
    return { limit: Math.min(limit, max), offset: Math.max(offset ?? 0, 0) };
  }
}
