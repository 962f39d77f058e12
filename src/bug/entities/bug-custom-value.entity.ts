import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IdColumn, IntColumn, LongTextColumn } from '../../database/columns.js';
import type { Bug } from './bug.entity.js';
import type { FieldDefinition } from '../../field/entities/field-definition.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bug_custom_values')
@ActivityTable({ partOf: 'bugs' })
@Index('ix_bug_custom_values_bug_id_field_id', ['bugId', 'fieldId'])
@Index('ix_bug_custom_values_field_id', ['fieldId'])
export class BugCustomValue {
  @IdColumn()
  id: number;

  @IntColumn()
  bugId: number;

  @ManyToOne('Bug', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'bug_id' })
  bug?: Relation<Bug>;

  @IntColumn()
  fieldId: number;

  @ManyToOne('FieldDefinition', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'field_id' })
  field?: Relation<FieldDefinition>;

  @LongTextColumn()
  value: string;
}
