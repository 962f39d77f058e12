import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import type { Group } from '../../group/entities/group.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_groups')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_bug_groups_group_id', ['groupId'])
export class BugGroup {
  @IntColumn({ primary: true })
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;

  @IntColumn({ primary: true })
  groupId: number;

  @ManyToOne('Group', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'group_id' })
  group?: Relation<Group>;
}
