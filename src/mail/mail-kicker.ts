import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';

/**
 * Wakes the delivery worker right after a transaction that queued mail commits, so mail leaves at once instead of
 * at the next poll. It listens to TypeORM's transaction events, so writers need not know it exists; a rolled-back
 * transaction wakes nobody (its rows are gone).
 */
@Injectable()
export class MailKicker implements EntitySubscriberInterface, OnModuleInit, OnModuleDestroy {
  private readonly pending = new WeakSet<QueryRunner>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: Db) {}

  onModuleInit(): void {
    this.db.dataSource.subscribers.push(this);
  }

  onModuleDestroy(): void {
    const subscribers = this.db.dataSource.subscribers;
    const index = subscribers.indexOf(this);
    if (index >= 0) subscribers.splice(index, 1);
  }

  /** Called by a writer that queued mail in `tx`: the worker is woken when `tx` commits. */
  afterCommitOf(tx: Sql): void {
    const runner = tx.manager.queryRunner;
    if (runner?.isTransactionActive) this.pending.add(runner);
    else this.kick();
  }

  onKick(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // A savepoint's commit leaves the transaction active: wait for the outermost commit.
    if (!event.queryRunner || event.queryRunner.isTransactionActive || !this.pending.has(event.queryRunner)) return;
    this.pending.delete(event.queryRunner);
    this.kick();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (event.queryRunner && !event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }

  private kick(): void {
    for (const listener of this.listeners) listener();
  }
}
