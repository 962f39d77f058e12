import { CommitSignals } from './commit-signals.js';
import type { Sql } from './sql.js';

/** A transaction handle whose end the test decides. */
function transaction(): { tx: Sql; end: (committed: boolean) => void } {
  let end!: (committed: boolean) => void;
  const committed = new Promise<boolean>((resolve) => (end = resolve));
  return { tx: { committed: () => committed } as unknown as Sql, end };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('CommitSignals', () => {
  it('wakes a channel\'s listeners once the transaction commits, not before, and only that channel\'s', async () => {
    const signals = new CommitSignals();
    const woken: string[] = [];
    signals.on('mail', () => woken.push('mail'));
    signals.on('webhooks', () => woken.push('webhooks'));
    const { tx, end } = transaction();
    signals.afterCommitOf(tx, 'mail');
    await settled();
    expect(woken).toEqual([]);
    end(true);
    await settled();
    expect(woken).toEqual(['mail']);
  });

  it('wakes nobody when the transaction rolls back, nor a listener that stopped listening', async () => {
    const signals = new CommitSignals();
    const woken: string[] = [];
    const stop = signals.on('mail', () => woken.push('mail'));
    const rolledBack = transaction();
    signals.afterCommitOf(rolledBack.tx, 'mail');
    rolledBack.end(false);
    await settled();
    stop();
    const committed = transaction();
    signals.afterCommitOf(committed.tx, 'mail');
    committed.end(true);
    await settled();
    expect(woken).toEqual([]);
  });
});
