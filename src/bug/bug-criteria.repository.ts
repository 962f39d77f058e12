import { Injectable } from '@nestjs/common';
import type { ReadSql, SqlValue } from '../database/sql.js';
import { findRows } from '../database/entity-rows.js';
import { BugDuplicate } from './entities/bug-duplicate.entity.js';
import { Bug } from './entities/bug.entity.js';
import type { BugColumn, BugCriteria, BugIdColumn, ColumnMatcher, SearchableRelation, SearchWindow, SortedBug, SortKey, SqlCondition } from './bug.types.js';

/** The sub-selects of the bug module's own tables that hang on a bug: (table, the bug's column, the tested column). */
const RELATIONS: Readonly<Record<Exclude<SearchableRelation, 'tags'>, [table: string, bugColumn: string, valueColumn: string]>> = {
  aliases: ['bug_aliases', 'bug_id', 'alias'],
  // `blocked` of a bug: the bugs it blocks, i.e. those that depend on it.
  blocked: ['bug_dependencies', 'depends_on_id', 'blocked_id'],
  dependson: ['bug_dependencies', 'blocked_id', 'depends_on_id'],
  dup_id: ['bug_duplicates', 'dupe_id', 'dupe_of_id'],
  // BMO's: `regressed_by` of a bug, the bugs that introduced it; `regresses` (API regressions), those it introduced.
  regressed_by: ['bug_regressions', 'regression_id', 'regressed_by_id'],
  regresses: ['bug_regressions', 'regressed_by_id', 'regression_id'],
  see_also: ['bug_see_also', 'bug_id', 'url'],
  keywords: ['bug_keywords', 'bug_id', 'keyword_id'],
  cc: ['bug_cc', 'bug_id', 'user_id'],
  groups: ['bug_groups', 'bug_id', 'group_id'],
};

/**
 * The rows sorted after `last` by `keys` (then by id): at the first key that differs, beyond `last`'s value. NULL sorts
 * first ascending and last descending, on SQLite and MariaDB alike.
 */
function keysetAfter(keys: readonly string[], idColumn: string, order: readonly SortKey[], last: SortedBug): SqlCondition {
  const levels: SqlCondition[] = [];
  const equal: SqlCondition[] = [];
  order.forEach((key, i) => {
    const value = last.keys[i];
    const column = keys[i];
    const beyond: SqlCondition = value === null
      ? { sql: key.descending ? '1 = 0' : `${column} IS NOT NULL`, params: [] }
      : { sql: key.descending ? `(${column} < ? OR ${column} IS NULL)` : `${column} > ?`, params: [value] };
    levels.push(allOf([...equal, beyond]));
    equal.push(value === null ? { sql: `${column} IS NULL`, params: [] } : { sql: `${column} = ?`, params: [value] });
  });
  levels.push(allOf([...equal, { sql: `${idColumn} > ?`, params: [last.id] }]));
  return { sql: `(${levels.map((l) => l.sql).join(' OR ')})`, params: levels.flatMap((l) => l.params) };
}

function allOf(conditions: readonly SqlCondition[]): SqlCondition {
  return { sql: `(${conditions.map((c) => c.sql).join(' AND ')})`, params: conditions.flatMap((c) => c.params) };
}

/**
 * Search Bugs' SQL over the bug module's own tables (a hot path bench/ measures; BugCriteria in bug.types.ts): each
 * criterion is a test of a column of `bugs` or a sub-select of the bug module's tables; the bug-search module adds
 * those of other modules (comments, attachments, flags) and ids their services resolved (products, components,
 * users, keywords, groups). Every identifier is quoted in the handle's dialect; every value is bound.
 */
@Injectable()
export class BugCriteriaRepository implements BugCriteria {
  /**
   * The bugs meeting `where`, sorted by `order` then ascending id (so pages never skip or repeat a bug), each with its
   * sort keys' values; past `window.after` by those values (keyset: the index finds the page's start, no rows are
   * skipped by OFFSET).
   */
  async findIds(sql: ReadSql, where: SqlCondition, order: readonly SortKey[], window: SearchWindow): Promise<SortedBug[]> {
    const q = sql.quote;
    const keys = order.map((k) => q(`b.${k.column}`));
    const sort = [...order.map((k, i) => `${keys[i]}${k.descending ? ' DESC' : ''}`), q('b.id')].join(', ');
    const after = window.after ? keysetAfter(keys, q('b.id'), order, window.after) : undefined;
    const rows = await sql.all<Record<string, string | number | null>>(
      `SELECT ${[q('b.id'), ...keys.map((key, i) => `${key} AS ${q(`k${i}`)}`)].join(', ')} FROM ${q('bugs')} b `
        + `WHERE ${where.sql}${after ? ` AND ${after.sql}` : ''} ORDER BY ${sort} LIMIT ${Number(window.limit)} OFFSET ${Number(window.offset)}`,
      [...where.params, ...(after?.params ?? [])],
    );
    return rows.map((r) => ({ id: Number(r.id), keys: order.map((_, i) => r[`k${i}`] ?? null) }));
  }

