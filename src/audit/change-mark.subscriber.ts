import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  DataSource,
  type EntitySubscriberInterface,
  type InsertEvent,
  type RemoveEvent,
  type QueryRunner,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
  type UpdateEvent,
} from 'typeorm';
import { Sql } from '../database/sql.js';
import { dialectOf } from '../database/dialect.js';
import { forgetWrittenTables, noteWrittenTable, WriteOutsideTransaction, writtenTables } from '../database/written-tables.js';
import { leavesSettingsAlone } from '../database/activity-table.js';
import { SettingsMarkService } from './store/settings-mark.service.js';

/**
 * Moves the settings mark (settingsMarkSql) for every transaction that wrote a settings table (one not marked
 * @ActivityTable), or a table that is part of a bug without touching the bug (ActivityTable's `partOf`), so values
 * kept under the mark (parameters, callers, the catalogue, loaded bugs) can never outlive such a change, whoever
 * made it and however. Entity writes (repositories and query builders) are noted here from TypeORM's events, raw
 * writes by Sql.run. A write outside a transaction would move no mark: it is refused here (and in Sql.run).
 */
@Injectable()
export class ChangeMarkSubscriber implements EntitySubscriberInterface, OnModuleInit, OnModuleDestroy {
  constructor(private readonly dataSource: DataSource, private readonly marks: SettingsMarkService) {}

  onModuleInit(): void {
    this.dataSource.subscribers.push(this);
  }

  onModuleDestroy(): void {
    const subscribers = this.dataSource.subscribers;
    const index = subscribers.indexOf(this);
    if (index >= 0) subscribers.splice(index, 1);
  }

  beforeInsert(event: InsertEvent<unknown>): void {
    refuseOutsideTransaction(event.queryRunner, event.metadata.tableName);
  }

  beforeUpdate(event: UpdateEvent<unknown>): void {
    refuseOutsideTransaction(event.queryRunner, event.metadata.tableName);
  }

  beforeRemove(event: RemoveEvent<unknown>): void {
    refuseOutsideTransaction(event.queryRunner, event.metadata.tableName);
  }

  afterInsert(event: InsertEvent<unknown>): void {
    noteWrittenTable(event.queryRunner, event.metadata.tableName);
  }

  afterUpdate(event: UpdateEvent<unknown>): void {
    noteWrittenTable(event.queryRunner, event.metadata.tableName);
  }

  afterRemove(event: RemoveEvent<unknown>): void {
    noteWrittenTable(event.queryRunner, event.metadata.tableName);
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const tables = writtenTables(event.queryRunner);
    if (!tables.size) return;
    if (!leavesSettingsAlone(this.dataSource, tables)) {
      await this.marks.moveSettingsMark(new Sql(event.manager, dialectOf(this.dataSource)));
      noteOf(event.queryRunner).movedSettingsMark = true;
    }
    // The mark's own write was noted too: this transaction has nothing left to mark.
    forgetWrittenTables(event.queryRunner);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const note = noteOf(event.queryRunner);
    if (note.movedSettingsMark) this.marks.settingsMoveCommitted();
    delete note.movedSettingsMark;
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    // A rolled-back savepoint leaves the outer transaction's writes in place: keep their note until it ends.
    if (event.queryRunner.isTransactionActive) return;
    forgetWrittenTables(event.queryRunner);
    delete noteOf(event.queryRunner).movedSettingsMark;
  }
}

/** A write outside a transaction could not move the settings mark: every instance would keep stale settings. */
function refuseOutsideTransaction(runner: QueryRunner, table: string): void {
  if (!runner.isTransactionActive) throw new WriteOutsideTransaction(table);
}

/** Whether the runner's transaction moved the settings mark: noted before its COMMIT, told once it committed. */
function noteOf(runner: QueryRunner): { movedSettingsMark?: boolean } {
  return runner.data;
}
