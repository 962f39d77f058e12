import { Injectable } from '@nestjs/common';
import type { SqlValue, ReadSql } from '../database/sql.js';
import { concatSql } from '../database/dialect.js';
import { Flag } from './entities/flag.entity.js';
import { FlagType } from './entities/flag-type.entity.js';

/** The flag fields Search Bugs can test (search.md: `flagtypes.name`, `requestees.login_name`, `setters.login_name`). */
export type FlagSearchField = 'name' | 'requestee' | 'setter';

/** A SQL condition with its bound values. */
export interface FlagSearchCondition {
  sql: string;
  params: SqlValue[];
}

/** A value test on one column, built by the search for one criterion: given the quoted column expression, its condition. */
export type FlagColumnMatcher = (column: string) => FlagSearchCondition;

/** The SQL of Search Bugs' flag criteria: a sub-select of flags (with their types), names from the entities' metadata, quoted. */
@Injectable()
export class FlagSearchRepository {
  bugsWithFlag(sql: ReadSql, bugId: string, field: FlagSearchField, match: FlagColumnMatcher, attachment?: FlagColumnMatcher): FlagSearchCondition {
    const q = sql.quote;
    const flags = sql.repository(Flag).metadata;
    const types = sql.repository(FlagType).metadata;
    const flag = (property: keyof Flag) => q(`sf.${flags.findColumnWithPropertyName(property)!.databaseName}`);
    const type = (property: keyof FlagType) => q(`st.${types.findColumnWithPropertyName(property)!.databaseName}`);
    // Bugzilla's `flagtypes.name` is the type's name followed by the status: `review?` finds requested reviews.
    const tested = { name: concatSql(sql.dialect, type('name'), flag('status')), requestee: flag('requesteeId'), setter: flag('setterId') }[field];
    const test = match(tested);
    const onAttachment = attachment?.(flag('attachmentId'));
    return {
      sql: `${bugId} IN (SELECT ${flag('bugId')} FROM ${q(flags.tableName)} sf JOIN ${q(types.tableName)} st ON ${type('id')} = ${flag('typeId')} WHERE ${test.sql}${onAttachment ? ` AND ${onAttachment.sql}` : ''})`,
      params: [...test.params, ...(onAttachment?.params ?? [])],
    };
  }
}
