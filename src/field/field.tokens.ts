/**
 * What the field module needs from the modules above it: bugs carry keywords, and the bug module (which imports
 * this one) answers how many, through this token that it provides at the composition root.
 */
import type { ReadSql } from '../database/sql.js';

export interface KeywordBugCounts {
  /** The number of bugs carrying each keyword (keywords on no bug are absent). */
  bugCountsByKeyword(sql: ReadSql): Promise<Map<number, number>>;
}

export const KEYWORD_BUG_COUNTS = Symbol('KeywordBugCounts');
