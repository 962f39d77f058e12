import { Injectable } from '@nestjs/common';
import type { ReadSql } from '../database/sql.js';
import { FlagSearchRepository, type FlagColumnMatcher, type FlagSearchCondition, type FlagSearchField } from './flag-search.repository.js';

export type { FlagColumnMatcher, FlagSearchCondition, FlagSearchField } from './flag-search.repository.js';

/**
 * Flag criteria of Search Bugs, for the bug module (which sits above flag): the flags table is named here only.
 * `name` tests the type name followed by the status (`review+`); `requestee` and `setter` test user ids.
 */
@Injectable()
export class FlagSearchService {
  constructor(private readonly repository: FlagSearchRepository) {}

  /**
   * `<bugId> IN (bugs with a flag whose field matches)`; `attachment`, when given, must hold for the flag's attachment
   * id (NULL for a flag on the bug itself): the caller's way to leave out flags on attachments they may not see.
   */
  bugsWithFlag(sql: ReadSql, bugId: string, field: FlagSearchField, match: FlagColumnMatcher, attachment?: FlagColumnMatcher): FlagSearchCondition {
    return this.repository.bugsWithFlag(sql, bugId, field, match, attachment);
  }
}
