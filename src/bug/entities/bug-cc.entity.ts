import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_cc')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_bug_cc_user_id', ['userId'])
export class BugCc {
  @IntColumn({ primary: true })
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;

  @IntColumn({ primary: true })
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;
}
