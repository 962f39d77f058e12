import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_aliases')
@ActivityTable({ partOf: 'bugs' })
@Index('uq_bug_aliases_alias', ['alias'], { unique: true })
@Index('ix_bug_aliases_bug_id', ['bugId'])
export class BugAlias {
  @IdColumn()
  id: number;

  @StringColumn(40)
  alias: string;

  @IntColumn()
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;
}