  /** How many bugs meet `where`. */
  async count(sql: ReadSql, where: SqlCondition): Promise<number> {
    const row = await sql.one<{ n: number }>(`SELECT COUNT(*) AS ${sql.quote('n')} FROM ${sql.quote('bugs')} b WHERE ${where.sql}`, where.params);
    return Number(row?.n ?? 0);
  }

  /** A test of a column of the bug itself. */
  onBug(sql: ReadSql, column: BugColumn | BugIdColumn, match: ColumnMatcher): SqlCondition {
    return match(sql.quote(`b.${column}`));
  }

  /** `b.id IN (bugs with a row of the relation whose value matches)`; tags count only the owner's. */
  related(sql: ReadSql, relation: SearchableRelation, match: ColumnMatcher, tagOwnerId = 0): SqlCondition {
    const q = sql.quote;
    if (relation === 'tags') {
      const test = match(q('t.name'));
      return {
        sql: `${q('b.id')} IN (SELECT ${q('x.bug_id')} FROM ${q('bug_tags')} x JOIN ${q('tags')} t ON ${q('t.id')} = ${q('x.tag_id')} WHERE ${q('t.user_id')} = ? AND ${test.sql})`,
        params: [tagOwnerId, ...test.params],
      };
    }
    const [table, bugColumn, valueColumn] = RELATIONS[relation];
    const test = match(q(`r.${valueColumn}`));
    return { sql: `${q('b.id')} IN (SELECT ${q(`r.${bugColumn}`)} FROM ${q(table)} r WHERE ${test.sql})`, params: test.params };
  }

  /** A custom field's value (one row per value, multi-selects have several). */
  custom(sql: ReadSql, fieldId: number, match: ColumnMatcher): SqlCondition {
    const q = sql.quote;
    const test = match(q('cv.value'));
    return {
      sql: `${q('b.id')} IN (SELECT ${q('cv.bug_id')} FROM ${q('bug_custom_values')} cv WHERE ${q('cv.field_id')} = ? AND ${test.sql})`,
      params: [fieldId, ...test.params],
    };
  }

  /**
   * The `changed*` operators: bugs whose history has a change of one of `fields` meeting every given test (moment
   * before/after, old value, new value, who).
   */
  changed(sql: ReadSql, fields: readonly string[], test: { before?: string; after?: string; from?: ColumnMatcher; to?: ColumnMatcher; by?: ColumnMatcher }): SqlCondition {
    const q = sql.quote;
    const parts = [`${q('a.field_name')} IN ${sql.in(fields)}`];
    const params: SqlValue[] = [...fields];
    if (test.before !== undefined) { parts.push(`${q('a.changed_at')} < ?`); params.push(test.before); }
    if (test.after !== undefined) { parts.push(`${q('a.changed_at')} > ?`); params.push(test.after); }
    for (const [matcher, column] of [[test.from, 'removed'], [test.to, 'added'], [test.by, 'user_id']] as const) {
      if (!matcher) continue;
      const condition = matcher(q(`a.${column}`));
      parts.push(condition.sql);
      params.push(...condition.params);
    }
    return { sql: `${q('b.id')} IN (SELECT ${q('a.bug_id')} FROM ${q('bug_activity')} a WHERE ${parts.join(' AND ')})`, params };
  }

  /**
   * Ids of at most `limit` bugs meeting `where`, ranked by how many of `ranks` each meets, then the newest first,
   * each with the bug it is a duplicate of (Possible Duplicates).
   */
  async ranked(sql: ReadSql, where: SqlCondition, ranks: readonly SqlCondition[], limit: number): Promise<Array<{ id: number; dupeOf: number | null }>> {
    const q = sql.quote;
    const rank = ranks.map((r) => `CASE WHEN ${r.sql} THEN 1 ELSE 0 END`).join(' + ') || '0';
    const rows = await sql.all<{ id: number; dupe_of: number | null }>(
      `SELECT ${q('b.id')}, ${q('d.dupe_of_id')} AS ${q('dupe_of')} FROM ${q('bugs')} b `
        + `LEFT JOIN ${q('bug_duplicates')} d ON ${q('d.dupe_id')} = ${q('b.id')} `
        + `WHERE ${where.sql} ORDER BY ${rank} DESC, ${q('b.id')} DESC LIMIT ${Number(limit)}`,
      [...where.params, ...ranks.flatMap((r) => r.params)],
    );
    return rows.map((r) => ({ id: Number(r.id), dupeOf: r.dupe_of === null ? null : Number(r.dupe_of) }));
  }

  /** The bug each of `ids` that is a duplicate is a duplicate of. */
  async dupeTargets(sql: ReadSql, ids: readonly number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    return new Map((await findRows(sql.repository(BugDuplicate), { dupeId: ids })).map((d) => [d.dupeId, d.dupeOfId]));
  }

  /** A bug's summary (undefined for an unknown bug). */
  async summaryOf(sql: ReadSql, id: number): Promise<string | undefined> {
    return (await sql.repository(Bug).findOne({ select: { id: true, summary: true }, where: { id } }))?.summary;
  }
}
