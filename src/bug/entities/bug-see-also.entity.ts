import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_see_also')
@ActivityTable({ partOf: 'bugs' })
@Index('uq_bug_see_also_bug_id_url', ['bugId', 'url'], { unique: true })
export class BugSeeAlso {
  @IdColumn()
  id: number;

  @IntColumn()
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;

  @StringColumn(255)
  url: string;
}
