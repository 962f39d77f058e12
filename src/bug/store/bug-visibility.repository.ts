import { Injectable } from '@nestjs/common';
import type { Sql, SqlValue, ReadSql } from '../../database/sql.js';
import type { Caller } from '../../common/caller.js';
import type { CompanionStatement } from '../../common/http/companion-read.js';

/** A SQL boolean expression with its bound parameters, to place in a WHERE or a select list. */
export interface SqlCondition {
  sql: string;
  params: SqlValue[];
}

interface VisibilityRow {
  c_id: number | null;
  c_visible: number | null;
}

/** visibilityStatement's rows (a companion's rows carry a NULL c_id when it found no bug). */
export function visibilityOfRows(rows: ReadonlyArray<Partial<VisibilityRow>>): Array<{ id: number; visible: boolean }> {
  return rows.filter((r) => r.c_id != null).map((r) => ({ id: Number(r.c_id), visible: Number(r.c_visible) === 1 }));
}

/**
 * The SQL of the ONE bug visibility rule (hot path: every read of a bug asks it, so it is hand-written and joins
 * nothing but the bug's own tables). The rule itself is described on BugVisibilityService.
 */
@Injectable()
export class BugVisibilityRepository {
  /** True for the bugs (the `bugs` table aliased `alias`) the caller may see. */
  predicate(sql: Pick<Sql, 'quote'>, caller: Caller, alias = 'b'): SqlCondition {
    const q = sql.quote;
    const bug = (column: string) => q(`${alias}.${column}`);
    const groups = caller.groupIds;
    const inNoGroup = `NOT EXISTS (SELECT 1 FROM ${q('bug_groups')} vg WHERE ${q('vg.bug_id')} = ${bug('id')})`;
    const placeholders = groups.map(() => '?').join(', ');
    let groupRule: string;
    if (!groups.length) groupRule = inNoGroup;
    else if (caller.parameters.bool('or_groups')) {
      groupRule = `(${inNoGroup} OR EXISTS (SELECT 1 FROM ${q('bug_groups')} vg WHERE ${q('vg.bug_id')} = ${bug('id')} AND ${q('vg.group_id')} IN (${placeholders})))`;
    } else {
      // Written with NOT IN over a non-empty list only: `x NOT IN (NULL)` is NULL and would let every bug through.
      groupRule = `NOT EXISTS (SELECT 1 FROM ${q('bug_groups')} vg WHERE ${q('vg.bug_id')} = ${bug('id')} AND ${q('vg.group_id')} NOT IN (${placeholders}))`;
    }
    if (!caller.isLoggedIn) return { sql: groupRule, params: [...groups] };

    const me = caller.id;
    const personal = [
      `${bug('assigned_to_id')} = ?`,
      ...(caller.parameters.bool('useqacontact') ? [`${bug('qa_contact_id')} = ?`] : []),
      `(${bug('is_creator_accessible')} = 1 AND ${bug('reporter_id')} = ?)`,
      `(${bug('is_cc_accessible')} = 1 AND EXISTS (SELECT 1 FROM ${q('bug_cc')} vc WHERE ${q('vc.bug_id')} = ${bug('id')} AND ${q('vc.user_id')} = ?))`,
    ];
    const personalParams = personal.map(() => me);
    return { sql: `(${groupRule} OR ${personal.join(' OR ')})`, params: [...groups, ...personalParams] };
  }

  /** `1` when the caller may see the bug, else `0`: a column for queries that must tell hidden from missing. */
  visibleColumn(sql: Pick<Sql, 'quote'>, caller: Caller, alias = 'b'): SqlCondition {
    const { sql: predicate, params } = this.predicate(sql, caller, alias);
    return { sql: `CASE WHEN ${predicate} THEN 1 ELSE 0 END`, params };
  }

  /** Of these (distinct) ids, those the caller may see. */
  async visibleIds(sql: ReadSql, caller: Caller, ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const q = sql.quote;
    const visible = this.predicate(sql, caller);
    const rows = await sql.all<{ id: number }>(
      `SELECT ${q('b.id')} FROM ${q('bugs')} b WHERE ${q('b.id')} IN ${sql.in(ids)} AND ${visible.sql}`,
      [...ids, ...visible.params],
    );
    return rows.map((r) => Number(r.id));
  }

  /** For each existing bug of these (distinct) ids, whether the caller may see it; missing bugs are absent. */
  async visibilityOf(sql: ReadSql, caller: Caller, ids: readonly number[]): Promise<Array<{ id: number; visible: boolean }>> {
    if (!ids.length) return [];
    const statement = this.visibilityStatement(sql, caller, ids);
    const rows = await sql.all<VisibilityRow>(
      `SELECT ${statement.columns} FROM ${statement.table} WHERE ${statement.on}`,
      [...statement.columnParams, ...statement.onParams],
    );
    return visibilityOfRows(rows);
  }

  /**
   * visibilityOf's statement, on its own or as a companion read of the credential's statement (BugVisibilityCompanion):
   * a row per existing bug, `c_id` and `c_visible`.
   */
  visibilityStatement(sql: Pick<Sql, 'quote' | 'in'>, caller: Caller, ids: readonly number[]): CompanionStatement {
    const q = sql.quote;
    const visible = this.visibleColumn(sql, caller);
    return {
      columns: `${q('b.id')} AS ${q('c_id')}, ${visible.sql} AS ${q('c_visible')}`,
      columnParams: visible.params,
      table: `${q('bugs')} b`,
      on: `${q('b.id')} IN ${sql.in(ids)}`,
      onParams: [...ids],
    };
  }

  /** Which of these callers (distinct users) may see the bug, asked for all of them in one statement. */
  async usersWhoCanSee(sql: ReadSql, bugId: number, callers: readonly Caller[]): Promise<number[]> {
    if (!callers.length) return [];
    const q = sql.quote;
    const parts: string[] = [];
    const params: SqlValue[] = [];
    for (const caller of callers) {
      const visible = this.predicate(sql, caller);
      parts.push(`SELECT ${Number(caller.id)} AS ${q('user_id')} FROM ${q('bugs')} b WHERE ${q('b.id')} = ? AND ${visible.sql}`);
      params.push(bugId, ...visible.params);
    }
    const rows = await sql.all<{ user_id: number }>(parts.join(' UNION ALL '), params);
    return rows.map((r) => Number(r.user_id));
  }
}
