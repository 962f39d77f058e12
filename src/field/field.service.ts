import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { StatusDef, Transition } from '../bug/rules/workflow.js';

/** One legal value of a select field (field_values). `isOpen` is set for bug_status values only. */
export interface FieldValueRecord {
  id: number;
  value: string;
  sortKey: number;
  isActive: boolean;
  isOpen: boolean | null;
}

/** A non-obsolete custom field (fielddefs with custom = 1). `type`: Bugzilla's field type number. */
export interface CustomFieldRecord {
  id: number;
  name: string;
  description: string;
  type: number;
  isMandatory: boolean;
  enterBug: boolean;
  sortKey: number;
}

export interface KeywordRecord {
  id: number;
  name: string;
  isActive: boolean;
}

function toFieldValue(row: Record<string, any>): FieldValueRecord {
  return {
    id: Number(row.id),
    value: row.value,
    sortKey: Number(row.sortkey),
    isActive: Number(row.is_active) === 1,
    isOpen: row.is_open == null ? null : Number(row.is_open) === 1,
  };
}

function toCustomField(row: Record<string, any>): CustomFieldRecord {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    type: Number(row.type),
    isMandatory: Number(row.is_mandatory) === 1,
    enterBug: Number(row.enter_bug) === 1,
    sortKey: Number(row.sortkey),
  };
}

function toKeyword(row: Record<string, any>): KeywordRecord {
  return { id: Number(row.id), name: row.name, isActive: Number(row.is_active) === 1 };
}

const bySortKey = (a: { sortKey: number; value: string }, b: { sortKey: number; value: string }) =>
  a.sortKey - b.sortKey || a.value.localeCompare(b.value);

/**
 * Field definitions (standard and custom), their legal values, the status workflow and keywords: the data the
 * bug module validates against (an administrator may change it without a code change).
 */
@Injectable()
export class FieldService {
  constructor(private readonly db: Db) {}

  /** Legal values of a select field by internal name (bug_status, resolution, bug_severity, priority, op_sys, rep_platform, cf_*), in sort order. */
  async legalValues(fieldName: string, sql: Sql = this.db.read): Promise<FieldValueRecord[]> {
    const rows = await sql.all(
      `SELECT v.id, v.value, v.sortkey, v.is_active, v.is_open
         FROM field_values v JOIN fielddefs f ON f.id = v.field_id
        WHERE f.name = ?`,
      [fieldName],
    );
    return rows.map(toFieldValue).sort(bySortKey);
  }

  async statuses(sql: Sql = this.db.read): Promise<StatusDef[]> {
    const values = await this.legalValues('bug_status', sql);
    return values.map((v) => ({ name: v.value, isOpen: v.isOpen !== false, isActive: v.isActive, sortKey: v.sortKey }));
  }

  async transitions(sql: Sql = this.db.read): Promise<Transition[]> {
    const rows = await sql.all(
      `SELECT f.value AS from_status, t.value AS to_status, w.require_comment
         FROM status_workflow w
         JOIN field_values t ON t.id = w.to_status_id
         LEFT JOIN field_values f ON f.id = w.from_status_id
        ORDER BY w.id`,
    );
    return rows.map((r) => ({ from: r.from_status ?? null, to: r.to_status, requireComment: Number(r.require_comment) === 1 }));
  }

  /** Non-obsolete custom fields, in sort order. */
  async customFields(sql: Sql = this.db.read): Promise<CustomFieldRecord[]> {
    const rows = await sql.all(
      'SELECT id, name, description, type, is_mandatory, enter_bug, sortkey FROM fielddefs WHERE custom = 1 AND obsolete = 0 ORDER BY sortkey, name',
    );
    return rows.map(toCustomField);
  }

  /** Keywords by name (case-insensitive); the map's key is the lower-cased name. */
  async keywordsByNames(names: readonly string[], sql: Sql = this.db.read): Promise<Map<string, KeywordRecord>> {
    const unique = [...new Set(names.map((n) => String(n).trim()).filter((n) => n !== ''))];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT id, name, is_active FROM keywords WHERE name IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [String(row.name).toLowerCase(), toKeyword(row)]));
  }

  async keywordsByIds(ids: readonly number[], sql: Sql = this.db.read): Promise<Map<number, KeywordRecord>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT id, name, is_active FROM keywords WHERE id IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [Number(row.id), toKeyword(row)]));
  }
}
