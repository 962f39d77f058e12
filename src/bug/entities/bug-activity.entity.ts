import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_activity')
@ActivityTable()
@Index('ix_bug_activity_bug_id_changed_at', ['bugId', 'changedAt'])
@Index('ix_bug_activity_user_id', ['userId'])
@Index('ix_bug_activity_changed_at', ['changedAt'])
@Index('ix_bug_activity_field_name', ['fieldName'])
export class BugActivity {
  @IdColumn()
  id: number;

  @IntColumn()
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;

  @IntColumn({ nullable: true })
  attachmentId: number | null;

  @IntColumn({ nullable: true })
  commentId: number | null;

  @IntColumn()
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @DateTimeColumn()
  changedAt: string;

  @StringColumn(64)
  fieldName: string;

  @LongTextColumn()
  removed: string;

  @LongTextColumn()
  added: string;
}
