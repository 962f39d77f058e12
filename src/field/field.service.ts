import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { KeptReads } from '../common/kept-reads.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import type { FieldInstall, StatusDef, Transition } from './field.types.js';
import { FieldType } from './field-type.js';
import { pickByIdsAndNames } from '../common/pick-by-ids-and-names.js';
import { EMPTY_SELECT_VALUE, SELECT_TYPES, parseCustomField } from './custom-field-input.js';
import type { CustomFieldInput } from './dto/custom-field.dto.js';
import type { FieldDefinition } from './entities/field-definition.entity.js';
import type { FieldValue } from './entities/field-value.entity.js';
import type { Keyword } from './entities/keyword.entity.js';
import { FieldRepository } from './field.repository.js';
import { KeywordRepository } from './keyword.repository.js';

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

/** A keyword with its description. */
/** FieldService's reads as catalogueAt keeps them (same answers, frozen). */
export interface FieldCatalogue {
  customFields(): Promise<readonly CustomFieldRecord[]>;
  legalValues(fieldName: string): Promise<readonly FieldValueRecord[]>;
  legalValuesOfFields(fieldNames: readonly string[]): Promise<ReadonlyMap<string, readonly FieldValueRecord[]>>;
  statuses(): Promise<readonly StatusDef[]>;
  transitions(): Promise<readonly Transition[]>;
  keywordsByNames(names: readonly string[]): Promise<ReadonlyMap<string, KeywordRecord>>;
}

export interface KeywordDetail extends KeywordRecord {
  description: string;
}

function toFieldValue(value: FieldValue): FieldValueRecord {
  return {
    id: value.id,
    value: value.value,
    sortKey: value.sortkey,
    isActive: value.isActive,
    isOpen: value.isOpen == null ? null : Number(value.isOpen) === 1,
  };
}

function toFieldDef(field: FieldDefinition): FieldDefRecord {
  return {
    id: field.id,
    name: field.name,
    description: field.description,
    type: field.type,
    isCustom: field.custom,
    isObsolete: field.obsolete,
    isMandatory: field.isMandatory,
    enterBug: field.enterBug,
    sortKey: field.sortkey,
    visibilityFieldId: field.visibilityFieldId,
    valueFieldId: field.valueFieldId,
  };
}

function toKeyword(keyword: Keyword): KeywordRecord {
  return { id: keyword.id, name: keyword.name, isActive: keyword.isActive };
}

const bySortKey = (a: { sortKey: number; value: string }, b: { sortKey: number; value: string }) =>
  a.sortKey - b.sortKey || a.value.localeCompare(b.value);

/**
 * Field definitions (standard and custom), their legal values, the status workflow and keywords: the data the
 * bug module validates against (an administrator may change it without a code change).
 */
@Injectable()
export class FieldService {
  private readonly kept = new KeptReads();

