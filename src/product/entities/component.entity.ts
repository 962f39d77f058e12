import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import type { Product } from './product.entity.js';
import type { User } from '../../user/entities/user.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('components')
@SettingsTable()
@Index('uq_components_product_id_name', ['productId', 'name'], { unique: true })
@Index('ix_components_name', ['name'])
export class Component {
  @IdColumn()
  id: number;

  @StringColumn(64)
  name: string;

  @IntColumn()
  productId: number;

  @ManyToOne('Product', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'product_id' })
  product?: Relation<Product>;

  @IntColumn()
  defaultAssigneeId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'default_assignee_id' })
  defaultAssignee?: Relation<User>;

  @IntColumn({ nullable: true })
  defaultQaContactId: number | null;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'default_qa_contact_id' })
  defaultQaContact?: Relation<User> | null;

  @LongTextColumn()
  description: string;

  @BoolColumn(true)
  isActive: boolean;

  @IntColumn({ default: 0 })
  sortkey: number;

  /** BMO's default bug type of the component's new bugs; null: the `default_bug_type` parameter's. */
  @StringColumn(20, { nullable: true })
  defaultBugType: string | null;

  /** BMO's triage owner of the component; null: none. */
  @IntColumn({ nullable: true })
  triageOwnerId: number | null;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'triage_owner_id' })
  triageOwner?: Relation<User> | null;
}
