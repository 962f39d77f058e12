import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.service.js';
import type { Caller } from '../../common/caller.js';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { parseDateInput, toDbDateTime } from '../../common/time/datetime.js';
import { BugVisibilityService } from '../bug-visibility.service.js';
import type { BugSearchInput } from '../dto/bug-search.dto.js';
import { BugSearchRepository, type SearchSince } from './bug-search.repository.js';

/**
 * Search Bugs (`GET /rest/bug`, search.md), the part clients use to fetch bugs: `id`, `alias`, the select fields,
 * `status` (with `__open__`/`__closed__`/`__all__`), `resolution`, `summary`/`whiteboard`/`url` substrings, people by
 * login, personal `tags`, `creation_time`/`last_change_time`, `limit`/`offset`,
 * always under the visibility rule so hidden bugs are silently absent. Each criterion is one entry of `conditions`:
 * the full search (text matching, people, boolean charts, quicksearch, order) slots in here as more entries.
 */
@Injectable()
export class BugSearchService {
  constructor(private readonly db: Db, private readonly visibility: BugVisibilityService, private readonly repository: BugSearchRepository) {}

  /** Ids of the visible bugs matching the request, in ascending id order, limited as search.md says. */
  async findIds(caller: Caller, input: BugSearchInput): Promise<number[]> {
    const sql = this.db.read;
    const since: SearchSince = {};
    for (const key of ['creation_time', 'last_change_time'] as const) {
      const value = input[key];
      if (value !== undefined) since[key] = toDbDateTime(parseDateInput(value, key));
    }
    const conditions = this.repository.conditions(sql, { input, since, tagOwnerId: caller.id });
    if (!conditions.length && !caller.parameters.bool('search_allow_no_criteria')) throw TrackerError.of(Errors.BUGLIST_PARAMETERS_REQUIRED);
    const visible = this.visibility.predicate(caller);
    return this.repository.findIds(sql, [...conditions, visible], this.window(caller, input));
  }

  /** limit/offset of search.md: capped by max_search_results; 0 means "all" (still capped); offset needs a limit. */
  private window(caller: Caller, { limit, offset }: BugSearchInput): { limit: number; offset: number } {
    const max = caller.parameters.int('max_search_results') || 10000;
    if (offset !== undefined && limit === undefined) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Bug.search', param: 'limit' });
    if (limit === undefined || limit <= 0) return { limit: max, offset: limit === 0 ? 0 : Math.max(offset ?? 0, 0) };
    return { limit: Math.min(limit, max), offset: Math.max(offset ?? 0, 0) };
  }
}
