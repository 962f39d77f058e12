import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { Attachment } from './entities/attachment.entity.js';
import { AttachmentData } from './entities/attachment-data.entity.js';

/** The columns of a new attachment (the generated id and the relation aside). */
export type NewAttachment = Omit<Attachment, 'id' | 'creator'>;

/** The columns Update Attachment may set. */
export type AttachmentChanges = Partial<Pick<Attachment, 'summary' | 'fileName' | 'contentType' | 'isPatch' | 'isPrivate' | 'isObsolete' | 'lastChangeTime'>>;

/** Attachments and their data. Every method takes the handle: db.read or a tx. */
@Injectable()
export class AttachmentRepository {
  /** Those of `ids` that are private. */
  async privateAmong(sql: Sql, ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await sql.repository(Attachment).find({ select: { id: true }, where: { id: In([...ids]), isPrivate: true } });
    return rows.map((row) => row.id);
  }

  /** Attachment rows (never their data) by id, in id order. */
  byIds(sql: ReadSql, ids: readonly number[]): Promise<Attachment[]> {
    if (!ids.length) return Promise.resolve([]);
    return sql.repository(Attachment).find({ where: { id: In([...ids]) }, order: { id: 'ASC' } });
  }

  /** The attachments of some bugs (never their data), in id order. */
  ofBugs(sql: ReadSql, bugIds: readonly number[]): Promise<Attachment[]> {
    if (!bugIds.length) return Promise.resolve([]);
    return sql.repository(Attachment).find({ where: { bugId: In([...bugIds]) }, order: { id: 'ASC' } });
  }

  insert(tx: Sql, attachment: NewAttachment): Promise<number> {
    return insertRows(tx.repository(Attachment), [attachment]);
  }

  async update(tx: Sql, id: number, changes: AttachmentChanges): Promise<void> {
    await tx.repository(Attachment).update({ id }, changes);
  }

  async insertData(tx: Sql, attachmentId: number, data: Buffer): Promise<void> {
    await tx.repository(AttachmentData).createQueryBuilder().insert().values({ attachmentId, data }).updateEntity(false).execute();
  }

  /** The bytes of some attachments: one query, raw rows (no entity hydration of the blobs). */
  async dataOf(sql: Sql, attachmentIds: readonly number[]): Promise<Map<number, Buffer>> {
    if (!attachmentIds.length) return new Map();
    const rows = await sql.repository(AttachmentData).createQueryBuilder('d')
      .select('d.attachmentId', 'id').addSelect('d.data', 'data')
      .where({ attachmentId: In([...attachmentIds]) })
      .getRawMany<{ id: number | string; data: Buffer | Uint8Array }>();
    return new Map(rows.map((row) => [Number(row.id), Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data)]));
  }
}
