import { In, MoreThan, type DataSource, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { dataSourceOptions } from '../database/data-source-options.js';
import { openDataSource } from '../database/open-data-source.js';
import { deleteRows, insertRows, type NewRow } from '../database/entity-rows.js';
import { Attachment } from '../attachment/entities/attachment.entity.js';
import { AttachmentData } from '../attachment/entities/attachment-data.entity.js';
import { BugActivity } from '../bug/entities/bug-activity.entity.js';
import { BugAlias } from '../bug/entities/bug-alias.entity.js';
import { BugCc } from '../bug/entities/bug-cc.entity.js';
import { BugCustomValue } from '../bug/entities/bug-custom-value.entity.js';
import { BugDependency } from '../bug/entities/bug-dependency.entity.js';
import { BugDuplicate } from '../bug/entities/bug-duplicate.entity.js';
import { BugGroup } from '../bug/entities/bug-group.entity.js';
import { BugKeyword } from '../bug/entities/bug-keyword.entity.js';
import { BugLastVisit } from '../bug/entities/bug-last-visit.entity.js';
import { BugSeeAlso } from '../bug/entities/bug-see-also.entity.js';
import { BugTag } from '../bug/entities/bug-tag.entity.js';
import { Comment } from '../comment/entities/comment.entity.js';
import { CommentTag } from '../comment/entities/comment-tag.entity.js';
import { Flag } from '../flag/entities/flag.entity.js';
import { ENTITIES } from '../entities.js';
import { ChangeMark } from '../audit/entities/change-mark.entity.js';
import { Bug } from '../bug/entities/bug.entity.js';
import { User } from '../user/entities/user.entity.js';
import { Product } from '../product/entities/product.entity.js';
import { Parameter } from '../params/entities/parameter.entity.js';

/** What the target database holds before an import. */
export interface TargetState {
  users: number;
  bugs: number;
  products: number;
  /** Set once an import committed (the parameter IMPORTED_FROM). */
  importedFrom: string | undefined;
  /** The source's clock when that import read it (IMPORTED_AT): where --since-last starts. */
  importedAt: string | undefined;
  /**
   * The bugs Tracker itself changed since they were imported (each write moves a bug's revision; an import writes
   * revision 1) or filed (an id above IMPORTED_LAST_BUG).
   */
  bugsOfTracker: number;
}

/** The parameter an import leaves behind: a second run reads it and refuses. */
export const IMPORTED_FROM = 'tracker_imported_from';
export const IMPORTED_AT = 'tracker_imported_at';
/** The highest bug id the import wrote: a bug above it was filed in Tracker. */
export const IMPORTED_LAST_BUG = 'tracker_imported_last_bug';

/** Ids per DELETE. */
const CHUNK = 500;

/** The tables whose rows belong to one bug by its `bugId`. */
const BUG_ROWS: ReadonlyArray<EntityTarget<{ bugId: number }>> = [
  Comment, Attachment, Flag, BugActivity, BugAlias, BugCc, BugCustomValue, BugGroup, BugKeyword, BugLastVisit, BugSeeAlso, BugTag,
];

/** What one INSERT carries at most, roughly (MariaDB's max_allowed_packet is 16 MiB by default). */
const BYTES_PER_INSERT = 4 * 2 ** 20;

/** A row's size as an INSERT carries it, roughly: its texts and contents, 8 bytes for anything else. */
function sizeOf(row: object): number {
  let bytes = 0;
  for (const value of Object.values(row)) bytes += typeof value === 'string' ? value.length * 2 : Buffer.isBuffer(value) ? value.length * 2 : 8;
  return bytes;
}

/**
 * Tracker's database as an import writes it: its own data source (no application runs: nothing else writes), the
 * migrations applied, and every row written in one transaction (`write`), with the ids it is given. The import is
 * the composition root's: it writes every module's tables, as a fresh install does, but from another installation's
 * rows (docs/import.md says why it does not go through each module's services).
 */
export class ImportTargetRepository {
  private constructor(private readonly dataSource: DataSource) {}

  static async open(databaseUrl: string): Promise<ImportTargetRepository> {
    const dataSource = await openDataSource(dataSourceOptions(databaseUrl, ENTITIES));
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } catch (err) {
      await dataSource.destroy();
      throw err;
    }
    return new ImportTargetRepository(dataSource);
  }

  get dialect(): 'sqlite' | 'mysql' {
    return this.dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
  }

  async close(): Promise<void> {
    await this.dataSource.destroy();
  }

  async state(): Promise<TargetState> {
    const manager = this.dataSource.manager;
    const marker = await manager.getRepository(Parameter).findOneBy({ name: IMPORTED_FROM });
    const at = await manager.getRepository(Parameter).findOneBy({ name: IMPORTED_AT });
    const lastBug = await manager.getRepository(Parameter).findOneBy({ name: IMPORTED_LAST_BUG });
    const bugs = manager.getRepository(Bug);
    return {
      users: await manager.getRepository(User).count(),
      bugs: await manager.getRepository(Bug).count(),
      products: await manager.getRepository(Product).count(),
      importedFrom: marker?.value,
      importedAt: at?.value,
      bugsOfTracker: lastBug === null ? 0 : await bugs.count({ where: [{ revision: MoreThan(1) }, { id: MoreThan(Number(lastBug.value)) }] }),
    };
  }

  /** Every bug id the target holds. */
  async bugIds(): Promise<number[]> {
    return (await this.dataSource.manager.getRepository(Bug).find({ select: { id: true } })).map((b) => b.id);
  }

  /** Runs `work` in one transaction: everything it writes commits together, or nothing does. */
  write<T>(work: (writer: TargetWriter) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new TargetWriter(manager)));
  }
}

