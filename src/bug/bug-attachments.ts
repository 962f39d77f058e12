import type { ReadSql } from '../database/sql.js';

/**
 * What the bug module needs to know about attachments: which are private (Bug history hides their changes from
 * outsiders). The attachment module sits above bug (its endpoints need the bug's visibility rule, loader, flags
 * and mailer), so bug owns this port and the attachment module provides BUG_ATTACHMENTS (AttachmentModule.forBug()).
 */
export interface BugAttachments {
  /** Those of `attachmentIds` that are private. */
  privateAmong(sql: ReadSql, attachmentIds: readonly number[]): Promise<ReadonlySet<number>>;
}

export const BUG_ATTACHMENTS = Symbol('BugAttachments');
