import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { KeywordBugCounts } from '../field/field.tokens.js';
import type { ProductBugUsage } from '../product/product.tokens.js';
import { BugKeyword } from './entities/bug-keyword.entity.js';
import { Bug } from './entities/bug.entity.js';

const countsOf = (rows: Array<{ id: number | string; n: number | string }>) => new Map(rows.map((r) => [Number(r.id), Number(r.n)]));

/**
 * What the catalogue modules below bug ask about bugs (PRODUCT_BUG_USAGE, KEYWORD_BUG_COUNTS): they cannot import
 * this module, so it answers through their tokens (CatalogueUsageModule).
 */
@Injectable()
export class CatalogueUsageRepository implements ProductBugUsage, KeywordBugCounts {
  async renameValue(tx: Sql, kind: 'version' | 'milestone', productId: number, from: string, to: string): Promise<void> {
    const bugs = tx.repository(Bug);
    if (kind === 'version') await bugs.update({ productId, version: from }, { version: to });
    else await bugs.update({ productId, targetMilestone: from }, { targetMilestone: to });
  }

  async bugCountsByComponent(tx: Sql, componentIds: readonly number[]): Promise<Map<number, number>> {
    if (!componentIds.length) return new Map();
    return countsOf(await tx.repository(Bug).createQueryBuilder('b')
      .select('b.componentId', 'id').addSelect('COUNT(*)', 'n')
      .where('b.componentId IN (:...componentIds)', { componentIds })
      .groupBy('b.componentId')
      .getRawMany());
  }

  async bugCountsByKeyword(sql: Sql): Promise<Map<number, number>> {
    return countsOf(await sql.repository(BugKeyword).createQueryBuilder('k')
      .select('k.keywordId', 'id').addSelect('COUNT(*)', 'n')
      .groupBy('k.keywordId')
      .getRawMany());
  }
}
