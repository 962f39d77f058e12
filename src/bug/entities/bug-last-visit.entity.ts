import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn } from '../../database/columns.js';
import type { User } from '../../user/entities/user.entity.js';
import type { Bug } from './bug.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_user_last_visit')
@ActivityTable()
@Index('uq_bug_user_last_visit_user_id_bug_id', ['userId', 'bugId'], { unique: true })
@Index('ix_bug_user_last_visit_bug_id', ['bugId'])
export class BugLastVisit {
  @IdColumn()
  id: number;

  @IntColumn()
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @IntColumn()
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;

  @DateTimeColumn()
  lastVisitTs: string;
}
