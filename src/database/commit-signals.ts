import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { Db } from './db.service.js';
import type { Sql } from './sql.js';

/**
 * Wakes an outbox worker (mail, webhooks) right after a transaction that queued rows for it commits, so they leave at
 * once instead of at the next poll. It listens to TypeORM's transaction events, so writers need not know who
 * listens; a rolled-back transaction wakes nobody (its rows are gone). Each outbox signals on its own channel.
 */
@Injectable()
export class CommitSignals implements EntitySubscriberInterface, OnModuleInit, OnModuleDestroy {
  private readonly pending = new WeakMap<QueryRunner, Set<string>>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(private readonly db: Db) {}

  onModuleInit(): void {
    this.db.dataSource.subscribers.push(this);
  }

  onModuleDestroy(): void {
    const subscribers = this.db.dataSource.subscribers;
    const index = subscribers.indexOf(this);
    if (index >= 0) subscribers.splice(index, 1);
  }

  /** Called by a writer that queued rows for `channel` in `tx`: its listeners are woken when `tx` commits. */
  afterCommitOf(tx: Sql, channel: string): void {
    const runner = tx.manager.queryRunner;
    if (!runner?.isTransactionActive) {
      this.signal(channel);
      return;
    }
    const channels = this.pending.get(runner) ?? new Set<string>();
    channels.add(channel);
    this.pending.set(runner, channels);
  }

  on(channel: string, listener: () => void): () => void {
    const listeners = this.listeners.get(channel) ?? new Set<() => void>();
    listeners.add(listener);
    this.listeners.set(channel, listeners);
    return () => listeners.delete(listener);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // A savepoint's commit leaves the transaction active: wait for the outermost commit.
    if (!event.queryRunner || event.queryRunner.isTransactionActive) return;
    const channels = this.pending.get(event.queryRunner);
    if (!channels) return;
    this.pending.delete(event.queryRunner);
    for (const channel of channels) this.signal(channel);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (event.queryRunner && !event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }

  private signal(channel: string): void {
    for (const listener of this.listeners.get(channel) ?? []) listener();
  }
}
