import { Injectable } from '@nestjs/common';
import type { Sql, SqlValue } from '../../database/sql.js';
import { likeEscape } from '../../database/dialect.js';
import type { SqlCondition } from '../bug-visibility.repository.js';
import type { BugSearchInput } from '../dto/bug-search.dto.js';

/** The text-list criteria of a search. */
type SearchList = { [K in keyof BugSearchInput]-?: BugSearchInput[K] extends string[] | undefined ? K : never }[keyof BugSearchInput];

/** The time criteria of a search: bugs created / changed at or after a moment. */
export type SearchSince = Partial<Record<'creation_time' | 'last_change_time', string>>;

/** What a search asks, validated: the request, its time criteria as DB datetimes, and whose personal tags count. */
export interface SearchCriteria {
  input: BugSearchInput;
  since: SearchSince;
  tagOwnerId: number;
}

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
 * The hand-written SQL of Search Bugs (a hot path bench/ measures). Each criterion is one condition over the bugs
 * table aliased `b`; it reaches other modules' tables (products, components, users, field values) through
 * sub-selects, the documented exception for speed. Every identifier is quoted in the handle's dialect.
 */
@Injectable()
export class BugSearchRepository {
  /** Ids of the bugs meeting every condition, in ascending id order, in a window. */
  async findIds(sql: Sql, conditions: readonly SqlCondition[], window: { limit: number; offset: number }): Promise<number[]> {
    const q = sql.quote;
    const rows = await sql.all<{ id: number }>(
      `SELECT ${q('b.id')} FROM ${q('bugs')} b WHERE ${conditions.map((c) => c.sql).join(' AND ')}
        ORDER BY ${q('b.id')} LIMIT ${Number(window.limit)} OFFSET ${Number(window.offset)}`,
      conditions.flatMap((c) => c.params),
    );
    return rows.map((r) => Number(r.id));
  }

  /** One condition per criterion the request names (none: the request has no criteria). */
  conditions(sql: Sql, { input, since, tagOwnerId }: SearchCriteria): SqlCondition[] {
    const q = sql.quote;
    const bug = (column: string) => q(`b.${column}`);
    const conditions: SqlCondition[] = [];
    const anyOf = (column: string, values: SqlValue[]) => conditions.push({ sql: `${column} IN ${sql.in(values)}`, params: values });
    /** The bug's column is among the ids of the table's rows named `names`. */
    const byName = (column: string, table: string, nameColumn: string, names: string[]) =>
      conditions.push({ sql: `${bug(column)} IN (SELECT ${q('id')} FROM ${q(table)} WHERE ${q(nameColumn)} IN ${sql.in(names)})`, params: names });

    if (input.id !== undefined) anyOf(bug('id'), input.id);
    if (input.alias !== undefined) {
      conditions.push({ sql: `${bug('id')} IN (SELECT ${q('bug_id')} FROM ${q('bug_aliases')} WHERE ${q('alias')} IN ${sql.in(input.alias)})`, params: input.alias });
    }
    if (input.product !== undefined) byName('product_id', 'products', 'name', input.product);
    if (input.component !== undefined) byName('component_id', 'components', 'name', input.component);
    for (const [key, column] of Object.entries(EXACT_COLUMNS) as Array<[SearchList, string]>) {
      const values = input[key];
      if (values !== undefined) anyOf(bug(column), values);
    }
    for (const values of [input.status, input.bug_status]) if (values !== undefined) conditions.push(this.statusCondition(sql, values));
    if (input.resolution !== undefined) {
      // `---` and the empty string both mean "no resolution" (the seed: an empty string finds open bugs).
      anyOf(bug('resolution'), input.resolution.map((r) => (r === '---' ? '' : r)));
    }
    // Text fields: a substring of any of the values (the seed: not split on spaces), case-insensitive.
    const like = sql.dialect === 'mysql' ? 'LIKE ?' : "LIKE ? ESCAPE '\\'";
    for (const [key, column] of TEXT_COLUMNS) {
      const values = input[key] ?? [];
      if (values.length) conditions.push({ sql: `(${values.map(() => `${bug(column)} ${like}`).join(' OR ')})`, params: values.map((v) => `%${likeEscape(v)}%`) });
    }
    // People: the login, exactly (the seed); `reporter` is the other name of `creator`.
    for (const [key, column] of PEOPLE_COLUMNS) {
      const logins = input[key] ?? [];
      if (logins.length) byName(column, 'users', 'login_name', logins);
    }
    if (input.tags !== undefined) {
      conditions.push({
        sql: `${bug('id')} IN (SELECT ${q('x.bug_id')} FROM ${q('bug_tags')} x JOIN ${q('tags')} t ON ${q('t.id')} = ${q('x.tag_id')}
               WHERE ${q('t.user_id')} = ? AND ${q('t.name')} IN ${sql.in(input.tags)})`,
        params: [tagOwnerId, ...input.tags],
      });
    }
    for (const key of ['creation_time', 'last_change_time'] as const) {
      const value = since[key];
      if (value !== undefined) conditions.push({ sql: `${bug(key)} >= ?`, params: [value] });
    }
    return conditions;
  }

  /** Statuses by name, or by open-ness (`__open__`, `__closed__`); `__all__` is every status. */
  private statusCondition(sql: Sql, values: string[]): SqlCondition {
    const q = sql.quote;
    const open = (flag: number) =>
      `${q('b.status')} IN (SELECT ${q('v.value')} FROM ${q('field_values')} v JOIN ${q('fielddefs')} f ON ${q('f.id')} = ${q('v.field_id')}
        WHERE ${q('f.name')} = 'bug_status' AND ${q('v.is_open')} = ${flag})`;
    const parts: string[] = [];
    const plain = values.filter((v) => !['__open__', '__closed__', '__all__'].includes(v));
    if (values.includes('__all__')) return { sql: '1 = 1', params: [] };
    if (values.includes('__open__')) parts.push(open(1));
    if (values.includes('__closed__')) parts.push(open(0));
    if (plain.length) parts.push(`${q('b.status')} IN ${sql.in(plain)}`);
    return { sql: `(${parts.join(' OR ')})`, params: plain };
  }
}
