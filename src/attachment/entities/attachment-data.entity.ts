import { Entity, JoinColumn, type Relation, OneToOne } from 'typeorm';
import { BlobColumn, IntColumn } from '../../database/columns.js';
import type { Attachment } from './attachment.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('attachment_data')
@ActivityTable()
export class AttachmentData {
  @IntColumn({ primary: true })
  attachmentId: number;

  @OneToOne('Attachment', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'attachment_id' })
  attachment?: Relation<Attachment>;

  @BlobColumn()
  data: Buffer;
}
