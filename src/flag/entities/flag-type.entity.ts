import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import type { Group } from '../../group/entities/group.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('flag_types')
@SettingsTable()
@Index('ix_flag_types_name', ['name'])
export class FlagType {
  @IdColumn()
  id: number;

  @StringColumn(50)
  name: string;

  @LongTextColumn()
  description: string;

  @StringColumn(200, { default: '' })
  ccList: string;

  @StringColumn(16, { default: 'bug' })
  targetType: string;

  @BoolColumn(true)
  isActive: boolean;

  @BoolColumn(true)
  isRequestable: boolean;

  @BoolColumn(true)
  isRequesteeble: boolean;

  @BoolColumn(true)
  isMultiplicable: boolean;

  @IntColumn({ default: 0 })
  sortkey: number;

  @IntColumn({ nullable: true })
  grantGroupId: number | null;

  @ManyToOne('Group', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'grant_group_id' })
  grantGroup?: Relation<Group> | null;

  @IntColumn({ nullable: true })
  requestGroupId: number | null;

  @ManyToOne('Group', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'request_group_id' })
  requestGroup?: Relation<Group> | null;
}
