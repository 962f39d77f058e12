import { Entity, Index, JoinColumn, type Relation, ManyToOne, VersionColumn } from 'typeorm';
import { BoolColumn, DateColumn, DateTimeColumn, HoursColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import type { Product } from '../../product/entities/product.entity.js';
import type { Component } from '../../product/entities/component.entity.js';
import type { User } from '../../user/entities/user.entity.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('bugs')
@ActivityTable()
@Index('ix_bugs_product_id_status', ['productId', 'status'])
@Index('ix_bugs_component_id', ['componentId'])
@Index('ix_bugs_status', ['status'])
@Index('ix_bugs_resolution', ['resolution'])
@Index('ix_bugs_version', ['version'])
@Index('ix_bugs_target_milestone', ['targetMilestone'])
@Index('ix_bugs_op_sys', ['opSys'])
@Index('ix_bugs_platform', ['platform'])
@Index('ix_bugs_priority', ['priority'])
@Index('ix_bugs_severity', ['severity'])
@Index('ix_bugs_reporter_id', ['reporterId'])
@Index('ix_bugs_assigned_to_id', ['assignedToId'])
@Index('ix_bugs_qa_contact_id', ['qaContactId'])
@Index('ix_bugs_creation_time', ['creationTime'])
@Index('ix_bugs_last_change_time', ['lastChangeTime'])
@Index('ix_bugs_summary', ['summary'])
// Search Bugs: one product's bugs in id order (the common `product=X&limit=50` page) without a sort; deadlines.
@Index('ix_bugs_product_id', ['productId'])
@Index('ix_bugs_deadline', ['deadline'])
// BMO's fields (issue 43), searched by `type` and `filed_via`.
@Index('ix_bugs_type', ['type'])
@Index('ix_bugs_filed_via', ['filedVia'])
export class Bug {
  @IdColumn()
  id: number;

  @StringColumn(255)
  summary: string;

  @StringColumn(64)
  status: string;

  @StringColumn(64, { default: '' })
  resolution: string;

  @IntColumn()
  productId: number;

  @ManyToOne('Product', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'product_id' })
  product?: Relation<Product>;

  @IntColumn()
  componentId: number;

  @ManyToOne('Component', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'component_id' })
  component?: Relation<Component>;

  @StringColumn(64)
  version: string;

  @StringColumn(64, { default: '---' })
  targetMilestone: string;

  @StringColumn(64)
  opSys: string;

  @StringColumn(64)
  platform: string;

  @StringColumn(64)
  priority: string;

  @StringColumn(64)
  severity: string;

  @IntColumn()
  reporterId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'reporter_id' })
  reporter?: Relation<User>;

  @IntColumn()
  assignedToId: number;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'assigned_to_id' })
  assignedTo?: Relation<User>;

  @IntColumn({ nullable: true })
  qaContactId: number | null;

  @ManyToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'qa_contact_id' })
  qaContact?: Relation<User> | null;

  @LongTextColumn()
  url: string;

  @LongTextColumn()
  whiteboard: string;

  @BoolColumn(true)
  isConfirmed: boolean;

  @BoolColumn(true)
  isCreatorAccessible: boolean;

  @BoolColumn(true)
  isCcAccessible: boolean;

  @HoursColumn()
  estimatedTime: number;

  @HoursColumn()
  remainingTime: number;

  @DateColumn()
  deadline: string | null;

  @DateTimeColumn()
  creationTime: string;

  /** BMO's bug type (defect, enhancement, task); a bug filed before it existed is a defect. */
  @StringColumn(20, { default: 'defect' })
  type: string;

  /** How the bug was filed (BMO's filed_via: api, standard_form …); `unknown` for bugs filed before it was kept. */
  @StringColumn(40, { default: 'unknown' })
  filedVia: string;

  @DateTimeColumn()
  lastChangeTime: string;

  /**
   * Moves by one with every write of the row — TypeORM's updates and updateRows add it to their SET — so with every
   * change of what the bug shows: such a change touches the bug (BugRepository.touch). Unlike last_change_time it
   * cannot stand still for two changes in one second: a kept bug is current while its revision is (LoadedBugCache).
   */
  @VersionColumn({ default: 1 })
  revision: number;
}
