import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';

export interface FlagTypeRecord {
  id: number;
  name: string;
  description: string;
  targetType: 'bug' | 'attachment';
  isActive: boolean;
  isRequestable: boolean;
  /** is_specifically_requestable of Bugzilla (the API spells it is_requesteeble). */
  isRequesteeble: boolean;
  isMultiplicable: boolean;
  sortKey: number;
  grantGroupId: number | null;
  requestGroupId: number | null;
  ccList: string;
}

export function toFlagType(row: Record<string, any>): FlagTypeRecord {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description ?? '',
    targetType: row.target_type === 'attachment' ? 'attachment' : 'bug',
    isActive: Number(row.is_active) === 1,
    isRequestable: Number(row.is_requestable) === 1,
    isRequesteeble: Number(row.is_requesteeble) === 1,
    isMultiplicable: Number(row.is_multiplicable) === 1,
    sortKey: Number(row.sortkey),
    grantGroupId: row.grant_group_id == null ? null : Number(row.grant_group_id),
    requestGroupId: row.request_group_id == null ? null : Number(row.request_group_id),
    ccList: row.cc_list ?? '',
  };
}

/**
 * Flag types and where they apply (inclusions/exclusions by product and component, NULL meaning "any").
 * Setting flags on bugs and attachments belongs to the bug module.
 */
@Injectable()
export class FlagTypeService {
  constructor(private readonly db: Db) {}

  /**
   * The flag types of a target type that apply to a product/component: included (for any product, the
   * product, or the component) and not excluded likewise; in sortkey, name order (Bugzilla's match()).
   */
  async applicableTypes(productId: number, componentId: number, target: 'bug' | 'attachment', sql: Sql = this.db.read): Promise<FlagTypeRecord[]> {
    const matches = (table: string) =>
      `SELECT 1 FROM ${table} x WHERE x.type_id = t.id
          AND (x.product_id IS NULL OR x.product_id = ?) AND (x.component_id IS NULL OR x.component_id = ?)`;
    const rows = await sql.all(
      `SELECT t.* FROM flag_types t
        WHERE t.target_type = ? AND EXISTS (${matches('flag_inclusions')}) AND NOT EXISTS (${matches('flag_exclusions')})
        ORDER BY t.sortkey, t.name, t.id`,
      [target, productId, componentId, productId, componentId],
    );
    return rows.map(toFlagType);
  }

  async typesByIds(ids: readonly number[], sql: Sql = this.db.read): Promise<Map<number, FlagTypeRecord>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT * FROM flag_types WHERE id IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [Number(row.id), toFlagType(row)]));
  }
}
