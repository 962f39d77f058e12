import { Column, PrimaryColumn, PrimaryGeneratedColumn, type DataSource, type ValueTransformer } from 'typeorm';
import { dialectOf, type Dialect } from './dialect.js';

/**
 * The column vocabulary of every entity. Each decorator declares a type valid on both dialects; the few columns
 * whose best type differs (long text, blobs, case-insensitive collations) are marked here and given their
 * dialect's type by `adaptEntitiesToDialect` once a data source has built its metadata — so one entity serves
 * MySQL/MariaDB and SQLite, and this file and dialect.ts hold every dialect switch of the schema.
 *
 * Values keep the service's currencies: datetimes are `YYYY-MM-DD hh:mm:ss` UTC strings, dates `YYYY-MM-DD`,
 * booleans are stored as 0/1 and read as booleans, hours are numbers.
 */

type Marks = { longText: Set<string>; blob: Set<string>; caseInsensitive: Set<string> };
const marks = new WeakMap<object, Marks>();

function mark(kind: keyof Marks, target: object, property: string): void {
  const constructor = (target as { constructor: object }).constructor;
  let entry = marks.get(constructor);
  if (!entry) marks.set(constructor, (entry = { longText: new Set(), blob: new Set(), caseInsensitive: new Set() }));
  entry[kind].add(property);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A stored datetime as the service writes it: the driver hands back a Date (MySQL) or a UTC string (SQLite). */
const dateTimeText: ValueTransformer = {
  to: (value: string | null | undefined) => value,
  from: (value: Date | string | null) => {
    if (value === null || value === undefined || typeof value === 'string') return value;
    return `${value.getUTCFullYear()}-${pad2(value.getUTCMonth() + 1)}-${pad2(value.getUTCDate())} ` +
      `${pad2(value.getUTCHours())}:${pad2(value.getUTCMinutes())}:${pad2(value.getUTCSeconds())}`;
  },
};

const zeroOrOne: ValueTransformer = {
  to: (value: boolean | null | undefined) => (value === undefined || value === null ? value : value ? 1 : 0),
  from: (value: number | string | null) => (value === null ? null : Number(value) !== 0),
};

const numeric: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: number | string | null) => (value === null ? null : Number(value)),
};

/** The generated integer key `id`. */
export function IdColumn(): PropertyDecorator {
  return PrimaryGeneratedColumn({ type: 'int' });
}

export function IntColumn(options: { nullable?: boolean; default?: number; primary?: boolean } = {}): PropertyDecorator {
  if (options.primary) return PrimaryColumn({ type: 'int' });
  return Column({ type: 'int', nullable: !!options.nullable, default: options.default });
}

/** A 0/1 flag (`tinyint`), read as a boolean. */
export function BoolColumn(defaultValue: boolean): PropertyDecorator {
  return Column({ type: 'tinyint', default: defaultValue ? 1 : 0, transformer: zeroOrOne });
}

/** A short string compared case-insensitively (names, logins, field values). */
export function StringColumn(length: number, options: { nullable?: boolean; default?: string; primary?: boolean } = {}): PropertyDecorator {
  const decorate = options.primary
    ? PrimaryColumn({ type: 'varchar', length })
    : Column({ type: 'varchar', length, nullable: !!options.nullable, default: options.default });
  return (target, property) => {
    decorate(target, property);
    mark('caseInsensitive', target, property as string);
  };
}

/** Long text (comments, descriptions): MEDIUMTEXT on MySQL, where TEXT holds only 64 KiB. Never defaulted. */
export function LongTextColumn(options: { nullable?: boolean } = {}): PropertyDecorator {
  return (target, property) => {
    Column({ type: 'text', nullable: !!options.nullable })(target, property);
    mark('longText', target, property as string);
  };
}

/** Binary data: LONGBLOB on MySQL, BLOB on SQLite. */
export function BlobColumn(): PropertyDecorator {
  return (target, property) => {
    Column({ type: 'blob' })(target, property);
    mark('blob', target, property as string);
  };
}

/** `YYYY-MM-DD hh:mm:ss`, UTC. */
export function DateTimeColumn(options: { nullable?: boolean } = {}): PropertyDecorator {
  return Column({ type: 'datetime', nullable: !!options.nullable, transformer: dateTimeText });
}

/** `YYYY-MM-DD`, or null. */
export function DateColumn(): PropertyDecorator {
  return Column({ type: 'date', nullable: true });
}

/** Milliseconds since the epoch, as a double (exact to 2^53 ms): beyond an int, and no bigint strings to parse. */
export function MillisecondsColumn(): PropertyDecorator {
  return Column({ type: 'double', default: 0, transformer: numeric });
}

/** Hours of time tracking: DECIMAL(7,2), default 0. */
export function HoursColumn(): PropertyDecorator {
  return Column({ type: 'decimal', precision: 7, scale: 2, default: 0, transformer: numeric });
}

/**
 * TypeORM's drivers parse a datetime given as text in the process's local zone before writing it (SQLite then
 * stores `YYYY-MM-DD hh:mm:ss.SSS`). The service's datetimes are already `YYYY-MM-DD hh:mm:ss` UTC text, compared
 * as text (history's new_since, the loaded-bug stamps): text goes to the database unchanged, on both dialects.
 */
function keepDateTimeText(dataSource: DataSource): void {
  const driver = dataSource.driver;
  const prepare = driver.preparePersistentValue.bind(driver);
  driver.preparePersistentValue = (value, column) => (column.type === 'datetime' && typeof value === 'string' ? value : (prepare(value, column) as unknown));
}

/** The per-dialect types and collations of the marked columns (see the top of this file). */
export function adaptEntitiesToDialect(dataSource: DataSource): void {
  const dialect: Dialect = dialectOf(dataSource);
  keepDateTimeText(dataSource);
  for (const entity of dataSource.entityMetadatas) {
    const entry = typeof entity.target === 'function' ? marks.get(entity.target) : undefined;
    if (!entry) continue;
    for (const column of entity.columns) {
      const property = column.propertyName;
      if (dialect === 'mysql') {
        if (entry.longText.has(property)) Object.assign(column, { type: 'mediumtext', charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' });
        if (entry.blob.has(property)) column.type = 'longblob';
        if (entry.caseInsensitive.has(property)) Object.assign(column, { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' });
      } else if (entry.caseInsensitive.has(property)) {
        column.collation = 'NOCASE';
      }
    }
  }
}
