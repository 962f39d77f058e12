import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IntColumn } from '../../database/columns.js';
import type { Component } from './component.entity.js';
import type { User } from '../../user/entities/user.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('component_cc')
@SettingsTable()
@Index('ix_component_cc_user_id', ['userId'])
export class ComponentCc {
  @IntColumn({ primary: true })
  componentId: number;

  @ManyToOne('Component', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'component_id' })
  component?: Relation<Component>;

  @IntColumn({ primary: true })
  userId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;
}
