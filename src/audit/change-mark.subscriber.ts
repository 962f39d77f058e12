import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  DataSource,
  type EntitySubscriberInterface,
  type InsertEvent,
  type RemoveEvent,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
  type UpdateEvent,
} from 'typeorm';
import { Sql } from '../database/sql.js';
import { dialectOf } from '../database/dialect.js';
import { forgetWrittenTables, noteWrittenTable, writtenTables } from '../database/written-tables.js';
import { isActivityTable } from '../database/activity-table.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { Clock } from '../common/time/clock.js';
import { AuditLogEntry } from './entities/audit-log-entry.entity.js';
import { AuditService } from './audit.service.js';
import { CHANGE_MARK_CLASS } from './audit.repository.js';

/**
 * Moves the audit mark (auditMarkSql) for every transaction that wrote anything, so values kept under the mark
 * (parameters, callers, loaded bugs) can never outlive a change, whoever made it and however. Entity writes
 * (repositories and query builders) are noted here from TypeORM's events, raw writes by Sql.run; before the
 * commit, a transaction that changed something but wrote no audit row of its own gets one of class
 * Tracker::Change naming the tables it wrote. A transaction that wrote a settings table (one not marked
 * @ActivityTable) also moves the settings mark (settingsMarkSql).
 */
@Injectable()
export class ChangeMarkSubscriber implements EntitySubscriberInterface, OnModuleInit, OnModuleDestroy {
  constructor(private readonly dataSource: DataSource, private readonly audit: AuditService, private readonly clock: Clock) {}

  onModuleInit(): void {
    this.dataSource.subscribers.push(this);
  }

  onModuleDestroy(): void {
    const subscribers = this.dataSource.subscribers;
    const index = subscribers.indexOf(this);
    if (index >= 0) subscribers.splice(index, 1);
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
    const tables = [...writtenTables(event.queryRunner)];
    if (!tables.length) return;
    const tx = new Sql(event.manager, dialectOf(this.dataSource));
    if (tables.some((table) => !isActivityTable(this.dataSource, table))) await this.audit.moveSettingsMark(tx);
    if (!tables.includes(this.dataSource.getMetadata(AuditLogEntry).tableName)) {
      await this.audit.record(tx, {
        userId: null, className: CHANGE_MARK_CLASS, objectId: 0, field: 'tables', added: tables.sort().join(', '), at: toDbDateTime(this.clock.now()),
      });
    }
    // The marks' own writes were noted too: this transaction has nothing left to mark.
    forgetWrittenTables(event.queryRunner);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    // A rolled-back savepoint leaves the outer transaction's writes in place: keep their note until it ends.
    if (!event.queryRunner.isTransactionActive) forgetWrittenTables(event.queryRunner);
  }
}
