import type { Caller } from '../caller.js';
import type { RequestParams } from './request-params.js';

/**
 * A companion read's part of the credential's statement: columns, all named `c_…`, from one table joined on a
 * condition (`LEFT JOIN <table> ON <on>`), so that the database reads it as one flat join, not a derived table (issue
 * 13: a derived table cost MariaDB about a fifth of the statement). Bound values come in two lists because they sit
 * in two places: the select list and the join. The table's alias must not be one the credential statements use
 * (k, t, m). Values are the database's SqlValue, restated here: common knows no database.
 */
export interface CompanionStatement {
  /** `b.id AS c_id, …` */
  columns: string;
  columnParams: Array<string | number | boolean | null | Buffer>;
  /** One table with its alias: `` `bugs` b ``. */
  table: string;
  /** The join condition: `` `b`.`id` IN (?, ?) ``. */
  on: string;
  onParams: Array<string | number | boolean | null | Buffer>;
}

/** What a companion read may look at: the route's path parameters and the request's merged parameters. */
export interface CompanionRequest {
  path: Readonly<Record<string, string>>;
  params: RequestParams;
}

/** One request's companion read: the subquery, and how its rows become the route's value. */
export interface CompanionPlan<T> {
  /** Its columns and table, joined to the credential's statement (they sit beside the credential's columns in one row). */
  statement: CompanionStatement;
  /** The value from the subquery's rows (none when it found nothing). */
  read(rows: ReadonlyArray<Record<string, unknown>>): T;
}

/**
 * A read a route sends in the same statement as its caller's credential check (issue 13: a warm read of a kept
 * answer costs one round trip to the database). The request hook asks the route's companion for a plan, made for
 * the caller the same credential named on this instance before (kept by the caller resolver); the resolver joins
 * the plan's subquery to the credential's statement and hands the value on only if the credential still names that
 * very caller under the same settings mark — so the value was read for exactly the request's caller. Otherwise the
 * value is dropped and the route reads for itself, as it does when there is no companion.
 */
export interface CompanionRead<T> {
  /** The plan for this request and caller, or undefined when the request is not one the companion serves. */
  plan(request: CompanionRequest, caller: Caller): CompanionPlan<T> | undefined;
}

/** The Fastify route config key under which a route names its companion read (`companion` in fast-paths.ts). */
export const COMPANION_READ = 'trackerCompanionRead';

/** A companion read's provider class; the request hook takes its instance from the application. */
export type CompanionReadType<T = unknown> = abstract new (...args: never[]) => CompanionRead<T>;

/** The companion's value the caller resolver found for this request, if the route's companion is `read`. */
export interface CompanionFound {
  read: CompanionRead<unknown>;
  value: unknown;
}

/** The value the request's companion read found, if that companion is of `type`. */
export function companionValue<T>(found: CompanionFound | undefined, type: CompanionReadType<T>): T | undefined {
  return found?.read instanceof type ? (found.value as T) : undefined;
}
