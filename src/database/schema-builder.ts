import { Table, TableIndex, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { columnTypes, dialectOf, type Dialect } from './dialect.js';

/**
 * A small vocabulary for portable migrations: each helper returns TypeORM column options valid on MySQL/MariaDB
 * and SQLite alike, so one migration serves both dialects (see docs/decisions.md).
 */
export class SchemaBuilder {
  readonly dialect: Dialect;
  private readonly types: ReturnType<typeof columnTypes>;

  constructor(private readonly queryRunner: QueryRunner) {
    this.dialect = dialectOf(queryRunner);
    this.types = columnTypes(this.dialect);
  }

  id(name = 'id'): TableColumnOptions {
    return { name, type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
  }
  int(name: string, opts: { nullable?: boolean; default?: number; primary?: boolean } = {}): TableColumnOptions {
    return { name, type: this.types.int, isNullable: !!opts.nullable, default: opts.default, isPrimary: !!opts.primary };
  }
  bool(name: string, defaultValue: boolean): TableColumnOptions {
    return { name, type: this.types.bool, isNullable: false, default: defaultValue ? 1 : 0 };
  }
  /** A short string compared case-insensitively (names, logins, field values). */
  str(name: string, length: number, opts: { nullable?: boolean; default?: string; primary?: boolean } = {}): TableColumnOptions {
    return {
      name,
      type: 'varchar',
      length: String(length),
      isNullable: !!opts.nullable,
      default: opts.default === undefined ? undefined : `'${opts.default.replace(/'/g, "''")}'`,
      isPrimary: !!opts.primary,
      collation: this.types.ciCollation,
      ...(this.dialect === 'mysql' ? { charset: 'utf8mb4' } : {}),
    };
  }
  /** Long text (comments, descriptions): never defaulted, the application always writes it. */
  text(name: string, opts: { nullable?: boolean } = {}): TableColumnOptions {
    return {
      name,
      type: this.types.longText,
      isNullable: !!opts.nullable,
      ...(this.dialect === 'mysql' ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } : {}),
    };
  }
  blob(name: string): TableColumnOptions {
    return { name, type: this.types.blob, isNullable: false };
  }
  datetime(name: string, opts: { nullable?: boolean } = {}): TableColumnOptions {
    return { name, type: 'datetime', isNullable: !!opts.nullable };
  }
  date(name: string): TableColumnOptions {
    return { name, type: 'date', isNullable: true };
  }
  hours(name: string): TableColumnOptions {
    return { name, type: 'decimal', precision: 7, scale: 2, isNullable: false, default: 0 };
  }

  async createTable(
    name: string,
    columns: TableColumnOptions[],
    indices: Array<{ columns: string[]; unique?: boolean }> = [],
  ): Promise<void> {
    const table = new Table({
      name,
      columns,
      indices: indices.map(
        (i) => new TableIndex({ name: `${i.unique ? 'uq' : 'ix'}_${name}_${i.columns.join('_')}`, columnNames: i.columns, isUnique: !!i.unique }),
      ),
      ...(this.dialect === 'mysql' ? { engine: 'InnoDB' } : {}),
    });
    await this.queryRunner.createTable(table, true);
  }
}
