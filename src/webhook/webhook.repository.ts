import { Injectable } from '@nestjs/common';
import { In, LessThan } from 'typeorm';
import { type Sql, type ReadSql } from '../database/sql.js';
import { insertRows } from '../database/entity-rows.js';
import { Webhook } from './entities/webhook.entity.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookState } from './entities/webhook-state.entity.js';

export type NewWebhook = Omit<Webhook, 'id'>;
export type WebhookChange = Partial<Omit<Webhook, 'id' | 'ownerId' | 'secret' | 'createdAt'>>;
export type StateChange = Partial<Omit<WebhookState, 'webhookId'>>;
export type DeliveryChange = Partial<Pick<WebhookDelivery, 'payload' | 'state' | 'attempts' | 'nextAttemptAt' | 'lastAttemptAt' | 'lastStatus' | 'lastError' | 'finishedAt'>>;

/** The webhook tables (webhooks, webhook_states, webhook_deliveries): the only place that names them. */
@Injectable()
export class WebhookRepository {
  /** A webhook and its (clean) state. */
  async insert(tx: Sql, row: NewWebhook): Promise<number> {
    const id = await insertRows(tx.repository(Webhook), [row]);
    await insertRows(tx.repository(WebhookState), [{ webhookId: id, consecutiveFailures: 0 }]);
    return id;
  }

  async states(sql: ReadSql, webhookIds: readonly number[]): Promise<Map<number, WebhookState>> {
    if (!webhookIds.length) return new Map();
    const rows = await sql.repository(WebhookState).findBy({ webhookId: In([...webhookIds]) });
    return new Map(rows.map((row) => [row.webhookId, row]));
  }

  async changeState(tx: Sql, id: number, values: StateChange): Promise<void> {
    await tx.repository(WebhookState).update({ webhookId: id }, values);
  }

  /** The webhooks of one owner, or all of them (ownerId undefined), by id. */
  list(sql: ReadSql, ownerId: number | undefined): Promise<Webhook[]> {
    return sql.repository(Webhook).find({ where: ownerId === undefined ? {} : { ownerId }, order: { id: 'ASC' } });
  }

  byId(sql: ReadSql, id: number): Promise<Webhook | null> {
    return sql.repository(Webhook).findOneBy({ id });
  }

  async change(tx: Sql, id: number, values: WebhookChange): Promise<void> {
    await tx.repository(Webhook).update({ id }, values);
  }

  async delete(tx: Sql, id: number): Promise<void> {
    await tx.repository(WebhookDelivery).delete({ webhookId: id });
    await tx.repository(WebhookState).delete({ webhookId: id });
    await tx.repository(Webhook).delete({ id });
  }

  /**
   * The webhooks that take events: enabled ones, and those the service disabled after failures (they collect a
   * backlog that drains when re-enabled). Kept under the settings mark by the caller (WebhookService.notify).
   */
  collecting(sql: Sql): Promise<Webhook[]> {
    return sql.repository(Webhook).createQueryBuilder('w')
      .where('w.enabled = 1 OR w.disabledReason IS NOT NULL')
      .getMany();
  }

  async addDeliveries(tx: Sql, rows: ReadonlyArray<Omit<WebhookDelivery, 'id'>>): Promise<void> {
    await insertRows(tx.repository(WebhookDelivery), rows);
  }

  /** How many deliveries wait, per webhook (only those with some). */
  async pendingCounts(sql: ReadSql, webhookIds: readonly number[]): Promise<Map<number, number>> {
    if (!webhookIds.length) return new Map();
    const rows = await sql.repository(WebhookDelivery).createQueryBuilder('d')
      .select('d.webhookId', 'webhookId').addSelect('COUNT(*)', 'pending')
      .where({ webhookId: In([...webhookIds]), state: 'pending' })
      .groupBy('d.webhookId')
      .getRawMany<{ webhookId: number; pending: number | string }>();
    return new Map(rows.map((r) => [Number(r.webhookId), Number(r.pending)]));
  }

