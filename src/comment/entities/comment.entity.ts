import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, DateTimeColumn, HoursColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('comments')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_comments_bug_id_creation_time', ['bugId', 'creationTime'])
@Index('ix_comments_user_id', ['userId'])
@Index('ix_comments_creation_time', ['creationTime'])
export class Comment {
  @IdColumn()
  id: number;

  @IntColumn()
  bugId: number;

  @IntColumn()
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  author?: Relation<User>;

  @DateTimeColumn()
  creationTime: string;

  @LongTextColumn()
  text: string;

  @HoursColumn()
  workTime: number;

  @BoolColumn(false)
  isPrivate: boolean;

  @IntColumn({ default: 0 })
  type: number;

  @StringColumn(255, { nullable: true })
  extraData: string | null;

  @IntColumn({ nullable: true })
  attachmentId: number | null;
}
