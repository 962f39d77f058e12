import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { exceedsLimit } from '../common/text-limits.js';
import type { ResourceFields } from '../common/fields/field-selection.js';
import type { RequestContext } from '../common/http/request-context.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import { auditRowsOf, noteChange, type Changes } from '../common/changes.js';
import type { ClassificationInput } from './dto/classification.dto.js';
import { pickByIdsAndNames } from '../common/pick-by-ids-and-names.js';
import { ClassificationRepository, type ClassificationChanges } from './classification.repository.js';
import type { Classification } from './entities/classification.entity.js';
import { ProductRepository } from './product.repository.js';
import { MAX_NAME_LENGTH } from './product-values.service.js';
import { ProductService, type ClassificationRecord } from './product.service.js';

const CLASSIFICATION_CLASS = 'Tracker::Classification';
const MAX_SORTKEY = 32767;

export const CLASSIFICATION_FIELDS: ResourceFields = { nested: { products: {} } };

function toClassification(classification: Classification): ClassificationRecord {
  return { id: classification.id, name: classification.name, description: classification.description ?? '', sortKey: classification.sortkey };
}

/**
 * Classifications (Bugzilla::Classification): Get Classification of 5.0, and beyond it create and update for
 * `editclassifications`. Like Bugzilla, every call needs the `useclassification` parameter on (900), except that
 * Get also answers editclassifications members.
 */
@Injectable()
export class ClassificationService {
  constructor(
    private readonly db: Db,
    private readonly products: ProductService,
    private readonly classificationRepository: ClassificationRepository,
    private readonly productRepository: ProductRepository,
    private readonly audit: AuditService,
  ) {}

  async findByName(name: string, sql: ReadSql = this.db.read): Promise<ClassificationRecord | undefined> {
    const classification = await this.classificationRepository.findByName(sql, name.trim());
    return classification ? toClassification(classification) : undefined;
  }

  /** Bugzilla's params_to_objects: ids then names, each must exist (51), duplicates removed. */
  async resolve(target: { ids: number[]; names: string[] }, sql: ReadSql = this.db.read): Promise<ClassificationRecord[]> {
    const classifications = await this.classificationRepository.findByIdsOrNames(sql, target.ids, target.names);
    return pickByIdsAndNames(classifications.map(toClassification), target, 'classification');
  }

  /**
   * Get Classification: editclassifications members see every named classification with all its products;
   * others only classifications holding a product they may select, listing those products.
   */
  async get(caller: Caller, target: { ids: number[]; names: string[] }) {
    if (!target.ids.length && !target.names.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'Classification.get', params: ['names', 'ids'] });
    }
    const isEditor = caller.inGroup('editclassifications');
    if (!caller.parameters.bool('useclassification') && !isEditor) throw TrackerError.of(Errors.CLASSIFICATION_NOT_ENABLED);
    const classifications = await this.resolve(target);
    const ids = classifications.map((c) => c.id);
    const products = await this.productRepository.findByClassifications(this.db.read, ids);
    const selectable = isEditor ? undefined : new Set(await this.products.selectableProductIds(caller));
    const shown = products.filter((p) => !selectable || selectable.has(p.id));
    return classifications
      .map((c) => ({ classification: c, products: shown.filter((p) => p.classificationId === c.id) }))
      .filter((entry) => isEditor || entry.products.length > 0)
      .map(({ classification, products: list }) => ({
        id: classification.id,
        name: classification.name,
        description: classification.description,
        sort_key: classification.sortKey,
        products: list.map((p) => ({ id: p.id, name: p.name, description: p.description ?? '' })),
      }));
  }

  async create(input: ClassificationInput, ctx: RequestContext): Promise<number> {
    this.requireEnabled(ctx.caller);
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const name = await this.checkName(tx, input.name?.trim() ?? '');
      const sortKey = this.checkSortKey(input.sort_key ?? input.sortkey ?? 0);
      const id = await this.classificationRepository.insert(tx, { name, description: input.description?.trim() ?? '', sortkey: sortKey });
      await this.audit.recordCreate(tx, { userId: ctx.caller.id, className: CLASSIFICATION_CLASS, objectId: id, added: name, at: now });
      return id;
    });
  }

  async update(target: { ids: number[]; names: string[] }, input: ClassificationInput, ctx: RequestContext) {
    this.requireEnabled(ctx.caller);
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const classifications = await this.resolve(target, tx);
      const newName = input.name?.trim();
      if (newName !== undefined && classifications.length > 1) throw TrackerError.of(Errors.CLASSIFICATION_ALREADY_EXISTS, { name: newName });
      const description = input.description?.trim();
      const sortKeyInput = input.sort_key ?? input.sortkey;
      const sortKey = sortKeyInput === undefined ? undefined : this.checkSortKey(sortKeyInput);
      const results: Array<{ id: number; changes: Changes }> = [];
      for (const classification of classifications) {
        const changes: Changes = {};
        const set: ClassificationChanges = {};
        if (newName !== undefined && newName !== classification.name) {
          set.name = await this.checkName(tx, newName, classification.id);
          noteChange(changes, 'name', classification.name, newName);
        }
        if (description !== undefined && noteChange(changes, 'description', classification.description, description)) set.description = description;
        if (sortKey !== undefined && noteChange(changes, 'sort_key', classification.sortKey, sortKey)) set.sortkey = sortKey;
        if (Object.keys(set).length) await this.classificationRepository.update(tx, classification.id, set);
        await this.audit.recordMany(tx, auditRowsOf(changes, { userId: ctx.caller.id, className: CLASSIFICATION_CLASS, objectId: classification.id, at: now }));
        results.push({ id: classification.id, changes });
      }
      return results;
    });
  }

  private requireEnabled(caller: Caller): void {
    if (!caller.parameters.bool('useclassification')) throw TrackerError.of(Errors.CLASSIFICATION_NOT_ENABLED);
  }

  private async checkName(tx: Sql, name: string, selfId?: number): Promise<string> {
    if (name === '') throw TrackerError.of(Errors.CLASSIFICATION_NOT_SPECIFIED);
    if (exceedsLimit(name, MAX_NAME_LENGTH)) throw TrackerError.of(Errors.CLASSIFICATION_NAME_TOO_LONG, { name });
    const existing = await this.findByName(name, tx);
    if (existing && existing.id !== selfId) throw TrackerError.of(Errors.CLASSIFICATION_ALREADY_EXISTS, { name });
    return name;
  }

  private checkSortKey(value: unknown): number {
    const text = String(Array.isArray(value) ? value[0] : value).trim();
    if (!/^\d+$/.test(text) || Number(text) > MAX_SORTKEY) throw TrackerError.of(Errors.CLASSIFICATION_INVALID_SORTKEY, { sortkey: text });
    return Number(text);
  }
}
