import { Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import { ActivityTable } from '../../database/activity-table.js';

@Entity('mail_queue')
@ActivityTable()
@Index('ix_mail_queue_sent_at_next_attempt_at', ['sentAt', 'nextAttemptAt'])
export class QueuedMail {
  @IdColumn()
  id: number;

  @DateTimeColumn()
  createdAt: string;

  @StringColumn(255)
  toAddress: string;

  @StringColumn(255)
  subject: string;

  @LongTextColumn()
  body: string;

  @LongTextColumn({ nullable: true })
  headers: string | null;

  @IntColumn({ default: 0 })
  attempts: number;

  @DateTimeColumn()
  nextAttemptAt: string;

  @LongTextColumn({ nullable: true })
  lastError: string | null;

  @DateTimeColumn({ nullable: true })
  sentAt: string | null;
}
