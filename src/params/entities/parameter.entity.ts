import { Entity } from 'typeorm';
import { LongTextColumn, StringColumn } from '../../database/columns.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('parameters')
@SettingsTable()
export class Parameter {
  @StringColumn(64, { primary: true })
  name: string;

  @LongTextColumn()
  value: string;
}
