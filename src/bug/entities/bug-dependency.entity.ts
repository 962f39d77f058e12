import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_dependencies')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_bug_dependencies_depends_on_id', ['dependsOnId'])
export class BugDependency {
  @IntColumn({ primary: true })
  blockedId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'blocked_id' })
  blocked?: Relation<Bug>;

  @IntColumn({ primary: true })
  dependsOnId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'depends_on_id' })
  dependsOn?: Relation<Bug>;
}
