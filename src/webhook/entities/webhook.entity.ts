import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IdColumn, IntColumn, LongTextColumn, StringColumn } from '../../database/columns.js';
import { SettingsTable } from '../../database/activity-table.js';

export type WebhookFormat = 'tracker' | 'bmo';

/**
 * A webhook (beyond Bugzilla 5.0, issue 15): its owner, where it posts, which events of which product/component,
 * whether it is enabled. A settings table: every bug change reads the webhooks kept under the settings mark (no
 * statement while none changes); what each delivery writes lives in webhook_states (activity).
 */
@Entity('webhooks')
@SettingsTable()
@Index('ix_webhooks_owner_id', ['ownerId'])
@Index('ix_webhooks_enabled', ['enabled'])
export class Webhook {
  @IdColumn()
  id: number;

  @IntColumn()
  ownerId: number;

  @StringColumn(255)
  name: string;

  @LongTextColumn()
  url: string;

  /** The HMAC-SHA256 key of X-Tracker-Signature (hex); shown to the owner once, at creation. */
  @StringColumn(64)
  secret: string;

  /**
   * What each delivery's body looks like: `tracker` (the bug as Get Bug shows it, issue 15) or `bmo` (the payload of
   * bugzilla.mozilla.org's webhooks, issue 43). Rows from before issue 43 are `tracker`.
   */
  @StringColumn(16, { default: 'tracker' })
  format: WebhookFormat;

  /**
   * Comma-separated, in the format's words: create, modify, comment, attachment (`tracker`); create, change,
   * comment, attachment, attachment_change (`bmo`, as BMO stores them).
   */
  @StringColumn(64)
  events: string;

  @IntColumn({ nullable: true })
  productId: number | null;

  /**
   * A header the receiver authenticates by, and its value (BMO's api_key_header and api_key_value: JBI checks
   * X-Api-Key), sent with every delivery beside the signature. The value is never shown.
   */
  @StringColumn(64, { nullable: true })
  apiKeyHeader: string | null;

  @StringColumn(255, { nullable: true })
  apiKeyValue: string | null;

  @IntColumn({ nullable: true })
  componentId: number | null;

  @BoolColumn(true)
  enabled: boolean;

  /**
   * Why the service disabled it (consecutive failures), or null. A webhook disabled this way keeps collecting its
   * events, so that re-enabling it drains the backlog; one its owner disabled collects nothing.
   */
  @LongTextColumn({ nullable: true })
  disabledReason: string | null;

  @DateTimeColumn()
  createdAt: string;
}
