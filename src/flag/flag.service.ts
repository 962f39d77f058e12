import { Injectable } from '@nestjs/common';
import type { Sql, ReadSql } from '../database/sql.js';
import { FlagRepository, type StoredFlag } from './flag.repository.js';

export type { StoredFlag };

/** What a flag is set on: a bug, or (with `attachmentId`) one of its attachments. */
export interface FlagHolder {
  bugId: number;
  attachmentId: number | null;
}

/** A flag to set on a bug or one of its attachments: its type, status and who is asked (for a request). */
export interface NewBugFlag {
  typeId: number;
  status: string;
  requesteeId: number | null;
}

/**
 * The flags table. Which flags a bug gets, and who may set them, is a bug rule (src/bug-rules/flags.ts); this writes
 * what it decided, in the caller's transaction.
 */
@Injectable()
export class FlagService {
  constructor(private readonly store: FlagRepository) {}

  /**
   * Flags set on a bug (`attachmentId` null) or on one of its attachments by `setterId` at `at`, in one INSERT (no
   * read-back of generated values).
   */
  async addBugFlags(tx: Sql, target: FlagHolder, flags: readonly NewBugFlag[], setterId: number, at: string): Promise<void> {
    if (!flags.length) return;
    await this.store.insert(tx, flags.map((f) => ({
      typeId: f.typeId, status: f.status, bugId: target.bugId, attachmentId: target.attachmentId, creationDate: at, modificationDate: at,
      setterId, requesteeId: f.requesteeId,
    })));
  }

  /** The flags of some attachments (one query), oldest first, with their type names; people as user ids. */
  attachmentFlags(sql: ReadSql, attachmentIds: readonly number[]): Promise<StoredFlag[]> {
    return attachmentIds.length ? this.store.ofAttachments(sql, [...new Set(attachmentIds)]) : Promise.resolve([]);
  }

  /** A new status and requestee; the setter changes only when `setterId` is given (a request kept keeps its setter). */
  async changeFlag(tx: Sql, id: number, change: { status: string; requesteeId: number | null; at: string; setterId?: number }): Promise<void> {
    await this.store.update(tx, id, {
      status: change.status,
      requesteeId: change.requesteeId,
      modificationDate: change.at,
      ...(change.setterId !== undefined ? { setterId: change.setterId } : {}),
    });
  }

  async deleteFlags(tx: Sql, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await this.store.delete(tx, ids);
  }
}