  constructor(
    private readonly db: Db,
    private readonly fieldRepository: FieldRepository,
    private readonly keywordRepository: KeywordRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * The field reads Create Bug makes on every request, kept under the settings mark (KeptReads): pass
   * `caller.settingsMark`. The answers are frozen and as fresh as the mark; without a mark they are read afresh.
   * Inside a transaction pass it as `sql` (see ProductService.catalogueAt).
   */
  catalogueAt(settingsMark: number | undefined, sql: ReadSql = this.db.read): FieldCatalogue {
    const keep = <V>(kind: string, key: readonly unknown[], load: () => Promise<V>) => this.kept.through(settingsMark, kind, key, load);
    return {
      customFields: () => keep('customFields', [], () => this.customFields(sql)),
      legalValues: (fieldName) => keep('legalValues', [fieldName], () => this.legalValues(fieldName, sql)),
      legalValuesOfFields: (fieldNames) => keep('legalValuesOfFields', fieldNames, () => this.legalValuesOfFields(fieldNames, sql)),
      statuses: () => keep('statuses', [], () => this.statuses(sql)),
      transitions: () => keep('transitions', [], () => this.transitions(sql)),
      keywordsByNames: (names) => keep('keywordsByNames', names, () => this.keywordsByNames(names, sql)),
    };
  }

  /** Every non-obsolete field, standard and custom, by sort key then name (Bugzilla's field list order). */
  async allFields(sql: ReadSql = this.db.read): Promise<FieldDefRecord[]> {
    return (await this.fieldRepository.findFields(sql)).map(toFieldDef);
  }

  /** Fields by id and by internal name (obsolete ones too, as Bugzilla's Field->check); an unknown one is 51. */
  async fieldsByIdsAndNames(target: { ids: number[]; names: string[] }, sql: ReadSql = this.db.read): Promise<FieldDefRecord[]> {
    const fields = await this.fieldRepository.findByIdsOrNames(sql, target.ids, target.names);
    return pickByIdsAndNames(fields.map(toFieldDef), target, 'field');
  }

  /** The legal values of many fields in one query, each list in sort order. */
  async valuesOfFields(fieldIds: readonly number[], sql: ReadSql = this.db.read): Promise<FieldValueOfField[]> {
    const values = await this.fieldRepository.valuesOfFieldIds(sql, [...new Set(fieldIds)]);
    return values
      .map((value) => ({ ...toFieldValue(value), fieldId: value.fieldId, visibilityValueId: value.visibilityValueId }))
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
    if (await this.fieldRepository.exists(tx, definition.name)) {
      throw TrackerError.of(Errors.FIELD_ALREADY_EXISTS, { name: definition.name });
    }
    const top = await this.fieldRepository.topSortKey(tx);
    const isSelect = SELECT_TYPES.has(definition.type);
    const id = await this.fieldRepository.insertField(tx, {
      name: definition.name,
      description: definition.description,
      type: definition.type,
      custom: true,
      obsolete: false,
      mailhead: false,
      // New custom fields go last unless a sort key is given.
      sortkey: definition.sortKey ?? top + 100,
      enterBug: definition.enterBug,
      buglist: !(definition.type === FieldType.MULTI_SELECT || definition.type === FieldType.TEXTAREA),
      isMandatory: definition.isMandatory,
      isNumeric: definition.type === FieldType.BUG_ID || definition.type === FieldType.INTEGER,
      visibilityFieldId: null,
      valueFieldId: null,
      reverseDesc: definition.reverseDesc,
    });
    if (isSelect) {
      await this.fieldRepository.insertValues(tx, [EMPTY_SELECT_VALUE, ...definition.values].map((value, index) => ({
        fieldId: id, value, sortkey: index * 100, isActive: true, isOpen: null, visibilityValueId: null,
      })));
    }
    await this.audit.recordCreate(tx, { userId: actor.userId, className: 'Tracker::Field', objectId: id, added: definition.name, at: toDbDateTime(actor.now) });
    return id;
  }

  /** The standard fields, the select fields' values, the statuses and the workflow between them, of a fresh install. */
  async installFields(tx: Sql, install: FieldInstall): Promise<void> {
    const fieldIds = new Map<string, number>();
    for (const [index, field] of install.fields.entries()) {
      fieldIds.set(field.name, await this.fieldRepository.insertField(tx, {
        name: field.name, description: field.description, type: field.type ?? 0, custom: false, obsolete: false,
        mailhead: !!field.mailhead, sortkey: (index + 1) * 50, enterBug: !!field.enterBug, buglist: !!field.buglist,
        isMandatory: !!field.mandatory, isNumeric: !!field.numeric, visibilityFieldId: null, valueFieldId: null, reverseDesc: null,
      }));
    }
    const statusIds = new Map<string, number>();
    for (const [index, status] of install.statuses.entries()) {
      statusIds.set(status.value, await this.fieldRepository.insertValues(tx, [{
        fieldId: fieldIds.get('bug_status')!, value: status.value, sortkey: (index + 1) * 100, isActive: true, isOpen: status.isOpen ? 1 : 0, visibilityValueId: null,
      }]));
    }
    for (const [field, values] of Object.entries(install.selectValues)) {
      await this.fieldRepository.insertValues(tx, values.map((value, index) => ({
        fieldId: fieldIds.get(field)!, value, sortkey: (index + 1) * 100, isActive: true, isOpen: null, visibilityValueId: null,
      })));
    }
    await this.fieldRepository.insertTransitions(tx, install.workflow.map(([from, to]) => ({
      fromStatusId: from === null ? null : statusIds.get(from)!, toStatusId: statusIds.get(to)!, requireComment: false,
    })));
  }

  /** Legal values of a select field by internal name (bug_status, resolution, bug_severity, priority, op_sys, rep_platform, cf_*), in sort order. */
  async legalValues(fieldName: string, sql: ReadSql = this.db.read): Promise<FieldValueRecord[]> {
    const values = await this.fieldRepository.valuesOfFieldNames(sql, [fieldName]);
    return values.map((v) => toFieldValue(v.value)).sort(bySortKey);
  }

  /** Legal values of several select fields in one query (Create Bug needs six): field name → its values in sort order. */
  async legalValuesOfFields(fieldNames: readonly string[], sql: ReadSql = this.db.read): Promise<Map<string, FieldValueRecord[]>> {
    const byField = new Map<string, FieldValueRecord[]>(fieldNames.map((name) => [name, []]));
    if (!fieldNames.length) return byField;
    for (const { field, value } of await this.fieldRepository.valuesOfFieldNames(sql, fieldNames)) byField.get(field)?.push(toFieldValue(value));
    for (const values of byField.values()) values.sort(bySortKey);
    return byField;
  }

  async statuses(sql: ReadSql = this.db.read): Promise<StatusDef[]> {
    const values = await this.legalValues('bug_status', sql);
    return values.map((v) => ({ name: v.value, isOpen: v.isOpen !== false, isActive: v.isActive, sortKey: v.sortKey }));
  }

  async transitions(sql: ReadSql = this.db.read): Promise<Transition[]> {
    const rows = await this.fieldRepository.transitions(sql);
    return rows.map((r) => ({ from: r.fromStatus, to: r.toStatus, requireComment: r.requireComment }));
  }

  /** Non-obsolete custom fields, in sort order. */
  async customFields(sql: ReadSql = this.db.read): Promise<CustomFieldRecord[]> {
    const fields = await this.fieldRepository.findFields(sql, { customOnly: true });
    return fields.map(toFieldDef).map(({ id, name, description, type, isMandatory, enterBug, sortKey }) => ({
      id, name, description, type, isMandatory, enterBug, sortKey,
    }));
  }

  /** Keywords by name (case-insensitive); the map's key is the lower-cased name. */
  async keywordsByNames(names: readonly string[], sql: ReadSql = this.db.read): Promise<Map<string, KeywordRecord>> {
    const unique = [...new Set(names.map((n) => String(n).trim()).filter((n) => n !== ''))];
    if (!unique.length) return new Map();
    const keywords = await this.keywordRepository.findByNames(sql, unique);
    return new Map(keywords.map((keyword) => [keyword.name.toLowerCase(), toKeyword(keyword)]));
  }

  /** Every keyword (active or not) by name, with its description. */
  async allKeywords(sql: ReadSql = this.db.read): Promise<KeywordDetail[]> {
    return (await this.keywordRepository.findAll(sql)).map((keyword) => ({ ...toKeyword(keyword), description: keyword.description ?? '' }));
  }

  async keywordsByIds(ids: readonly number[], sql: ReadSql = this.db.read): Promise<Map<number, KeywordRecord>> {
    const keywords = await this.keywordRepository.findByIds(sql, [...new Set(ids)]);
    return new Map(keywords.map((keyword) => [keyword.id, toKeyword(keyword)]));
  }
}
