import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Sql } from '../database/sql.js';
import { Attachment } from './entities/attachment.entity.js';

/** Attachments and their data. Every method takes the handle: db.read or a tx. */
@Injectable()
export class AttachmentRepository {
  /** Those of `ids` that are private. */
  async privateAmong(sql: Sql, ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await sql.repository(Attachment).find({ select: { id: true }, where: { id: In([...ids]), isPrivate: true } });
    return rows.map((row) => row.id);
  }
}
