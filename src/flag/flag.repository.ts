import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Sql, ReadSql } from '../database/sql.js';
import { Flag } from './entities/flag.entity.js';

/** The columns of a new flag (the generated id and the relations aside). */
export type NewFlag = Omit<Flag, 'id' | 'type' | 'setter' | 'requestee'>;

/** The columns a change of a flag sets. */
export type FlagChanges = Partial<Pick<Flag, 'status' | 'requesteeId' | 'modificationDate' | 'setterId'>>;

/** A stored flag with its type's name (the setter and requestee as user ids: the caller names them). */
export interface StoredFlag {
  id: number;
  typeId: number;
  name: string;
  status: string;
  bugId: number;
  attachmentId: number | null;
  setterId: number;
  requesteeId: number | null;
  creationDate: string;
  modificationDate: string;
}

/** The flags table. */
@Injectable()
export class FlagRepository {
  /** One INSERT for all the rows, without reading generated values back. */
  async insert(tx: Sql, flags: readonly NewFlag[]): Promise<void> {
    await tx.repository(Flag).createQueryBuilder().insert().values([...flags]).updateEntity(false).execute();
  }

  /** One query joined to the flag types, oldest first. */
  async ofAttachments(sql: ReadSql, attachmentIds: readonly number[]): Promise<StoredFlag[]> {
    const flags = await sql.repository(Flag).find({ relations: { type: true }, where: { attachmentId: In([...attachmentIds]) }, order: { id: 'ASC' } });
    return flags.map(({ type, setter: _setter, requestee: _requestee, ...flag }) => ({ ...flag, name: type!.name }));
  }

  async update(tx: Sql, id: number, changes: FlagChanges): Promise<void> {
    await tx.repository(Flag).update({ id }, changes);
  }

  async delete(tx: Sql, ids: readonly number[]): Promise<void> {
    await tx.repository(Flag).delete({ id: In([...ids]) });
  }
}
