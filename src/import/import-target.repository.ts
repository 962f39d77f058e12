import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { dataSourceOptions } from '../database/data-source-options.js';
import { openDataSource } from '../database/open-data-source.js';
import { insertRows, type NewRow } from '../database/entity-rows.js';
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
}

/** The parameter an import leaves behind: a second run reads it and refuses. */
export const IMPORTED_FROM = 'tracker_imported_from';

/** Rows per INSERT for tables whose rows may be large (attachment contents): one. */
const LARGE_ROWS = 1;

/**
 * Tracker's database as an import writes it: its own data source (no application runs: nothing else writes), the
 * migrations applied, and every row written in one transaction (`write`), with the ids it is given. The import is
 * the composition root's: it writes every module's tables, as a fresh install does, but from another installation's
 * rows (docs/import.md says why it does not go through each module's services).
 */
export class ImportTargetRepository {
  private constructor(private readonly dataSource: DataSource) {}

  static async open(databaseUrl: string): Promise<ImportTargetRepository> {
    const dataSource = await openDataSource(dataSourceOptions(databaseUrl, [], ENTITIES));
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
    return {
      users: await manager.getRepository(User).count(),
      bugs: await manager.getRepository(Bug).count(),
      products: await manager.getRepository(Product).count(),
      importedFrom: marker?.value,
    };
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

  /** Inserts rows with the values given (ids included). */
  async insert<T extends ObjectLiteral>(entity: EntityTarget<T>, rows: ReadonlyArray<NewRow<T>>, options: { large?: boolean } = {}): Promise<void> {
    if (!rows.length) return;
    const repository = this.manager.getRepository(entity);
    if (!options.large) {
      await insertRows(repository, rows);
      return;
    }
    for (let i = 0; i < rows.length; i += LARGE_ROWS) await insertRows(repository, rows.slice(i, i + LARGE_ROWS));
  }
}
