import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { StatusDef, Transition } from '../bug/rules/workflow.js';
import { FieldType } from '../database/install/install-data.js';
import { pickByIdsAndNames } from '../product/pick-by-ids-and-names.js';
import { EMPTY_SELECT_VALUE, SELECT_TYPES, parseCustomField } from './custom-field-input.js';
import type { CustomFieldInput } from './dto/custom-field.dto.js';

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

/** A row of fielddefs: a standard or custom bug field (internal name, as Get Fields reports it). */
export interface FieldDefRecord {
  id: number;
  name: string;
  description: string;
  type: number;
  isCustom: boolean;
  isObsolete: boolean;
  isMandatory: boolean;
  enterBug: boolean;
  sortKey: number;
  visibilityFieldId: number | null;
  valueFieldId: number | null;
}

/** A legal value with the field it belongs to and the value of the controlling field that shows it. */
export interface FieldValueOfField extends FieldValueRecord {
  fieldId: number;
  visibilityValueId: number | null;
}

export interface KeywordRecord {
  id: number;
  name: string;
  isActive: boolean;
}

/** A keyword with its description and the number of bugs carrying it. */
export interface KeywordDetail extends KeywordRecord {
  description: string;
  bugCount: number;
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

function toFieldDef(row: Record<string, any>): FieldDefRecord {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    type: Number(row.type),
    isCustom: Number(row.custom) === 1,
    isObsolete: Number(row.obsolete) === 1,
    isMandatory: Number(row.is_mandatory) === 1,
    enterBug: Number(row.enter_bug) === 1,
    sortKey: Number(row.sortkey),
    visibilityFieldId: row.visibility_field_id == null ? null : Number(row.visibility_field_id),
    valueFieldId: row.value_field_id == null ? null : Number(row.value_field_id),
  };
}

