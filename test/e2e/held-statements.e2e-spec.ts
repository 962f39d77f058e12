import { startTestApp, type TestApp } from '../support/test-app.js';
import { Db } from '../../src/database/db.service.js';
import { insertRows, lockRows } from '../../src/database/entity-rows.js';
import { Parameter } from '../../src/params/entities/parameter.entity.js';

/**
 * A MySQL transaction holds back the statements whose answers nobody reads (its START, row locks, the writes of
 * `withHeldWrites`) and sends them with its next statement in one round trip (sql.ts, StatementHold). Whatever the
 * dialect, the transaction must behave as if each had been sent at once: its own reads see them, a failing one fails
 * the transaction and leaves nothing behind, a rollback undoes them, and no connection goes back to the pool inside
 * a transaction.
 */
describe('statements held back until the transaction\'s next one', () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(Db);
  });
  afterAll(() => t.close());

  const valueOf = async (name: string) => (await db.read.repository(Parameter).findOneBy({ name }))?.value;
  const probe = (name: string, value = 'held') => ({ name, value });

  it('a held write is seen by the transaction\'s next read, and committed with it', async () => {
    const seen = await db.transaction(async (tx) => {
      await tx.withHeldWrites(() => insertRows(tx.repository(Parameter), [probe('held_read')]));
      return (await tx.repository(Parameter).findOneBy({ name: 'held_read' }))?.value;
    });
    expect(seen).toBe('held');
    expect(await valueOf('held_read')).toBe('held');
  });

  it('writes held to the end go with the COMMIT', async () => {
    await db.transaction((tx) => tx.withHeldWrites(async () => {
      await insertRows(tx.repository(Parameter), [probe('held_commit_1')]);
      await insertRows(tx.repository(Parameter), [probe('held_commit_2')]);
    }));
    expect([await valueOf('held_commit_1'), await valueOf('held_commit_2')]).toEqual(['held', 'held']);
  });

  it('a held write that fails fails the statement carrying it, and the transaction leaves nothing', async () => {
    await db.transaction((tx) => insertRows(tx.repository(Parameter), [probe('held_taken')]));
    await expect(db.transaction(async (tx) => {
      await tx.withHeldWrites(async () => {
        await insertRows(tx.repository(Parameter), [probe('held_lost')]);
        await insertRows(tx.repository(Parameter), [probe('held_taken', 'again')]);
      });
      await tx.repository(Parameter).findOneBy({ name: 'held_lost' });
    })).rejects.toThrow(/duplicate|unique/i);
    expect(await valueOf('held_lost')).toBeUndefined();
    expect(await valueOf('held_taken')).toBe('held');
  });

  it('a held write that fails at the COMMIT fails the transaction, and no pooled connection keeps its other writes', async () => {
    await expect(db.transaction((tx) => tx.withHeldWrites(async () => {
      await insertRows(tx.repository(Parameter), [probe('held_at_commit')]);
      await insertRows(tx.repository(Parameter), [probe('held_taken', 'again')]);
    }))).rejects.toThrow(/duplicate|unique/i);
    // Had a connection gone back to the pool inside the failed transaction, the next transaction on it would commit
    // its first write: every connection of the pool (20) commits one transaction of its own here.
    await Promise.all(Array.from({ length: 25 }, (_, i) => db.transaction((tx) => insertRows(tx.repository(Parameter), [probe(`held_after_${i}`)]))));
    expect(await valueOf('held_at_commit')).toBeUndefined();
    expect(await valueOf('held_after_24')).toBe('held');
  });

  it('a rolled-back transaction undoes what it held, sent or not', async () => {
    await expect(db.transaction(async (tx) => {
      await tx.withHeldWrites(() => insertRows(tx.repository(Parameter), [probe('held_rolled_back')]));
      throw new Error('abandoned');
    })).rejects.toThrow('abandoned');
    expect(await valueOf('held_rolled_back')).toBeUndefined();
  });

  it('a row lock goes with the next read, which runs under it: a concurrent locker waits for the commit', async () => {
    await db.transaction((tx) => insertRows(tx.repository(Parameter), [probe('held_lock', '0')]));
    const increment = () => db.transaction(async (tx) => {
      await lockRows(tx.repository(Parameter), { name: 'held_lock' });
      const current = Number((await tx.repository(Parameter).findOneByOrFail({ name: 'held_lock' })).value);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.repository(Parameter).update({ name: 'held_lock' }, { value: String(current + 1) });
    });
    await Promise.all(Array.from({ length: 6 }, increment));
    expect(await valueOf('held_lock')).toBe('6');
  });
});
