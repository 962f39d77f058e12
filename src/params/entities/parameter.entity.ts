import { Entity } from 'typeorm';
import { LongTextColumn, StringColumn } from '../../database/columns.js';

@Entity('parameters')
export class Parameter {
  @StringColumn(64, { primary: true })
  name: string;

  @LongTextColumn()
  value: string;
}
