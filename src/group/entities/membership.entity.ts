import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Group } from './group.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('user_group_map')
@SettingsTable()
@Index('ix_user_group_map_group_id', ['groupId'])
export class Membership {
  @IntColumn({ primary: true })
  userId: number;

  // No relation to User: the group module sits below the user module (relations point only down, see
  // docs/data-layer.md), and knows users through the AccountDirectory the user module provides.

  @IntColumn({ primary: true })
  groupId: number;

  @ManyToOne('Group', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'group_id' })
  group?: Relation<Group>;

  @IntColumn({ primary: true })
  isBless: number;

  @IntColumn({ primary: true })
  grantType: number;
}
