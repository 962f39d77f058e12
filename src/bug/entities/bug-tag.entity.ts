import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import type { Tag } from './tag.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_tags')
@ActivityTable()
@Index('ix_bug_tags_tag_id', ['tagId'])
export class BugTag {
  @IntColumn({ primary: true })
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;

  @IntColumn({ primary: true })
  tagId: number;

  @ManyToOne('Tag', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'tag_id' })
  tag?: Relation<Tag>;
}
