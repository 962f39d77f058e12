import { Entity } from 'typeorm';
import { IntColumn, StringColumn } from '../../database/columns.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('comment_tag_weights')
@ActivityTable()
export class CommentTagWeight {
  @StringColumn(24, { primary: true })
  tag: string;

  @IntColumn({ default: 0 })
  weight: number;
}
