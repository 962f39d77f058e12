import { fileURLToPath } from 'node:url';
import path from 'node:path';
import ts from 'typescript';
import type { EntityManager } from 'typeorm';
import type { Db } from './db.service.js';
import { runWrite, Sql, type ReadSql } from './sql.js';
import { WriteOutsideTransaction } from './written-tables.js';

class Probe {
  id!: number;
  name!: string;
}

/**
 * Never called: it type-checks only while every write below is refused by the types (an unused `@ts-expect-error`
 * is an error; the first test below compiles this file). A read handle reads; writing is a transaction's.
 */
export function writesThroughTheReadHandle(db: Db, tx: Sql): ReadSql {
  const read = db.read;
  // @ts-expect-error a read handle runs no raw write
  void read.run('', []);
  // @ts-expect-error nor holds, combines or steps writes
  void read.withHeldWrites(async () => undefined);
  // @ts-expect-error no undoableStep on a read handle
  void read.undoableStep(async () => undefined);
  // @ts-expect-error no gathering on a read handle
  void read.gathering(async () => undefined);
  // @ts-expect-error its TypeORM manager (which writes) is not reachable
  void read.manager;
  const probes = read.repository(Probe);
  // @ts-expect-error its entity repositories only read
  void probes.insert({ name: 'x' });
  // @ts-expect-error no update on a read repository
  void probes.update({ id: 1 }, { name: 'x' });
  // @ts-expect-error no delete on a read repository
  void probes.delete({ id: 1 });
  // @ts-expect-error no save on a read repository
  void probes.save({ id: 1, name: 'x' });
  // @ts-expect-error no upsert on a read repository
  void probes.upsert({ id: 1, name: 'x' }, ['id']);
  // @ts-expect-error no increment on a read repository
  void probes.increment({ id: 1 }, 'id', 1);
  // @ts-expect-error nor hand out the manager they write through
  void probes.manager;
  void probes.findBy({ id: 1 });
  // A transaction's handle reads too: a read method takes either.
  return tx;
}

/** A query function that records what it was sent and answers `answer`. */
function recording(answer?: unknown) {
  const sent: string[] = [];
  return { sent, query: async (sql: string) => (sent.push(sql), answer) };
}

describe('reads cannot write', () => {
  it('the types refuse every write through the read handle: this file type-checks, each @ts-expect-error used', () => {
    const file = fileURLToPath(import.meta.url);
    const root = path.resolve(path.dirname(file), '../..');
    const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
    const program = ts.createProgram([file], { ...config.options, noEmit: true });
    const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
    expect(errors).toEqual([]);
  }, 30_000);
});

describe('writes happen in transactions only', () => {
  const manager = (queryRunner?: object, query = recording().query) => ({ queryRunner, query }) as unknown as EntityManager;

  it('a raw write on a manager without a transaction is refused before anything is sent', async () => {
    const { sent, query } = recording();
    const outside = manager(undefined, query);
    await expect(runWrite(outside, 'UPDATE `parameters` SET `value` = ?', ['x'])).rejects.toThrow(WriteOutsideTransaction);
    await expect(runWrite(outside, 'UPDATE `parameters` SET `value` = ?', ['x'])).rejects.toThrow(/parameters outside a transaction/);
    expect(sent).toEqual([]);
  });

  it('so is one on a query runner whose transaction is not active, through a handle as through runWrite', async () => {
    const { sent, query } = recording();
    const idle = manager({ isTransactionActive: false, query, data: {} }, query);
    await expect(new Sql(idle, 'sqlite').run('DELETE FROM `bugs`')).rejects.toThrow(WriteOutsideTransaction);
    expect(sent).toEqual([]);
  });

  it('a write in a transaction runs and is noted for the settings mark', async () => {
    const { sent, query } = recording({ raw: { insertId: 7, affectedRows: 1 }, affected: 1 });
    const runner = { isTransactionActive: true, query, data: {} };
    expect(await runWrite(manager(runner), 'INSERT INTO `parameters` (`name`) VALUES (?)', ['x'])).toEqual({ insertId: 7, affected: 1 });
    expect(sent).toEqual(['INSERT INTO `parameters` (`name`) VALUES (?)']);
    expect(runner.data).toEqual({ writtenTables: new Set(['parameters']) });
  });
});