/** The writes of one import's transaction. */
export class TargetWriter {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Empties every table but the change marks: a freshly installed database holds the install's rows (its
   * administrator, groups, fields, test product, parameters), which the imported installation's replace.
   */
  async clearInstall(): Promise<void> {
    for (const entity of ENTITIES) {
      if (entity === ChangeMark) continue;
      await this.manager.getRepository(entity).createQueryBuilder().delete().execute();
    }
  }

  /** Empties the given tables (a delta import writes the settings again, whole). */
  async clear(entities: ReadonlyArray<EntityTarget<ObjectLiteral>>): Promise<void> {
    for (const entity of entities) await this.manager.getRepository(entity).createQueryBuilder().delete().execute();
  }

  /**
   * Deletes the given bugs with everything that is theirs (a delta import writes a changed bug again, whole): the
   * rows naming them as either end of a dependency or duplicate too.
   */
  async deleteBugs(ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    const commentIds = (await this.manager.getRepository(Comment).find({ select: { id: true }, where: { bugId: In([...ids]) } })).map((c) => c.id);
    const attachmentIds = (await this.manager.getRepository(Attachment).find({ select: { id: true }, where: { bugId: In([...ids]) } })).map((a) => a.id);
    for (let i = 0; i < commentIds.length; i += CHUNK) await deleteRows(this.manager.getRepository(CommentTag), { commentId: commentIds.slice(i, i + CHUNK) });
    for (let i = 0; i < attachmentIds.length; i += CHUNK) await deleteRows(this.manager.getRepository(AttachmentData), { attachmentId: attachmentIds.slice(i, i + CHUNK) });
    for (let i = 0; i < ids.length; i += CHUNK) {
      const some = ids.slice(i, i + CHUNK);
      for (const entity of BUG_ROWS) await deleteRows(this.manager.getRepository(entity), { bugId: some });
      await deleteRows(this.manager.getRepository(BugDependency), { blockedId: some });
      await deleteRows(this.manager.getRepository(BugDependency), { dependsOnId: some });
      await deleteRows(this.manager.getRepository(BugDuplicate), { dupeId: some });
      await deleteRows(this.manager.getRepository(BugDuplicate), { dupeOfId: some });
      await deleteRows(this.manager.getRepository(Bug), { id: some });
    }
  }

  /**
   * Inserts rows with the values given (ids included), in statements of at most 500 rows and about BYTES_PER_INSERT:
   * long comment texts must not make a statement larger than the server takes (max_allowed_packet). `large` (a
   * table of attachment contents): one row per statement.
   */
  async insert<T extends ObjectLiteral>(entity: EntityTarget<T>, rows: ReadonlyArray<NewRow<T>>, options: { large?: boolean } = {}): Promise<void> {
    const repository = this.manager.getRepository(entity);
    let start = 0;
    let bytes = 0;
    for (let i = 0; i < rows.length; i++) {
      bytes += sizeOf(rows[i]);
      if (options.large || bytes >= BYTES_PER_INSERT || i === rows.length - 1) {
        await insertRows(repository, rows.slice(start, i + 1));
        start = i + 1;
        bytes = 0;
      }
    }
  }
}
