import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type RowId, type Sql, type ReadSql } from '../../database/sql.js';
import { findRows, insertRowHeld, insertRows, lockRows, updateRows } from '../../database/entity-rows.js';
import type { BugRow } from '../bug.types.js';
import { Bug } from '../entities/bug.entity.js';
import { BugAlias } from '../entities/bug-alias.entity.js';
import { BugCc } from '../entities/bug-cc.entity.js';
import { BugKeyword } from '../entities/bug-keyword.entity.js';
import { BugGroup } from '../entities/bug-group.entity.js';
import { BugSeeAlso } from '../entities/bug-see-also.entity.js';
import { BugCustomValue } from '../entities/bug-custom-value.entity.js';
import type { BugGraph, Direction, GraphEdge } from '../bug.types.js';
import { edgeRow, edgeTable, walkOf } from './graph-edges.js';

/** A bug's stored columns, without its relations: what Create Bug writes. */
/** A new bug's row; BMO's type and filed_via take the columns' defaults when not given (bmo_bug_fields off). */
export type NewBugRow = Omit<BugRow, 'id' | 'type' | 'filedVia'> & Partial<Pick<BugRow, 'type' | 'filedVia'>>;

/**
 * The bugs table and the lists hanging on a bug (aliases, cc, keywords, groups, see also, custom values,
 * dependencies), outside the hot paths (bug-loader.repository.ts and bug-visibility.repository.ts hold those). Every
 * method takes the handle: `db.read`, or a write's `tx`. Create and Update Bug (src/bug-write) reach it through
 * BugStoreService.
 */
@Injectable()
export class BugRepository {
  /** Bug rows by id; `forUpdate` locks them for the rest of the transaction (MySQL; SQLite's writer is alone). */
  async rows(sql: Sql, ids: readonly number[], options: { forUpdate?: boolean } = {}): Promise<Bug[]> {
    const unique = [...new Set(ids)];
    if (!unique.length) return [];
    return findRows(sql.repository(Bug), { id: unique }, options);
  }

  /** Locks the bugs' rows, in the order given, with the transaction's next statement (entity-rows.ts, lockRows). */
  lock(tx: Sql, ids: readonly number[]): Promise<void> {
    return lockRows(tx.repository(Bug), { id: [...new Set(ids)] });
  }

  /**
   * The bugs owning these aliases (compared as the column's collation: case-insensitively). With `lock` (inside a
   * write), a locking read on MySQL: it sees aliases a concurrent write committed after the transaction began, and
   * holds their absence, so two writes giving one alias to two bugs cannot both pass the check (one waits, or
   * deadlocks and is run again, and then sees the other's).
   */
  aliasOwners(sql: ReadSql, aliases: readonly string[], options: { lock?: boolean } = {}): Promise<BugAlias[]> {
    if (!aliases.length) return Promise.resolve([]);
    const lock = options.lock && sql.dialect === 'mysql' ? { mode: 'pessimistic_read' as const } : undefined;
    return sql.repository(BugAlias).find({ select: { bugId: true, alias: true }, where: { alias: In([...aliases]) }, lock });
  }

  /**
   * For each of `ids`, its neighbours in the dependency graph in one direction. With `lock` (inside a write), a
   * locking read on MySQL: it sees edges committed by a concurrent write after the transaction began, and holds them,
   * so two writes cannot each pass the loop check and close a loop together (one waits, or deadlocks and is retried).
   */
  async dependencyNeighbours(sql: Sql, ids: readonly number[], direction: Direction, options: { lock?: boolean } = {}): Promise<Map<number, number[]>> {
    const found = new Map<number, number[]>();
    if (!ids.length) return found;
    const { graph, from, to } = walkOf(direction);
    const lock = options.lock && sql.dialect === 'mysql' ? { mode: 'pessimistic_read' as const } : undefined;
    const rows = await sql.repository(edgeTable(graph)).find({ where: { [from]: In([...ids]) }, lock });
    for (const row of rows) found.set(Number(row[from]), [...(found.get(Number(row[from])) ?? []), Number(row[to])]);
    return found;
  }

  /**
   * Writes a new bug's row; returns its id, which may still be held in the database (HeldRowId): the lists below
   * take it as it is.
   */
  insertBug(tx: Sql, bug: NewBugRow): Promise<RowId> {
    return insertRowHeld(tx.repository(Bug), bug);
  }

  /** Adds aliases to a bug; a taken alias fails on the unique index (the caller maps it to 103). */
  async addAliases(tx: Sql, bugId: RowId, aliases: readonly string[]): Promise<void> {
    await insertRows(tx.repository(BugAlias), aliases.map((alias) => ({ alias, bugId })));
  }

  async addCc(tx: Sql, bugId: RowId, userIds: readonly number[]): Promise<void> {
    await insertRows(tx.repository(BugCc), userIds.map((userId) => ({ bugId, userId })));
  }

  async addKeywords(tx: Sql, bugId: RowId, keywordIds: readonly number[]): Promise<void> {
    await insertRows(tx.repository(BugKeyword), keywordIds.map((keywordId) => ({ bugId, keywordId })));
  }

  async addGroups(tx: Sql, bugId: RowId, groupIds: readonly number[]): Promise<void> {
    await insertRows(tx.repository(BugGroup), groupIds.map((groupId) => ({ bugId, groupId })));
  }

  async addSeeAlso(tx: Sql, bugId: RowId, urls: readonly string[]): Promise<void> {
    await insertRows(tx.repository(BugSeeAlso), urls.map((url) => ({ bugId, url })));
  }

  /** One row per value (a multi-select field has several). */
  async addCustomValues(tx: Sql, bugId: RowId, values: ReadonlyArray<{ fieldId: number; values: readonly string[] }>): Promise<void> {
    await insertRows(tx.repository(BugCustomValue), values.flatMap((c) => c.values.map((value) => ({ bugId, fieldId: c.fieldId, value }))));
  }

  /** Edges of a graph between bugs (dependencies: the upper bug cannot be fixed before the lower one). */
  async addEdges(tx: Sql, graph: BugGraph['name'], edges: readonly GraphEdge[]): Promise<void> {
    await insertRows(tx.repository(edgeTable(graph)), edges.map((edge) => edgeRow(graph, edge)));
  }

  /**
   * Moves the bugs' revision alone: something shown with them changed that is no change of the bug in Bugzilla's
   * sense (its last_change_time stays), such as a comment's tags. What is kept under the revision goes. Writers go
   * through BugEditsService, which also forgets what this instance kept of the bugs.
   */
  async moveRevision(tx: Sql, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await tx.repository(Bug).increment({ id: In([...ids]) }, 'revision', 1);
  }

  /** Moves the bugs' last_change_time: something they show changed (with `columns` changed beside it); BugEditsService.touch. */
  async touch(tx: Sql, ids: readonly number[], at: string, columns: Partial<Pick<Bug, 'remainingTime'>> = {}): Promise<void> {
    if (!ids.length) return;
    await updateRows(tx.repository(Bug), { id: ids }, { ...columns, lastChangeTime: at });
  }
}
