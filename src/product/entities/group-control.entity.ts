import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, IntColumn } from '../../database/columns.js';
import type { Product } from './product.entity.js';
import type { Group } from '../../group/entities/group.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('group_control_map')
@SettingsTable()
@Index('ix_group_control_map_group_id', ['groupId'])
export class GroupControl {
  @IntColumn({ primary: true })
  productId: number;

  @ManyToOne('Product', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'product_id' })
  product?: Relation<Product>;

  @IntColumn({ primary: true })
  groupId: number;

  @ManyToOne('Group', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'group_id' })
  group?: Relation<Group>;

  @BoolColumn(false)
  entry: boolean;

  @IntColumn({ default: 0 })
  membercontrol: number;

  @IntColumn({ default: 0 })
  othercontrol: number;

  @BoolColumn(false)
  canedit: boolean;

  @BoolColumn(false)
  editcomponents: boolean;

  @BoolColumn(false)
  editbugs: boolean;

  @BoolColumn(false)
  canconfirm: boolean;
}
