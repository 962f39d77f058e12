import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { KeywordInput } from './dto/keyword.dto.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { auditRowsOf, noteChange, type Changes } from '../product/changes.js';
import { pickByIdsAndNames } from '../product/pick-by-ids-and-names.js';
import { FieldService, type KeywordDetail } from './field.service.js';

const KEYWORD_CLASS = 'Tracker::Keyword';
const MAX_NAME = 64;

function present(keyword: KeywordDetail) {
  return { id: keyword.id, name: keyword.name, description: keyword.description, is_active: keyword.isActive, bug_count: keyword.bugCount };
}

/**
 * Keywords, beyond Bugzilla 5.0's REST (Bugzilla has them in editkeywords.cgi): listed for everybody, created and
 * updated by `editkeywords`. There is no delete: a keyword in use stays on its bugs when renamed or disabled (a
 * disabled keyword only stops being offered for new changes).
 */
@Injectable()
export class KeywordService {
  constructor(private readonly db: Db, private readonly fields: FieldService, private readonly audit: AuditService) {}

  /** Every keyword, or those named by `ids`/`names` (unknown ones are 51). */
  async list(target: { ids: number[]; names: string[] }) {
    const all = await this.fields.allKeywords();
    if (!target.ids.length && !target.names.length) return all.map(present);
    return this.pick(all, target).map(present);
  }

  async create(input: KeywordInput, ctx: RequestContext): Promise<number> {
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const name = await this.checkName(tx, input.name ?? '');
      const description = this.checkDescription(input.description);
      const id = await tx.insert('keywords', { name, description, is_active: input.is_active === false ? 0 : 1 });
      await this.audit.recordCreate(tx, { userId: ctx.caller.id, className: KEYWORD_CLASS, objectId: id, added: name, at: now });
      return id;
    });
  }

  async update(target: { ids: number[]; names: string[] }, input: KeywordInput, ctx: RequestContext) {
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const keywords = this.pick(await this.fields.allKeywords(tx), target);
      const newName = input.name;
      if (newName !== undefined && keywords.length > 1) throw TrackerError.of(Errors.KEYWORD_ALREADY_EXISTS, { name: newName.trim() });
      const description = input.description !== undefined ? this.checkDescription(input.description) : undefined;
      const results: Array<{ id: number; changes: Changes }> = [];
      for (const keyword of keywords) {
        const changes: Changes = {};
        const set: Record<string, string | number> = {};
        if (newName !== undefined && newName.trim() !== keyword.name) {
          set.name = await this.checkName(tx, newName, keyword.id);
          noteChange(changes, 'name', keyword.name, set.name);
        }
        if (description !== undefined && noteChange(changes, 'description', keyword.description, description)) set.description = description;
        if (input.is_active !== undefined && noteChange(changes, 'is_active', keyword.isActive, input.is_active)) {
          set.is_active = input.is_active ? 1 : 0;
        }
        if (Object.keys(set).length) await tx.update('keywords', set, { id: keyword.id });
        await this.audit.recordMany(tx, auditRowsOf(changes, { userId: ctx.caller.id, className: KEYWORD_CLASS, objectId: keyword.id, at: now }));
        results.push({ id: keyword.id, changes });
      }
      return results;
    });
  }

  private pick(all: KeywordDetail[], target: { ids: number[]; names: string[] }): KeywordDetail[] {
    if (!target.ids.length && !target.names.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'Keyword.update', params: ['ids', 'names'] });
    }
    return pickByIdsAndNames(all, target, 'keyword');
  }

  /** Bugzilla's Keyword _check_name: non-blank, no commas or whitespace, at most 64 characters, unique ignoring case. */
  private async checkName(tx: Sql, raw: string, selfId?: number): Promise<string> {
    const name = raw.trim();
    if (name === '') throw TrackerError.of(Errors.KEYWORD_BLANK_NAME);
    if (/[\s,]/.test(name) || name.length > MAX_NAME) throw TrackerError.of(Errors.KEYWORD_INVALID_NAME, { name });
    const existing = (await this.fields.keywordsByNames([name], tx)).get(name.toLowerCase());
    if (existing && existing.id !== selfId) throw TrackerError.of(Errors.KEYWORD_ALREADY_EXISTS, { name });
    return name;
  }

  private checkDescription(value: string | undefined): string {
    const description = value?.trim() ?? '';
    if (description === '') throw TrackerError.of(Errors.KEYWORD_BLANK_DESCRIPTION);
    return description;
  }
}
