import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Sql } from '../database/sql.js';
import { Flag } from './entities/flag.entity.js';

/** The columns of a new flag (the generated id and the relations aside). */
export type NewFlag = Omit<Flag, 'id' | 'type' | 'setter' | 'requestee'>;

/** The columns a change of a flag sets. */
export type FlagChanges = Partial<Pick<Flag, 'status' | 'requesteeId' | 'modificationDate' | 'setterId'>>;

/** The flags table. */
@Injectable()
export class FlagRepository {
  /** One INSERT for all the rows, without reading generated values back. */
  async insert(tx: Sql, flags: readonly NewFlag[]): Promise<void> {
    await tx.repository(Flag).createQueryBuilder().insert().values([...flags]).updateEntity(false).execute();
  }

  async update(tx: Sql, id: number, changes: FlagChanges): Promise<void> {
    await tx.repository(Flag).update({ id }, changes);
  }

  async delete(tx: Sql, ids: readonly number[]): Promise<void> {
    await tx.repository(Flag).delete({ id: In([...ids]) });
  }
}
