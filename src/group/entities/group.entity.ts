import { Entity, Index } from 'typeorm';
import { BoolColumn, IdColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('groups')
@SettingsTable()
@Index('uq_groups_name', ['name'], { unique: true })
export class Group {
  @IdColumn()
  id: number;

  @StringColumn(255)
  name: string;

  @LongTextColumn()
  description: string;

  @BoolColumn(true)
  isBugGroup: boolean;

  @StringColumn(255, { default: '' })
  userRegexp: string;

  @BoolColumn(true)
  isActive: boolean;

  @StringColumn(255, { nullable: true })
  iconUrl: string | null;
}
