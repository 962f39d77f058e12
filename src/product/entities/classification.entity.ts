import { Entity, Index } from 'typeorm';
import { IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('classifications')
@SettingsTable()
@Index('uq_classifications_name', ['name'], { unique: true })
export class Classification {
  @IdColumn()
  id: number;

  @StringColumn(64)
  name: string;

  @LongTextColumn()
  description: string;

  @IntColumn({ default: 0 })
  sortkey: number;
}
