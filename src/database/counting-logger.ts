import type { Logger } from 'typeorm';

/**
 * Counts the statements the service sends, for tests that prove batching (a page of bugs costs a constant number
 * of queries, never one per row). A plain number: reading it is only meaningful while one request runs.
 */
export const queryCounter = { count: 0 };

/** TypeORM's logger: counts every statement and prints only TypeORM's own warnings. */
export class CountingLogger implements Logger {
  logQuery(): void {
    queryCounter.count++;
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') console.warn(message);
  }
}
