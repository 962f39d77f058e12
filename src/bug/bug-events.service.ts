import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { BUG_CHANGE_FEED, BUG_MAILER, BUG_WEBHOOKS, type BugChangeEvent, type BugChangeFeed, type BugChangeListener } from './bug-events.js';

/**
 * The one way a bug change is announced: every writer (create, update, comment, attachment) publishes its event
 * here, in its transaction, and each listener queues its own outbox rows there; the change feed numbers the change
 * there. Webhooks are optional (the admin command line runs without them); mail and the feed are always there.
 */
@Injectable()
export class BugEventsService {
  constructor(
    @Inject(BUG_MAILER) private readonly mailer: BugChangeListener,
    @Inject(BUG_CHANGE_FEED) private readonly feed: BugChangeFeed,
    @Optional() @Inject(BUG_WEBHOOKS) private readonly webhooks?: BugChangeListener,
  ) {}

  async publish(tx: Sql, event: BugChangeEvent): Promise<void> {
    await this.mailer.notify(tx, event);
    await this.webhooks?.notify(tx, event);
    await this.feed.notify(tx, event);
  }

  /**
   * Bugs a change altered that get no event of their own (Create Bug mails the new bug only, not the bugs it blocks or
   * depends on, whose lists changed): the change feed still numbers them, so a mirror reads them again.
   */
  async touched(tx: Sql, bugIds: readonly number[], at: string): Promise<void> {
    if (bugIds.length) await this.feed.touched(tx, bugIds, at);
  }
}
