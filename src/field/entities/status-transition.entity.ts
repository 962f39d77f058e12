import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, IdColumn, IntColumn } from '../../database/columns.js';
import type { FieldValue } from './field-value.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('status_workflow')
@SettingsTable()
@Index('ix_status_workflow_from_status_id_to_status_id', ['fromStatusId', 'toStatusId'])
export class StatusTransition {
  @IdColumn()
  id: number;

  @IntColumn({ nullable: true })
  fromStatusId: number | null;

  @ManyToOne('FieldValue', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'from_status_id' })
  fromStatus?: Relation<FieldValue> | null;

  @IntColumn()
  toStatusId: number;

  @ManyToOne('FieldValue', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'to_status_id' })
  toStatus?: Relation<FieldValue>;

  @BoolColumn(false)
  requireComment: boolean;
}
