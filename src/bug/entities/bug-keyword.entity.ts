import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import type { Keyword } from '../../field/entities/keyword.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_keywords')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_bug_keywords_keyword_id', ['keywordId'])
export class BugKeyword {
  @IntColumn({ primary: true })
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;

  @IntColumn({ primary: true })
  keywordId: number;

  @ManyToOne('Keyword', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'keyword_id' })
  keyword?: Relation<Keyword>;
}
