import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_duplicates')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_bug_duplicates_dupe_of_id', ['dupeOfId'])
export class BugDuplicate {
  @IntColumn({ primary: true })
  dupeId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'dupe_id' })
  dupe?: Relation<Bug>;

  @IntColumn()
  dupeOfId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'dupe_of_id' })
  dupeOf?: Relation<Bug>;
}
