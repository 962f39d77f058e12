import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { exceedsLimit } from '../common/text-limits.js';
import type { RequestContext } from '../common/http/request-context.js';
import type { KeywordInput } from './dto/keyword.dto.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { auditRowsOf, noteChange, type Changes } from '../common/changes.js';
import { pickByIdsAndNames } from '../common/pick-by-ids-and-names.js';
import { FieldService, type KeywordDetail } from './field.service.js';
import { KEYWORD_BUG_COUNTS, type KeywordBugCounts } from './field.tokens.js';
import { KeywordRepository, type KeywordChanges } from './keyword.repository.js';

const KEYWORD_CLASS = 'Tracker::Keyword';
const MAX_NAME = 64;

function present(keyword: KeywordDetail, bugCount: number) {
  return { id: keyword.id, name: keyword.name, description: keyword.description, is_active: keyword.isActive, bug_count: bugCount };
}

/**
 * Keywords, beyond Bugzilla 5.0's REST (Bugzilla has them in editkeywords.cgi): listed for everybody, created and
 * updated by `editkeywords`. There is no delete: a keyword in use stays on its bugs when renamed or disabled (a
 * disabled keyword only stops being offered for new changes).
 */
@Injectable()
export class KeywordService {
  constructor(
    private readonly db: Db,
    private readonly fields: FieldService,
    private readonly keywordRepository: KeywordRepository,
    private readonly audit: AuditService,
    @Inject(KEYWORD_BUG_COUNTS) private readonly bugs: KeywordBugCounts,
  ) {}

  /** Every keyword with its bug count, or those named by `ids`/`names` (unknown ones are 51). */
  async list(target: { ids: number[]; names: string[] }) {
    const [all, bugCounts] = await Promise.all([this.fields.allKeywords(), this.bugs.bugCountsByKeyword(this.db.read)]);
    const shown = !target.ids.length && !target.names.length ? all : this.pick(all, target);
    return shown.map((keyword) => present(keyword, bugCounts.get(keyword.id) ?? 0));
  }

  async create(input: KeywordInput, ctx: RequestContext): Promise<number> {
    const now = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const name = await this.checkName(tx, input.name ?? '');
      const description = this.checkDescription(input.description);
      const id = await this.keywordRepository.insert(tx, { name, description, isActive: input.is_active !== false });
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
        const set: KeywordChanges = {};
        if (newName !== undefined && newName.trim() !== keyword.name) {
          set.name = await this.checkName(tx, newName, keyword.id);
          noteChange(changes, 'name', keyword.name, set.name);
        }
        if (description !== undefined && noteChange(changes, 'description', keyword.description, description)) set.description = description;
        if (input.is_active !== undefined && noteChange(changes, 'is_active', keyword.isActive, input.is_active)) {
          set.isActive = !!input.is_active;
        }
        if (Object.keys(set).length) await this.keywordRepository.update(tx, keyword.id, set);
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
    if (/[\s,]/.test(name) || exceedsLimit(name, MAX_NAME)) throw TrackerError.of(Errors.KEYWORD_INVALID_NAME, { name });
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