const FIELD_COLUMNS = 'id, name, description, type, custom, obsolete, is_mandatory, enter_bug, sortkey, visibility_field_id, value_field_id';

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
  constructor(private readonly db: Db, private readonly audit: AuditService) {}

  /** Every non-obsolete field, standard and custom, by sort key then name (Bugzilla's field list order). */
  async allFields(sql: Sql = this.db.read): Promise<FieldDefRecord[]> {
    const rows = await sql.all(`SELECT ${FIELD_COLUMNS} FROM fielddefs WHERE obsolete = 0 ORDER BY sortkey, name`);
    return rows.map(toFieldDef);
  }

  /** Fields by id and by internal name (obsolete ones too, as Bugzilla's Field->check); an unknown one is 51. */
  async fieldsByIdsAndNames(target: { ids: number[]; names: string[] }, sql: Sql = this.db.read): Promise<FieldDefRecord[]> {
    const rows = await sql.all(
      `SELECT ${FIELD_COLUMNS} FROM fielddefs WHERE id IN ${sql.in(target.ids)} OR name IN ${sql.in(target.names)}`,
      [...target.ids, ...target.names],
    );
    return pickByIdsAndNames(rows.map(toFieldDef), target, 'field');
  }

  /** The legal values of many fields in one query, each list in sort order. */
  async valuesOfFields(fieldIds: readonly number[], sql: Sql = this.db.read): Promise<FieldValueOfField[]> {
    const unique = [...new Set(fieldIds)];
    if (!unique.length) return [];
    const rows = await sql.all(
      `SELECT id, field_id, value, sortkey, is_active, is_open, visibility_value_id FROM field_values WHERE field_id IN ${sql.in(unique)}`, unique);
    return rows
      .map((row) => ({
        ...toFieldValue(row),
        fieldId: Number(row.field_id),
        visibilityValueId: row.visibility_value_id == null ? null : Number(row.visibility_value_id),
      }))
      .sort((a, b) => a.fieldId - b.fieldId || bySortKey(a, b));
  }

  /**
   * Defines a custom field (POST /rest/field/bug and the admin command line): the definition checked as
   * Bugzilla's Field validators do, a unique `cf_` name, and for the select kinds the `---` value plus the
   * given ones. Runs in `tx` when given, else in a transaction of its own; audited as `Tracker::Field`.
   */
  async createCustomField(input: CustomFieldInput, actor: { userId: number; now: Date }, tx?: Sql): Promise<number> {
    if (!tx) return this.db.transaction((own) => this.createCustomField(input, actor, own));
    const definition = parseCustomField(input);
    if (await tx.one('SELECT id FROM fielddefs WHERE name = ?', [definition.name])) {
      throw TrackerError.of(Errors.FIELD_ALREADY_EXISTS, { name: definition.name });
    }
    const last = await tx.one<{ top: number | null }>('SELECT MAX(sortkey) AS top FROM fielddefs');
    const isSelect = SELECT_TYPES.has(definition.type);
    const id = await tx.insert('fielddefs', {
      name: definition.name,
      description: definition.description,
      type: definition.type,
      custom: 1,
      obsolete: 0,
      mailhead: 0,
      // New custom fields go last unless a sort key is given.
      sortkey: definition.sortKey ?? Number(last?.top ?? 0) + 100,
      enter_bug: definition.enterBug ? 1 : 0,
      buglist: definition.type === FieldType.MULTI_SELECT || definition.type === FieldType.TEXTAREA ? 0 : 1,
      is_mandatory: definition.isMandatory ? 1 : 0,
      is_numeric: definition.type === FieldType.BUG_ID || definition.type === FieldType.INTEGER ? 1 : 0,
      reverse_desc: definition.reverseDesc,
    });
    if (isSelect) {
      await tx.insertMany('field_values', [EMPTY_SELECT_VALUE, ...definition.values].map((value, index) => ({
        field_id: id, value, sortkey: index * 100, is_active: 1, is_open: null, visibility_value_id: null,
      })));
    }
    await this.audit.recordCreate(tx, { userId: actor.userId, className: 'Tracker::Field', objectId: id, added: definition.name, at: toDbDateTime(actor.now) });
    return id;
  }

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

  /** Legal values of several select fields in one query (Create Bug needs six): field name → its values in sort order. */
  async legalValuesOfFields(fieldNames: readonly string[], sql: Sql = this.db.read): Promise<Map<string, FieldValueRecord[]>> {
    const byField = new Map<string, FieldValueRecord[]>(fieldNames.map((name) => [name, []]));
    if (!fieldNames.length) return byField;
    const rows = await sql.all(
      `SELECT f.name AS field, v.id, v.value, v.sortkey, v.is_active, v.is_open
         FROM field_values v JOIN fielddefs f ON f.id = v.field_id
        WHERE f.name IN ${sql.in(fieldNames)}`,
      [...fieldNames],
    );
    for (const row of rows) byField.get(row.field)?.push(toFieldValue(row));
    for (const values of byField.values()) values.sort(bySortKey);
    return byField;
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
    const rows = await sql.all(`SELECT ${FIELD_COLUMNS} FROM fielddefs WHERE custom = 1 AND obsolete = 0 ORDER BY sortkey, name`);
    return rows.map(toFieldDef).map(({ id, name, description, type, isMandatory, enterBug, sortKey }) => ({
      id, name, description, type, isMandatory, enterBug, sortKey,
    }));
  }

  /** Keywords by name (case-insensitive); the map's key is the lower-cased name. */
  async keywordsByNames(names: readonly string[], sql: Sql = this.db.read): Promise<Map<string, KeywordRecord>> {
    const unique = [...new Set(names.map((n) => String(n).trim()).filter((n) => n !== ''))];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT id, name, is_active FROM keywords WHERE name IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [String(row.name).toLowerCase(), toKeyword(row)]));
  }

  /** Every keyword (active or not) by name, with its description and bug count (one query). */
  async allKeywords(sql: Sql = this.db.read): Promise<KeywordDetail[]> {
    const rows = await sql.all(
      `SELECT k.id, k.name, k.description, k.is_active, COUNT(bk.bug_id) AS bug_count
         FROM keywords k LEFT JOIN bug_keywords bk ON bk.keyword_id = k.id
        GROUP BY k.id, k.name, k.description, k.is_active ORDER BY k.name`,
    );
    return rows.map((row) => ({ ...toKeyword(row), description: row.description ?? '', bugCount: Number(row.bug_count) }));
  }

  async keywordsByIds(ids: readonly number[], sql: Sql = this.db.read): Promise<Map<number, KeywordRecord>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await sql.all(`SELECT id, name, is_active FROM keywords WHERE id IN ${sql.in(unique)}`, unique);
    return new Map(rows.map((row) => [Number(row.id), toKeyword(row)]));
  }
}
