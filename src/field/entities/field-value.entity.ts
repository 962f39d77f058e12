import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { FieldDefinition } from './field-definition.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('field_values')
@SettingsTable()
@Index('uq_field_values_field_id_value', ['fieldId', 'value'], { unique: true })
export class FieldValue {
  @IdColumn()
  id: number;

  @IntColumn()
  fieldId: number;

  @ManyToOne('FieldDefinition', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'field_id' })
  field?: Relation<FieldDefinition>;

  @StringColumn(64)
  value: string;

  @IntColumn({ default: 0 })
  sortkey: number;

  @BoolColumn(true)
  isActive: boolean;

  @IntColumn({ nullable: true })
  isOpen: number | null;

  @IntColumn({ nullable: true })
  visibilityValueId: number | null;
}
