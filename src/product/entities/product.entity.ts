import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import type { Classification } from './classification.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('products')
@SettingsTable()
@Index('uq_products_name', ['name'], { unique: true })
@Index('ix_products_classification_id', ['classificationId'])
export class Product {
  @IdColumn()
  id: number;

  @StringColumn(64)
  name: string;

  @IntColumn({ default: 1 })
  classificationId: number;

  @ManyToOne('Classification', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'classification_id' })
  classification?: Relation<Classification>;

  @LongTextColumn()
  description: string;

  @BoolColumn(true)
  isActive: boolean;

  @StringColumn(64, { default: '---' })
  defaultMilestone: string;

  @BoolColumn(true)
  hasUnconfirmed: boolean;
}
