import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

/** BMO's `regressions`: the bug `regressionId` was introduced by the bug `regressedById` (issue 43). */
@Entity('bug_regressions')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_bug_regressions_regressed_by_id', ['regressedById'])
export class BugRegression {
  @IntColumn({ primary: true })
  regressionId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'regression_id' })
  regression?: Relation<Bug>;

  @IntColumn({ primary: true })
  regressedById: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'regressed_by_id' })
  regressedBy?: Relation<Bug>;
}
