import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { Comment } from './comment.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('comment_tags')
// Get Comments shows a comment's tags, and is kept under its bug's revision: a tag change moves it (CommentTagService).
@ActivityTable({ partOf: 'bugs' })
@Index('uq_comment_tags_comment_id_tag', ['commentId', 'tag'], { unique: true })
@Index('ix_comment_tags_tag', ['tag'])
export class CommentTag {
  @IdColumn()
  id: number;

  @IntColumn()
  commentId: number;

  @ManyToOne('Comment', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'comment_id' })
  comment?: Relation<Comment>;

  @StringColumn(24)
  tag: string;
}
