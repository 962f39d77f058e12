import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, DateTimeColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('attachments')
@ActivityTable()
@Index('ix_attachments_bug_id', ['bugId'])
@Index('ix_attachments_creator_id', ['creatorId'])
@Index('ix_attachments_last_change_time', ['lastChangeTime'])
export class Attachment {
  @IdColumn()
  id: number;

  @IntColumn()
  bugId: number;

  @DateTimeColumn()
  creationTime: string;

  @DateTimeColumn()
  lastChangeTime: string;

  @StringColumn(255)
  summary: string;

  @StringColumn(255)
  contentType: string;

  @BoolColumn(false)
  isPatch: boolean;

  @StringColumn(255)
  fileName: string;

  @IntColumn()
  creatorId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'creator_id' })
  creator?: Relation<User>;

  @BoolColumn(false)
  isObsolete: boolean;

  @BoolColumn(false)
  isPrivate: boolean;

  @IntColumn({ default: 0 })
  size: number;
}
