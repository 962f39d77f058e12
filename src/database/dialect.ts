import type { DataSource, QueryRunner } from 'typeorm';

/** The two database families the service runs on. Every dialect switch of the code base lives here. */
export type Dialect = 'mysql' | 'sqlite';

export function dialectOf(source: DataSource | QueryRunner): Dialect {
  const type = ('connection' in source ? source.connection : source).options.type;
  return type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite';
}

/** Column types that differ between the dialects (MySQL TEXT holds only 64 KiB bytes; comments need more). */
export function columnTypes(dialect: Dialect) {
  return dialect === 'mysql'
    ? { longText: 'mediumtext', blob: 'longblob', bool: 'tinyint', int: 'int', ciCollation: 'utf8mb4_unicode_ci' }
    : { longText: 'text', blob: 'blob', bool: 'tinyint', int: 'integer', ciCollation: 'NOCASE' };
}

/** `a || b` string concatenation: MySQL's `||` is OR unless PIPES_AS_CONCAT. */
export function concatSql(dialect: Dialect, ...parts: string[]): string {
  return dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : parts.join(' || ');
}

/** A case-insensitive LIKE on both dialects (columns are created with case-insensitive collations). */
export function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
