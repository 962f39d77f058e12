import { Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('audit_log')
@ActivityTable()
@Index('ix_audit_log_at_time', ['atTime'])
@Index('ix_audit_log_class_at_time', ['class', 'atTime'])
export class AuditLogEntry {
  @IdColumn()
  id: number;

  @IntColumn({ nullable: true })
  userId: number | null;

  @StringColumn(255)
  class: string;

  @IntColumn()
  objectId: number;

  @StringColumn(64)
  field: string;

  @LongTextColumn({ nullable: true })
  removed: string | null;

  @LongTextColumn({ nullable: true })
  added: string | null;

  @DateTimeColumn()
  atTime: string;
}
