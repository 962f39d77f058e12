import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { AttachmentSearchField, BugAttachmentSearch, ColumnMatcher, SearchAccess, SqlCondition } from '../bug-search/bug-search-sources.js';
import { Attachment } from './entities/attachment.entity.js';
import { AttachmentData } from './entities/attachment-data.entity.js';

const PROPERTY: Readonly<Record<Exclude<AttachmentSearchField, 'data'>, keyof Attachment>> = {
  description: 'summary', filename: 'fileName', mimetype: 'contentType', ispatch: 'isPatch', isobsolete: 'isObsolete',
  isprivate: 'isPrivate', submitter: 'creatorId',
};

/**
 * Search Bugs' criteria over attachments (BUG_ATTACHMENT_SEARCH): a sub-select of the attachments table (joined to
 * their data for `data`), names from the entities' metadata, quoted. A private attachment never matches for a caller
 * who may not see it.
 */
@Injectable()
export class AttachmentSearchRepository implements BugAttachmentSearch {
  bugsWithAttachment(sql: Sql, bugId: string, field: AttachmentSearchField, match: ColumnMatcher, access: SearchAccess): SqlCondition {
    const q = sql.quote;
    const meta = sql.manager.connection.getMetadata(Attachment);
    const column = (property: keyof Attachment) => q(`sa.${meta.findColumnWithPropertyName(property)!.databaseName}`);
    let from = `${q(meta.tableName)} sa`;
    let tested: string;
    if (field === 'data') {
      const data = sql.manager.connection.getMetadata(AttachmentData);
      const dataColumn = (property: keyof AttachmentData) => q(`sd.${data.findColumnWithPropertyName(property)!.databaseName}`);
      from += ` JOIN ${q(data.tableName)} sd ON ${dataColumn('attachmentId')} = ${column('id')}`;
      // The contents are bytes: compared as text so that substring criteria read them as clients wrote them.
      tested = sql.dialect === 'mysql' ? `CONVERT(${dataColumn('data')} USING utf8mb4)` : `CAST(${dataColumn('data')} AS TEXT)`;
    } else {
      tested = column(PROPERTY[field]);
    }
    const test = match(tested);
    const privacy = access.includePrivate ? '' : ` AND ${column('isPrivate')} = 0`;
    return { sql: `${bugId} IN (SELECT ${column('bugId')} FROM ${from} WHERE ${test.sql}${privacy})`, params: test.params };
  }

  noneOrPublic(sql: Sql, column: string): SqlCondition {
    const q = sql.quote;
    const meta = sql.manager.connection.getMetadata(Attachment);
    const name = (property: keyof Attachment) => q(`sp.${meta.findColumnWithPropertyName(property)!.databaseName}`);
    return { sql: `(${column} IS NULL OR ${column} IN (SELECT ${name('id')} FROM ${q(meta.tableName)} sp WHERE ${name('isPrivate')} = 0))`, params: [] };
  }
}
