import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { FlagType } from './flag-type.entity.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('flags')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_flags_bug_id', ['bugId'])
@Index('ix_flags_attachment_id', ['attachmentId'])
@Index('ix_flags_type_id', ['typeId'])
@Index('ix_flags_setter_id', ['setterId'])
@Index('ix_flags_requestee_id', ['requesteeId'])
export class Flag {
  @IdColumn()
  id: number;

  @IntColumn()
  typeId: number;

  @ManyToOne('FlagType', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'type_id' })
  type?: Relation<FlagType>;

  @StringColumn(1)
  status: string;

  @IntColumn()
  bugId: number;

  @IntColumn({ nullable: true })
  attachmentId: number | null;

  @DateTimeColumn()
  creationDate: string;

  @DateTimeColumn()
  modificationDate: string;

  @IntColumn()
  setterId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'setter_id' })
  setter?: Relation<User>;

  @IntColumn({ nullable: true })
  requesteeId: number | null;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'requestee_id' })
  requestee?: Relation<User> | null;
}
