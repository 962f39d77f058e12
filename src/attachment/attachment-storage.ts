import { Injectable } from '@nestjs/common';
import type { Sql, ReadSql } from '../database/sql.js';
import { AttachmentRepository } from './attachment.repository.js';

/**
 * Where attachment contents live. The default keeps them in the database, one row per attachment in
 * `attachment_data` (Bugzilla's attach_data), written in the transaction that creates the attachment. A site that
 * wants an S3-compatible object store provides another implementation under ATTACHMENT_STORAGE (docs/attachments.md):
 * the metadata, the size and every rule stay in the attachments table and the service.
 */
export interface AttachmentStorage {
  /** Stores the contents of a new attachment, inside the transaction that creates it. */
  save(tx: Sql, attachmentId: number, data: Buffer): Promise<void>;
  /** The contents of some attachments (those absent from the map have none). */
  read(sql: ReadSql, attachmentIds: readonly number[]): Promise<Map<number, Buffer>>;
}

export const ATTACHMENT_STORAGE = Symbol('AttachmentStorage');

/** The database implementation: the `attachment_data` table, read as raw rows (the bytes are not hydrated into entities). */
@Injectable()
export class DatabaseAttachmentStorage implements AttachmentStorage {
  constructor(private readonly repository: AttachmentRepository) {}

  save(tx: Sql, attachmentId: number, data: Buffer): Promise<void> {
    return this.repository.insertData(tx, attachmentId, data);
  }

  read(sql: Sql, attachmentIds: readonly number[]): Promise<Map<number, Buffer>> {
    return this.repository.dataOf(sql, attachmentIds);
  }
}
