import { AsyncLocalStorage } from 'node:async_hooks';
import { fenceOf, run, type Fence, type MysqlPool, type Replica, type ReplicaSet } from './replicas.js';

/**
 * What one request may read from a replica (docs/replicas.md). Only a GET or HEAD request has a scope; everything
 * else — writes and the checks before them, the outbox workers, the start — reads the primary. Within a scope:
 * the request's first read goes to the primary and brings the primary's GTID position back with it (the fence);
 * every later read goes to a replica that has applied the fence — so it sees whatever was committed anywhere before
 * the request began, its caller's own writes and every access change included — or to the primary. Once the request
 * writes, it reads the primary to its end.
 */
export class ReadScope {
  /** The primary's position at the request's first read; pending while that read is under way. */
  fence?: Fence | 'pending';
  /** The replica this request reads, once one was chosen and found to have reached the fence. */
  replica?: Replica;
  /** Set when the request wrote, or its replica could not reach the fence in time: the primary from then on. */
  primaryOnly = false;
}

const scopes = new AsyncLocalStorage<ReadScope>();

/**
 * The Fastify `onRequest` hook that gives a GET or HEAD request its scope (app.factory installs it). The scope lives
 * in the async context of everything the request runs after the hook; a continuation that loses it (a body parsed on
 * the socket's events) reads the primary, never a replica.
 */
export function readScopeHook(request: { method: string }, _reply: unknown, done: () => void): void {
  if (request.method === 'GET' || request.method === 'HEAD') scopes.run(new ReadScope(), done);
  else done();
}

/** The request under way writes: its later reads must see that write, so they go to the primary. */
export function readPrimaryFromNowOn(): void {
  const scope = scopes.getStore();
  if (scope) scope.primaryOnly = true;
}

/** How a read is sent: its rows. */
export type Send = (sql: string, parameters: unknown[]) => Promise<unknown>;

/**
 * Reads outside transactions with read replicas (docs/replicas.md): outside a GET's ReadScope, or once it wrote, on
 * the primary (`primary`); a scope's first read on the primary's pool with the primary's GTID position read by the
 * same statement (withFence), which is the request's fence; its later reads on a replica that has applied the fence
 * (ReplicaSet.next, Replica.reached), prepared when `prepared`. A read the replica fails goes to the primary; if it
 * succeeds there, the replica is out until its next probe.
 */
export function routedReads(pool: MysqlPool, primary: Send, replicas: ReplicaSet, prepared: boolean): Send {
  return async (sql, params) => {
    const scope = scopes.getStore();
    if (!scope || scope.primaryOnly || scope.fence === 'pending') return primary(sql, params);
    if (!scope.fence) {
      if (!replicas.next()) return primary(sql, params);
      scope.fence = 'pending';
      try {
        const { rows, fence } = await withFence(pool, sql, params, prepared);
        scope.fence = fence;
        return rows;
      } catch {
        // Its own failure, the primary's: the plain read meets it again (and is tried again on a dead connection).
        scope.fence = undefined;
        return primary(sql, params);
      }
    }
    const replica = await replicaFor(scope, scope.fence, replicas);
    if (!replica) return primary(sql, params);
    try {
      return await replica.read(sql, params, prepared);
    } catch (error) {
      const rows = await primary(sql, params);
      replica.failed(error);
      scope.replica = undefined;
      return rows;
    }
  };
}

/** A plain SELECT, whose select list can take one more column first: no modifier before its list, no UNION. */
const TAKES_A_COLUMN = /^\s*SELECT\s+(?!(?:ALL|DISTINCT|DISTINCTROW|HIGH_PRIORITY|STRAIGHT_JOIN|SQL_\w+)\b)/i;
const FENCE_COLUMN = '@@gtid_binlog_pos AS `tracker_fence`';

/**
 * Runs a scope's first read on the primary and reads the primary's GTID position with it, in the same statement: a
 * plain SELECT takes it as its first column (prepared, as every read: the credential statement of a kept Get Bug stays
 * one prepared statement), removed from the rows it answers; any other read is followed by `SELECT @@gtid_binlog_pos`
 * in one multi-statement text query. A SELECT that found no row brings no position: the next read asks again.
 */
async function withFence(pool: MysqlPool, sql: string, params: unknown[], prepared: boolean): Promise<{ rows: unknown; fence?: Fence }> {
  if (TAKES_A_COLUMN.test(sql) && !/\bUNION\b/i.test(sql)) {
    const rows = (await run(pool, sql.replace(/^\s*SELECT\s+/i, `SELECT ${FENCE_COLUMN}, `), params, prepared)) as Array<{ tracker_fence?: string | null }>;
    const fence = rows.length ? fenceOf(rows[0].tracker_fence) : undefined;
    for (const row of rows) delete row.tracker_fence;
    return { rows, fence };
  }
  const [rows, [position]] = (await run(pool, `${sql};\nSELECT ${FENCE_COLUMN}`, params, false)) as [unknown, Array<{ tracker_fence: string | null }>];
  return { rows, fence: fenceOf(position.tracker_fence) };
}

/** The replica a scope reads, once it has reached the scope's fence; none (and the primary from now on) otherwise. */
async function replicaFor(scope: ReadScope, fence: Fence, replicas: ReplicaSet): Promise<Replica | undefined> {
  if (scope.replica?.inRotation) return scope.replica;
  const replica = replicas.next();
  if (!replica) return undefined;
  if (!(await replica.reached(fence, replicas.waitMs))) {
    scope.primaryOnly = true;
    return undefined;
  }
  scope.replica = replica;
  return replica;
}
