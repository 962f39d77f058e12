import { Like } from 'typeorm';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Db } from '../../src/database/db.service.js';
import { insertRowLater, insertRows, lockRows } from '../../src/database/entity-rows.js';
import { BugAlias } from '../../src/bug/entities/bug-alias.entity.js';
import { Parameter } from '../../src/params/entities/parameter.entity.js';
import { BugLoaderService } from '../../src/bug/store/bug-loader.service.js';
import { BugRepository } from '../../src/bug/store/bug.repository.js';
import { fileBug } from './bug-fixtures.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { BugCc } from '../../src/bug/entities/bug-cc.entity.js';
import { knownId, type RowId } from '../../src/database/sql.js';
import { describeWhen, needsFastPaths } from '../support/conditions.js';

/**
 * A MySQL transaction holds back the statements whose answers nobody reads (its START, row locks, the writes of
 * `withHeldWrites`) and sends them with its next statement in one round trip (sql.ts, StatementHold). Whatever the
 * dialect, the transaction must behave as if each had been sent at once: its own reads see them, a failing one fails
 * the transaction and leaves nothing behind, a rollback undoes them, and no connection goes back to the pool inside
 * a transaction.
 */
// Their subject is the holding itself: with TRACKER_FAST_PATHS=off nothing is held, and SQLite covers that path.
describeWhen(needsFastPaths)('statements held back until the transaction\'s next one', () => {
  let t: TestApp;
  let db: Db;
  let loader: BugLoaderService;
  let bugs: BugRepository;
  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(Db);
    loader = t.app.get(BugLoaderService);
    bugs = t.app.get(BugRepository);
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

  it('a transaction\'s committed() settles true once it committed, false once it rolled back, even when its COMMIT carried the failing write (true outside one)', async () => {
    await db.transaction((tx) => insertRows(tx.repository(Parameter), [probe('ended_taken')]));
    let ok: Promise<boolean> | undefined;
    await db.transaction(async (tx) => {
      ok = tx.committed();
      await insertRows(tx.repository(Parameter), [probe('ended_ok')]);
    });
    await expect(ok).resolves.toBe(true);
    let failed: Promise<boolean> | undefined;
    await expect(db.transaction(async (tx) => {
      failed = tx.committed();
      await tx.withHeldWrites(() => insertRows(tx.repository(Parameter), [probe('ended_taken', 'again')]));
    })).rejects.toThrow(/duplicate|unique/i);
    await expect(failed).resolves.toBe(false);
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

  describe('reads gathered (Sql.gathering): issued together, they leave together with what is held', () => {
    const relations = new Set(['alias', 'cc'] as const);

    it('each gets its own answer, and they see what the transaction held before them', async () => {
      const [id, otherId] = [await fileBug(t), await fileBug(t)];
      const user = await t.createUser('gathered@example.com');
      const [details, { byBug }] = await db.transaction(async (tx) => {
        await tx.withHeldWrites(() => bugs.addCc(tx, id, [user.id]));
        return tx.gathering((sql) => Promise.all([loader.details([id, otherId], { sql }), loader.relations([id, otherId], relations, { sql })]));
      });
      expect([...details.keys()].sort()).toEqual([id, otherId].sort());
      expect(byBug.get(id)!.cc.map((u) => u.login)).toEqual(['gathered@example.com']);
      expect(byBug.get(otherId)!.cc).toEqual([]);
    });

    it('a statement failing among them fails them all and the transaction, which leaves nothing behind', async () => {
      const [id, aliased] = [await fileBug(t), await fileBug(t, { alias: ['gathered-taken'] })];
      const user = await t.createUser('gathered-failed@example.com');
      const attempt = db.transaction(async (tx) => {
        await tx.withHeldWrites(async () => {
          await bugs.addCc(tx, id, [user.id]);
          await bugs.addAliases(tx, id, ['gathered-taken']);
        });
        return tx.gathering((sql) => Promise.all([loader.details([id], { sql }), loader.relations([id, aliased], relations, { sql })]));
      });
      await expect(attempt).rejects.toThrow();
      const { byBug } = await loader.relations([id], relations);
      expect(byBug.get(id)!.cc).toEqual([]);
    });
  });

  describe('a write whose id is asked for later (runWriteLater)', () => {
    const aliasRows = (bugId: number) => t.db.read.repository(BugAlias).findBy({ bugId });

    it('not asked for, it goes with the COMMIT; asked for, it is sent at once and answers its own id', async () => {
      const id = await fileBug(t);
      const [askedId, probeId] = await db.transaction(async (tx) => {
        const pending = await insertRowLater(tx.repository(BugAlias), { bugId: id, alias: 'later-asked' });
        await insertRowLater(tx.repository(BugAlias), { bugId: id, alias: 'later-never-asked' });
        const asked = await pending();
        const probe = await insertRows(tx.repository(BugAlias), [{ bugId: id, alias: 'later-probe' }]);
        return [asked, probe];
      });
      expect(askedId).toBeGreaterThan(0);
      expect(probeId).toBeGreaterThan(askedId);
      expect((await aliasRows(id)).map((r) => r.alias).sort()).toEqual(['later-asked', 'later-never-asked', 'later-probe']);
    });

    it('one that fails fails the statement carrying it, and its id is never given', async () => {
      const [id, taken] = [await fileBug(t), await fileBug(t, { alias: ['later-taken'] })];
      let pending: (() => Promise<number>) | undefined;
      const attempt = db.transaction(async (tx) => {
        pending = await insertRowLater(tx.repository(BugAlias), { bugId: id, alias: 'later-taken' });
        await tx.repository(BugAlias).findBy({ bugId: taken });
      });
      await expect(attempt).rejects.toThrow();
      // On SQLite nothing is held: the insert failed where it was made, before any id could be promised.
      if (pending) await expect(pending()).rejects.toThrow();
      expect(await aliasRows(id)).toEqual([]);
    });
  });

  describe('a row whose id later writes name before it is known (runInsertHeld)', () => {
    const newBugRow = async () => {
      const { id: _id, ...row } = await t.db.read.repository(Bug).findOneByOrFail({ id: await fileBug(t) });
      return row;
    };
    const ccOf = async (bugId: number) => (await t.db.read.repository(BugCc).findBy({ bugId })).map((r) => r.userId);
    const aliasesOf = async (bugId: number) => (await t.db.read.repository(BugAlias).findBy({ bugId })).map((r) => r.alias);

    it('the rows naming it, held or sent at once, land on the new row; its number comes with the COMMIT', async () => {
      const row = await newBugRow();
      let held: RowId | undefined;
      await db.transaction(async (tx) => {
        held = await bugs.insertBug(tx, row);
        // On MySQL: not a number yet, whatever goes first.
        if (tx.dialect === 'mysql') expect(typeof held).toBe('object');
        await tx.withHeldWrites(() => bugs.addCc(tx, held!, [1]));
        await bugs.addAliases(tx, held, ['held-row-alias']);
      });
      const id = await knownId(held!);
      expect(id).toBeGreaterThan(0);
      expect([await ccOf(id), await aliasesOf(id)]).toEqual([[1], ['held-row-alias']]);
    });

    it('asked for inside the transaction, it is sent at once; a write naming it afterwards (not held) still goes, as text', async () => {
      const row = await newBugRow();
      const [asked, final] = await db.transaction(async (tx) => {
        const held = await bugs.insertBug(tx, row);
        const number = await knownId(held);
        await bugs.addCc(tx, held, [1]);
        return [number, held];
      });
      expect(await knownId(final)).toBe(asked);
      expect(await ccOf(asked)).toEqual([1]);
    });

    it('a rollback leaves no row, and the id is never given', async () => {
      const row = await newBugRow();
      const before = await t.db.read.repository(Bug).count();
      let held: RowId | undefined;
      await expect(db.transaction(async (tx) => {
        held = await bugs.insertBug(tx, row);
        await tx.withHeldWrites(() => bugs.addCc(tx, held!, [1]));
        throw new Error('changed my mind');
      })).rejects.toThrow('changed my mind');
      // On SQLite nothing is held: the row was written and rolled back, its number known.
      if (typeof held === 'object') await expect(knownId(held)).rejects.toThrow();
      expect(await t.db.read.repository(Bug).count()).toBe(before);
    });
  });
  it('held statements beyond the names a connection keeps run as sent, in one transaction and the next (NamedStatements)', async () => {
    // On MariaDB each goes as an EXECUTE of a statement its connection prepared by name; past 64 names, names are
    // prepared anew for other statements, within one query too. An INSERT of k rows is a statement of its own.
    const insertAll = (round: string) => db.transaction((tx) => tx.withHeldWrites(async () => {
      for (let k = 1; k <= 80; k++) {
        await insertRows(tx.repository(Parameter), Array.from({ length: k }, (_, i) => probe(`named_${round}_${k}_${i}`, `${k}`)));
      }
    }));
    for (const round of ['first', 'second']) {
      await insertAll(round);
      const rows = await db.read.repository(Parameter).findBy({ name: Like(`named_${round}_%`) });
      expect(rows).toHaveLength((80 * 81) / 2);
      expect(rows.every((row) => row.name.startsWith(`named_${round}_${row.value}_`))).toBe(true);
    }
  });
});
