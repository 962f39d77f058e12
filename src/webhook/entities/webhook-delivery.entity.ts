import { Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, IntColumn, LongTextColumn, MillisecondsColumn, StringColumn } from '../../database/columns.js';
import { ActivityTable } from '../../database/activity-table.js';

/** Where a delivery stands: waiting (or being tried), delivered, or skipped because its owner may not see it. */
export type DeliveryState = 'pending' | 'delivered' | 'skipped';

/**
 * One event for one webhook: the outbox row written in the change's transaction, then the delivery's record. The
 * event is stored as it happened; the payload is rendered for the owner when the delivery is first tried and kept,
 * so every retry sends the same bytes under the same signature and delivery id.
 */
@Entity('webhook_deliveries')
@ActivityTable()
@Index('ix_webhook_deliveries_state_next_attempt_at', ['state', 'nextAttemptAt'])
@Index('ix_webhook_deliveries_webhook_id_bug_id_state', ['webhookId', 'bugId', 'state'])
@Index('ix_webhook_deliveries_webhook_id_id', ['webhookId', 'id'])
export class WebhookDelivery {
  @IdColumn()
  id: number;

  @IntColumn()
  webhookId: number;

  @IntColumn()
  bugId: number;

  /** The receiver's idempotence key (X-Tracker-Delivery): a UUID. */
  @StringColumn(36)
  deliveryId: string;

  @StringColumn(16)
  action: string;

  /** The event as it happened (JSON: changer, time, changes, the comment or attachment it concerns). */
  @LongTextColumn()
  event: string;

  /** The body sent (JSON), once rendered. */
  @LongTextColumn({ nullable: true })
  payload: string | null;

  @StringColumn(16)
  state: DeliveryState;

  @IntColumn({ default: 0 })
  attempts: number;

  /** When it may be tried next (ms since the epoch): retries back off, and a claim leases it until then. */
  @MillisecondsColumn()
  nextAttemptAt: number;

  @DateTimeColumn()
  createdAt: string;

  @DateTimeColumn({ nullable: true })
  lastAttemptAt: string | null;

  @IntColumn({ nullable: true })
  lastStatus: number | null;

  @LongTextColumn({ nullable: true })
  lastError: string | null;

  @DateTimeColumn({ nullable: true })
  finishedAt: string | null;
}
