import { Entity, Index } from 'typeorm';
import { BoolColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('fielddefs')
@SettingsTable()
@Index('uq_fielddefs_name', ['name'], { unique: true })
@Index('ix_fielddefs_sortkey', ['sortkey'])
export class FieldDefinition {
  @IdColumn()
  id: number;

  @StringColumn(64)
  name: string;

  @StringColumn(255)
  description: string;

  @IntColumn({ default: 0 })
  type: number;

  @BoolColumn(false)
  custom: boolean;

  @BoolColumn(false)
  obsolete: boolean;

  @BoolColumn(false)
  mailhead: boolean;

  @IntColumn({ default: 0 })
  sortkey: number;

  @BoolColumn(false)
  enterBug: boolean;

  @BoolColumn(false)
  buglist: boolean;

  @BoolColumn(false)
  isMandatory: boolean;

  @BoolColumn(false)
  isNumeric: boolean;

  @IntColumn({ nullable: true })
  visibilityFieldId: number | null;

  @IntColumn({ nullable: true })
  valueFieldId: number | null;

  @StringColumn(255, { nullable: true })
  reverseDesc: string | null;
}
