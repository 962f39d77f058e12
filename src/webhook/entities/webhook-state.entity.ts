import { Entity } from 'typeorm';
import { DateTimeColumn, IntColumn, LongTextColumn } from '../../database/columns.js';
import { ActivityTable } from '../../database/activity-table.js';

/** A webhook's delivery record as introspection shows it, written by every delivery: activity, beside its webhook. */
@Entity('webhook_states')
@ActivityTable()
export class WebhookState {
  @IntColumn({ primary: true })
  webhookId: number;

  @IntColumn({ default: 0 })
  consecutiveFailures: number;

  @DateTimeColumn({ nullable: true })
  lastSuccessAt: string | null;

  @DateTimeColumn({ nullable: true })
  lastFailureAt: string | null;

  /** The receiver's HTTP status of the last failure, null when it gave none (timeout, refused connection …). */
  @IntColumn({ nullable: true })
  lastFailureStatus: number | null;

  @LongTextColumn({ nullable: true })
  lastFailureError: string | null;
}
