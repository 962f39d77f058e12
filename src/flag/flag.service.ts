import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { FlagRepository } from './flag.repository.js';

/** A flag to set on a bug: its type, status and who is asked (for a request). */
export interface NewBugFlag {
  typeId: number;
  status: string;
  requesteeId: number | null;
}

/**
 * The flags table. Which flags a bug gets, and who may set them, is the bug module's rule (src/bug/rules/flags.ts);
 * this writes what it decided, in the caller's transaction.
 */
@Injectable()
export class FlagService {
  constructor(private readonly store: FlagRepository) {}

  /** Flags set on a bug by `setterId` at `at`, in one INSERT (no read-back of generated values). */
  async addBugFlags(tx: Sql, bugId: number, flags: readonly NewBugFlag[], setterId: number, at: string): Promise<void> {
    if (!flags.length) return;
    await this.store.insert(tx, flags.map((f) => ({
      typeId: f.typeId, status: f.status, bugId, attachmentId: null, creationDate: at, modificationDate: at, setterId, requesteeId: f.requesteeId,
    })));
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
