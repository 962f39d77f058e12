import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import type { BugAttachments } from '../bug/bug-attachments.js';
import { AttachmentRepository } from './attachment.repository.js';

/** The rules of attachments. */
@Injectable()
export class AttachmentService implements BugAttachments {
  constructor(private readonly repository: AttachmentRepository) {}

  async privateAmong(sql: Sql, attachmentIds: readonly number[]): Promise<ReadonlySet<number>> {
    return new Set(await this.repository.privateAmong(sql, [...new Set(attachmentIds)]));
  }
}
