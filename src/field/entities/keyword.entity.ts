import { Entity, Index } from 'typeorm';
import { BoolColumn, IdColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('keywords')
@SettingsTable()
@Index('uq_keywords_name', ['name'], { unique: true })
export class Keyword {
  @IdColumn()
  id: number;

  @StringColumn(64)
  name: string;

  @LongTextColumn()
  description: string;

  @BoolColumn(true)
  isActive: boolean;
}
