import { Injectable } from '@nestjs/common';
import type { Sql } from './sql.js';

/**
 * Wakes an outbox worker (mail, webhooks) right after a transaction that queued rows for it commits, so they leave at
 * once instead of at the next poll. A rolled-back transaction wakes nobody (its rows are gone). Each outbox signals
 * on its own channel.
 */
@Injectable()
export class CommitSignals {
  private readonly listeners = new Map<string, Set<() => void>>();

  /** Called by a writer that queued rows for `channel` in `tx`: its listeners are woken once `tx` commits. */
  afterCommitOf(tx: Sql, channel: string): void {
    void tx.committed().then((committed) => {
      if (committed) this.signal(channel);
    });
  }

  on(channel: string, listener: () => void): () => void {
    const listeners = this.listeners.get(channel) ?? new Set<() => void>();
    listeners.add(listener);
    this.listeners.set(channel, listeners);
    return () => listeners.delete(listener);
  }

  private signal(channel: string): void {
    for (const listener of this.listeners.get(channel) ?? []) listener();
  }
}