  /** A webhook's most recent deliveries, newest first; with `beforeId`, those older than that one. */
  recentDeliveries(sql: ReadSql, webhookId: number, limit: number, beforeId?: number): Promise<WebhookDelivery[]> {
    const where = beforeId === undefined ? { webhookId } : { webhookId, id: LessThan(beforeId) };
    return sql.repository(WebhookDelivery).find({ where, order: { id: 'DESC' }, take: limit });
  }

  /**
   * Deliveries that may be tried now: pending, due, of an enabled webhook, and first in line for their webhook and
   * bug (no earlier pending delivery of the same pair), so that the events of one bug arrive in order. Oldest first.
   */
  due(sql: Sql, now: number, limit: number): Promise<WebhookDelivery[]> {
    return this.headsOfLine(sql).andWhere('d.nextAttemptAt <= :now', { now }).orderBy('d.id', 'ASC').take(limit).getMany();
  }

  /** When the next delivery that may be tried is due (ms since the epoch), if any is waiting. */
  async nextDueAt(sql: ReadSql): Promise<number | undefined> {
    const row = await this.headsOfLine(sql).select('MIN(d.nextAttemptAt)', 'next').getRawOne<{ next: number | string | null }>();
    return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
  }

  /** Pending deliveries of enabled webhooks that are first in line for their webhook and bug. */
  private headsOfLine(sql: ReadSql) {
    return sql.repository(WebhookDelivery).createQueryBuilder('d')
      .innerJoin(Webhook, 'w', 'w.id = d.webhookId AND w.enabled = 1')
      .where('d.state = :pending', { pending: 'pending' })
      .andWhere((qb) => `NOT EXISTS ${qb.subQuery().select('1').from(WebhookDelivery, 'e')
        .where('e.webhookId = d.webhookId AND e.bugId = d.bugId AND e.state = :pending AND e.id < d.id').getQuery()}`);
  }

  /**
   * Moves a pending delivery's next attempt to `until` only if it is still `seen` (nobody claimed it since it was
   * read): true for exactly one of several claimers of the same row.
   */
  async claim(tx: Sql, id: number, seen: number, until: number): Promise<boolean> {
    const { affected } = await tx.repository(WebhookDelivery).update({ id, nextAttemptAt: seen, state: 'pending' }, { nextAttemptAt: until });
    return affected === 1;
  }

  async changeDelivery(tx: Sql, id: number, values: DeliveryChange): Promise<void> {
    await tx.repository(WebhookDelivery).update({ id }, values);
  }

  /** Deletes delivered and skipped deliveries finished before `before` (pending ones are never matched); how many. */
  async deleteFinishedBefore(tx: Sql, before: string): Promise<number> {
    const { affected } = await tx.repository(WebhookDelivery).delete({ state: In(['delivered', 'skipped']), finishedAt: LessThan(before) });
    return affected ?? 0;
  }

  /** Makes every pending delivery of a webhook due at `now` (its backlog drains at once, in order). */
  async makeBacklogDue(tx: Sql, webhookId: number, now: number): Promise<void> {
    await tx.repository(WebhookDelivery).update({ webhookId, state: 'pending' }, { nextAttemptAt: now });
  }

  /** Adds one failure to the webhook's run of consecutive failures, atomically; answers the new count. */
  async countFailure(tx: Sql, id: number, failure: Pick<WebhookState, 'lastFailureAt' | 'lastFailureStatus' | 'lastFailureError'>): Promise<number> {
    await tx.repository(WebhookState).createQueryBuilder().update()
      .set({ ...failure, consecutiveFailures: () => 'consecutive_failures + 1' })
      .where({ webhookId: id })
      .execute();
    const row = await tx.repository(WebhookState).findOne({ where: { webhookId: id }, select: { consecutiveFailures: true } });
    return row?.consecutiveFailures ?? 0;
  }
}
