import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type Sql } from '../../database/sql.js';
import { deleteRows, insertRows, updateRows } from '../../database/entity-rows.js';
import { Bug } from '../entities/bug.entity.js';
import { BugAlias } from '../entities/bug-alias.entity.js';
import { BugCc } from '../entities/bug-cc.entity.js';
import { BugCustomValue } from '../entities/bug-custom-value.entity.js';
import { BugDependency } from '../entities/bug-dependency.entity.js';
import type { BugGraph, GraphEdge } from '../bug.types.js';
import { edgeRow, edgeTable, GRAPH_TABLES } from './graph-edges.js';
import { BugDuplicate } from '../entities/bug-duplicate.entity.js';
import { BugGroup } from '../entities/bug-group.entity.js';
import { BugKeyword } from '../entities/bug-keyword.entity.js';
import { BugSeeAlso } from '../entities/bug-see-also.entity.js';

/** The columns of the `bugs` row an update may write (entity properties). */
export type BugColumns = Partial<Pick<Bug,
  | 'summary' | 'status' | 'resolution' | 'productId' | 'componentId' | 'version' | 'targetMilestone' | 'opSys' | 'platform'
  | 'priority' | 'severity' | 'assignedToId' | 'qaContactId' | 'url' | 'whiteboard' | 'isConfirmed' | 'isCreatorAccessible'
  | 'isCcAccessible' | 'estimatedTime' | 'remainingTime' | 'deadline' | 'lastChangeTime' | 'type'>>;

/**
 * What Update Bug (src/bug-write, through BugStoreService) writes to the bug module's tables beyond what Create Bug
 * does (BugRepository holds the inserts both share): the row's changed columns, and the removals and replacements of a bug's lists. Every method runs on
 * the request's transaction and sends one statement, as the steps did before (the query-count tests hold it).
 */
@Injectable()
export class BugUpdateRepository {
  // ---- The bugs row ---------------------------------------------------------------------------------------

  async updateBug(tx: Sql, id: number, columns: BugColumns): Promise<void> {
    await updateRows(tx.repository(Bug), { id }, columns);
  }

  async statusesOf(tx: Sql, ids: readonly number[]): Promise<string[]> {
    const rows = await tx.repository(Bug).find({ select: { status: true }, where: { id: In([...ids]) } });
    return rows.map((r) => r.status);
  }

  // ---- Lists of the bug -----------------------------------------------------------------------------------

  async removeCc(tx: Sql, bugId: number, userIds: readonly number[]): Promise<void> {
    await deleteRows(tx.repository(BugCc), { bugId, userId: userIds });
  }

  async isOnCc(tx: Sql, bugId: number, userId: number): Promise<boolean> {
    return tx.repository(BugCc).exists({ where: { bugId, userId } });
  }

  async removeGroups(tx: Sql, bugId: number, groupIds: readonly number[]): Promise<void> {
    await deleteRows(tx.repository(BugGroup), { bugId, groupId: groupIds });
  }

  async removeKeywords(tx: Sql, bugId: number, keywordIds: readonly number[]): Promise<void> {
    await deleteRows(tx.repository(BugKeyword), { bugId, keywordId: keywordIds });
  }

  async removeAlias(tx: Sql, bugId: number, alias: string): Promise<void> {
    await deleteRows(tx.repository(BugAlias), { bugId, alias });
  }

  /** A custom field's values of the bug, replaced by `values`. */
  async replaceCustomValues(tx: Sql, bugId: number, fieldId: number, values: readonly string[]): Promise<void> {
    await deleteRows(tx.repository(BugCustomValue), { bugId, fieldId });
    await insertRows(tx.repository(BugCustomValue), values.map((value) => ({ bugId, fieldId, value })));
  }

  /** Whether the link was there (and is now gone). */
  async removeSeeAlso(tx: Sql, bugId: number, url: string): Promise<boolean> {
    return (await deleteRows(tx.repository(BugSeeAlso), { bugId, url })) > 0;
  }

  async hasSeeAlso(tx: Sql, bugId: number, url: string): Promise<boolean> {
    return tx.repository(BugSeeAlso).exists({ where: { bugId, url } });
  }

  // ---- Dependencies and duplicates ------------------------------------------------------------------------

  async removeEdge(tx: Sql, graph: BugGraph['name'], edge: GraphEdge): Promise<void> {
    await deleteRows(tx.repository(edgeTable(graph)), edgeRow(graph, edge));
  }

  /** The bugs this one depends on. */
  async dependsOnIds(tx: Sql, bugId: number): Promise<number[]> {
    const rows = await tx.repository(BugDependency).find({ select: { dependsOnId: true }, where: { blockedId: bugId } });
    return rows.map((r) => r.dependsOnId);
  }

  /** The bugs that list this one in the graphs: those it depends on or blocks, and with `regressions` BMO's alike. */
  async dependencyPartners(tx: Sql, bugId: number, options: { regressions?: boolean } = {}): Promise<number[]> {
    const partners = new Set<number>();
    for (const graph of options.regressions ? (['dependencies', 'regressions'] as const) : (['dependencies'] as const)) {
      const { upper, lower } = GRAPH_TABLES[graph];
      const rows = await tx.repository(edgeTable(graph)).find({ where: [{ [upper]: bugId }, { [lower]: bugId }] });
      for (const row of rows) partners.add(Number(row[upper]) === bugId ? Number(row[lower]) : Number(row[upper]));
    }
    return [...partners];
  }

  /** Marks the bug a duplicate of `dupeOfId`, or of nothing (null). */
  async setDupeOf(tx: Sql, dupeId: number, dupeOfId: number | null): Promise<void> {
    await deleteRows(tx.repository(BugDuplicate), { dupeId });
    if (dupeOfId !== null) await insertRows(tx.repository(BugDuplicate), [{ dupeId, dupeOfId }]);
  }

  /**
   * The bug `dupeId` is a duplicate of, if any. A locking read on MySQL: it waits for, then sees, a duplicate row
   * another update is writing, so two concurrent updates cannot close a duplicate chain into a loop together.
   */
  async dupeOfLocked(tx: Sql, dupeId: number): Promise<number | undefined> {
    const query = tx.repository(BugDuplicate).createQueryBuilder('d').select('d.dupeOfId', 'dupeOfId').where('d.dupeId = :dupeId', { dupeId });
    if (tx.dialect === 'mysql') query.setLock('pessimistic_read');
    const row = await query.getRawOne<{ dupeOfId: number | string }>();
    return row ? Number(row.dupeOfId) : undefined;
  }
}
