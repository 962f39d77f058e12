import { Entity, Index, JoinColumn, type Relation, ManyToOne } from 'typeorm';
import { IdColumn, IntColumn } from '../../database/columns.js';
import type { FlagType } from './flag-type.entity.js';
import type { Product } from '../../product/entities/product.entity.js';
import type { Component } from '../../product/entities/component.entity.js';
import { SettingsTable } from '../../database/activity-table.js';

@Entity('flag_inclusions')
@SettingsTable()
@Index('ix_flag_inclusions_type_id', ['typeId'])
@Index('ix_flag_inclusions_product_id', ['productId'])
export class FlagInclusion {
  @IdColumn()
  id: number;

  @IntColumn()
  typeId: number;

  @ManyToOne('FlagType', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'type_id' })
  type?: Relation<FlagType>;

  @IntColumn({ nullable: true })
  productId: number | null;

  @ManyToOne('Product', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'product_id' })
  product?: Relation<Product> | null;

  @IntColumn({ nullable: true })
  componentId: number | null;

  @ManyToOne('Component', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'component_id' })
  component?: Relation<Component> | null;
}
