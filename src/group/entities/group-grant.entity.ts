import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Group } from './group.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('group_group_map')
@SettingsTable()
@Index('ix_group_group_map_grantor_id', ['grantorId'])
export class GroupGrant {
  @IntColumn({ primary: true })
  memberId: number;

  @ManyToOne('Group', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'member_id' })
  member?: Relation<Group>;

  @IntColumn({ primary: true })
  grantorId: number;

  @ManyToOne('Group', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'grantor_id' })
  grantor?: Relation<Group>;

  @IntColumn({ primary: true })
  grantType: number;
}
