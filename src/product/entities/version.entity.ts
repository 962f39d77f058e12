import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { BoolColumn, IdColumn, IntColumn, StringColumn } from '../../database/columns.js';
import type { Product } from './product.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('versions')
@SettingsTable()
@Index('uq_versions_product_id_value', ['productId', 'value'], { unique: true })
export class Version {
  @IdColumn()
  id: number;

  @StringColumn(64)
  value: string;

  @IntColumn()
  productId: number;

  @ManyToOne('Product', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'product_id' })
  product?: Relation<Product>;

  @BoolColumn(true)
  isActive: boolean;

  @IntColumn({ default: 0 })
  sortkey: number;
}
