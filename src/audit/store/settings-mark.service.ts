import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.service.js';
import type { Row, Sql } from '../../database/sql.js';
import type { CompanionStatement } from '../../common/http/companion-read.js';
import { SettingsMarkRepository } from './settings-mark.repository.js';

export { settingsMarkSql } from './settings-mark.repository.js';

/**
 * The settings mark (settingsMarkSql): read with the caller's credential or on its own, moved by every transaction
 * that wrote settings (ChangeMarkSubscriber), and how many such moves this instance committed.
 */
@Injectable()
export class SettingsMarkService {
  private settingsMovesCommitted = 0;

  constructor(private readonly db: Db, private readonly marks: SettingsMarkRepository) {}

  /**
   * The settings mark read on its own, for a request without a credential to read it with; with a companion read,
   * its rows in the same statement (CallerResolverService).
   */
  settingsMark(companion?: CompanionStatement): Promise<{ mark: number; companionRows: Row[] }> {
    return this.marks.settingsMark(this.db.read, companion);
  }

  /** Moves the settings mark (ChangeMarkSubscriber, for a transaction that wrote settings). */
  moveSettingsMark(tx: Sql): Promise<void> {
    return this.marks.moveSettingsMark(tx);
  }

  /** Called by ChangeMarkSubscriber once a transaction of this instance that moved the settings mark committed. */
  settingsMoveCommitted(): void {
    this.settingsMovesCommitted++;
  }

  /**
   * How many moves of the settings mark this instance has committed: a mark read before the count last changed may
   * be stale, though no read of the mark says so yet (a presumed caller is not presumed under it: PresumedCaller).
   */
  settingsMovesCommittedHere(): number {
    return this.settingsMovesCommitted;
  }
}
