import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { covers, furthest, parseGtidPosition, type GtidPosition } from './gtid.js';
import { serverLocation } from './data-source-options.js';
import type { ReplicaSettings } from '../config/app-config.js';

const log = new Logger('Replicas');

type Done = (err: Error | null, rows: unknown) => void;
/** A mysql2 pool as the service uses it (its own, not TypeORM's PoolCluster, which drops a failing node for good). */
export interface MysqlPool {
  execute(sql: string, params: unknown[], done: Done): void;
  query(options: string | { sql: string; timeout?: number }, params: unknown[], done: Done): void;
  on(event: 'connection', listener: (connection: ErrorSource) => void): void;
  end(done: (err?: Error) => void): void;
}
interface ErrorSource {
  on(event: 'error', listener: (error: Error) => void): void;
}

/**
 * Keeps a pool's connections from crashing the process: mysql2 emits 'error' on a connection that breaks while no
 * command waits on it (a server killed or restarted), and an 'error' event nobody listens to is thrown. The pool
 * itself drops such a connection and opens a new one when asked.
 */
export function guardConnectionErrors(pool: MysqlPool, name: string): void {
  const listen = (connection: ErrorSource) => connection.on('error', (error) => log.warn(`${name}: a connection broke: ${error.message}`));
  pool.on('connection', listen);
  for (const connection of (pool as { _allConnections?: { toArray?: () => ErrorSource[] } })._allConnections?.toArray?.() ?? []) listen(connection);
}

export function run(pool: MysqlPool, sql: string | { sql: string; timeout?: number }, params: unknown[], prepared: boolean): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const done: Done = (err, rows) => (err ? reject(err) : resolve(rows));
    if (prepared && typeof sql === 'string') pool.execute(sql, params, done);
    else pool.query(sql, params, done);
  });
}

/** The primary's position when a request began: MASTER_GTID_WAIT takes its text. */
export interface Fence {
  readonly text: string;
  readonly position: GtidPosition;
}

export function fenceOf(text: string | null | undefined): Fence {
  return { text: text ?? '', position: parseGtidPosition(text) };
}

/** What one probe of a replica found. */
export type Probe = { answered: true; position: GtidPosition; replicating: boolean } | { answered: false; error: string };

/** Whether a replica serves reads, and why not. */
export type Rotation = { in: true } | { in: false; reason: string };

/**
 * The rotation rule: a replica serves reads while it answers, applies what the primary writes (its replication
 * threads run) and is no further than `maxLagMs` behind. Freshness itself never rests on this: every read waits for
 * its request's fence (Replica.reached); the rule only spares requests the wait for a replica that cannot make it.
 */
export function rotationOf(probe: Probe, lagMs: number, maxLagMs: number): Rotation {
  if (!probe.answered) return { in: false, reason: `unreachable: ${probe.error}` };
  if (!probe.replicating) return { in: false, reason: 'its replication is stopped (SLAVE_RUNNING is OFF)' };
  if (lagMs > maxLagMs) return { in: false, reason: `${seconds(lagMs)} s behind the primary (TRACKER_REPLICA_MAX_LAG_S is ${seconds(maxLagMs)})` };
  return { in: true };
}

/** The primary's position as the probe saw it, from when it was first seen. */
export interface Sample {
  readonly at: number;
  readonly position: GtidPosition;
}

/**
 * How far behind a replica at `reached` is, in ms: since the oldest primary position it does not cover was first
 * seen (it was written then or before), 0 when it covers them all. The samples are in order and each moves on from
 * the one before.
 */
export function lagOf(samples: readonly Sample[], reached: GtidPosition, now: number): number {
  const missing = samples.find((sample) => !covers(reached, sample.position));
  return missing ? Math.max(0, now - missing.at) : 0;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

/** A replica as /health/ready reports it. */
export interface ReplicaState {
  replica: string;
  in_rotation: boolean;
  lag_s: number | null;
  reason?: string;
}

/** One read replica: its own pool, what the probe last saw, and the position it is known to have reached. */
export class Replica {
  private position: GtidPosition = new Map();
  private rotation: Rotation = { in: false, reason: 'not probed yet' };
  private lagMs: number | null = null;
  /** MASTER_GTID_WAITs under way; a request whose fence one of them covers joins it. */
  private readonly waits: Array<{ wanted: GtidPosition; reached: Promise<boolean> }> = [];

  constructor(readonly name: string, private readonly pool: MysqlPool) {
    guardConnectionErrors(pool, name);
  }

  get inRotation(): boolean {
    return this.rotation.in;
  }

  state(): ReplicaState {
    return {
      replica: this.name, in_rotation: this.rotation.in, lag_s: this.lagMs === null ? null : Number(seconds(this.lagMs)),
      ...(this.rotation.in ? {} : { reason: this.rotation.reason }),
    };
  }

  read(sql: string, params: unknown[], prepared: boolean): Promise<unknown> {
    return run(this.pool, sql, params, prepared);
  }

  /** What the probe asks: where the replica is, and whether it applies what the primary writes. */
  async probe(timeoutMs: number): Promise<Probe> {
    try {
      const [row] = (await run(this.pool, { sql: REPLICA_PROBE, timeout: timeoutMs }, [], false)) as Array<{ pos: string | null; running: string | null }>;
      return { answered: true, position: parseGtidPosition(row.pos), replicating: row.running === 'ON' };
    } catch (error) {
      return { answered: false, error: (error as Error).message };
    }
  }

  /** The probe's outcome: the rotation it decides, the position the replica reported. */
  settle(probe: Probe, lagMs: number | null, rotation: Rotation): void {
    const was = this.rotation;
    this.rotation = rotation;
    this.lagMs = lagMs;
    if (probe.answered) this.position = probe.position;
    if (was.in !== rotation.in) {
      if (rotation.in) log.log(`${this.name} is back in rotation`);
      else log.warn(`${this.name} is out of rotation: ${rotation.reason}`);
    }
  }

  /** Out of rotation until the next probe says otherwise: a read failed here and succeeded on the primary. */
  failed(error: unknown): void {
    if (!this.rotation.in) return;
    this.rotation = { in: false, reason: `a read failed: ${(error as Error).message}` };
    log.warn(`${this.name} is out of rotation: ${this.rotation.reason}`);
  }

  /**
   * Whether the replica has applied everything up to `fence`, waiting up to `waitMs` for it (MASTER_GTID_WAIT). Not
   * waited for when the replica is known to be past it, nor when it was last seen further behind than the wait: the
   * request then reads the primary. A wait that times out marks it that far behind until the next probe, so the
   * following requests do not wait in vain.
   */
  async reached(fence: Fence, waitMs: number): Promise<boolean> {
    if (covers(this.position, fence.position)) return true;
    if (waitMs === 0 || (this.lagMs ?? 0) > waitMs) return false;
    const joined = this.waits.find((wait) => covers(wait.wanted, fence.position));
    if (joined) return joined.reached;
    const wait = { wanted: fence.position, reached: this.waitFor(fence, waitMs) };
    this.waits.push(wait);
    try {
      return await wait.reached;
    } finally {
      this.waits.splice(this.waits.indexOf(wait), 1);
    }
  }

  private async waitFor(fence: Fence, waitMs: number): Promise<boolean> {
    let answer: unknown;
    try {
      [answer] = (await run(this.pool, 'SELECT MASTER_GTID_WAIT(?, ?) AS `reached`', [fence.text, waitMs / 1000], true)) as unknown[];
    } catch (error) {
      this.failed(error);
      return false;
    }
    const reached = Number((answer as { reached: unknown }).reached) === 0;
    if (reached) this.position = furthest(this.position, fence.position);
    else this.lagMs = Math.max(this.lagMs ?? 0, waitMs + 1);
    return reached;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.pool.end(() => resolve()));
  }
}

/** A replica's position, and whether its replication threads run (readable with SELECT alone: docs/replicas.md). */
const REPLICA_PROBE = "SELECT @@gtid_slave_pos AS `pos`, (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'SLAVE_RUNNING') AS `running`";
/** The primary's position, and whether it writes a binary log at all (without one nothing replicates). */
const PRIMARY_PROBE = 'SELECT @@gtid_binlog_pos AS `pos`, @@log_bin AS `log_bin`';
/** How long one probe statement may take before its server counts as unreachable. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * The read replicas (DATABASE_REPLICA_URLS) and the periodic probe that takes them out of rotation and puts them back
 * (docs/replicas.md). Each has a mysql2 pool of its own, so a replica that fails is only out until it answers again,
 * never removed for good.
 */
export class ReplicaSet {
  readonly replicas: Replica[];
  private samples: Sample[] = [];
  private turn = 0;
  private timer?: NodeJS.Timeout;
  private closed = false;
  /** Set when no replica can be used at all, whatever the probe says (a MySQL primary, no binary log). */
  private unusable?: string;

  constructor(
    private readonly primary: MysqlPool,
    private readonly settings: ReplicaSettings,
    replicas: ReadonlyArray<{ name: string; pool: MysqlPool }>,
    isMariaDb: boolean,
    private readonly clock: () => number = Date.now,
  ) {
    this.replicas = replicas.map(({ name, pool }) => new Replica(name, pool));
    if (!isMariaDb) this.unusable = 'the primary is MySQL: read replicas need MariaDB GTID positions (docs/replicas.md)';
  }

  /** Probes now, then every TRACKER_REPLICA_PROBE_MS until closed. */
  async start(): Promise<void> {
    await this.probe();
    const next = () => {
      this.timer = setTimeout(() => void this.probe().finally(() => !this.closed && next()), this.settings.probeMs);
      this.timer.unref();
    };
    next();
  }

  /** A replica in rotation for the next request (in turn), or none. */
  next(): Replica | undefined {
    const inRotation = this.replicas.filter((replica) => replica.inRotation);
    if (!inRotation.length) return undefined;
    return inRotation[this.turn++ % inRotation.length];
  }

  get waitMs(): number {
    return this.settings.waitMs;
  }

  states(): ReplicaState[] {
    return this.replicas.map((replica) => replica.state());
  }

  /** One probe of the primary and every replica. */
  async probe(): Promise<void> {
    if (this.unusable) {
      for (const replica of this.replicas) replica.settle({ answered: false, error: this.unusable }, null, { in: false, reason: this.unusable });
      return;
    }
    const probes = await Promise.all(this.replicas.map((replica) => replica.probe(PROBE_TIMEOUT_MS)));
    const now = this.clock();
    const primaryProblem = await this.samplePrimary(now);
    this.replicas.forEach((replica, i) => {
      const probe = probes[i];
      const lagMs = probe.answered ? lagOf(this.samples, probe.position, now) : null;
      const rotation = primaryProblem ? { in: false as const, reason: primaryProblem } : rotationOf(probe, lagMs ?? 0, this.settings.maxLagMs);
      replica.settle(probe, lagMs, rotation);
    });
  }

  /**
   * Adds the primary's position to the samples, first seen now if it moved, and drops those too old to matter. A
   * primary that does not answer adds none (the replicas' lag is then measured against what was seen last); one that
   * writes no binary log makes every replica unusable: what it writes never reaches them.
   */
  private async samplePrimary(now: number): Promise<string | undefined> {
    let row: { pos: string | null; log_bin: number | string };
    try {
      [row] = (await run(this.primary, { sql: PRIMARY_PROBE, timeout: PROBE_TIMEOUT_MS }, [], false)) as Array<typeof row>;
    } catch {
      return undefined;
    }
    if (Number(row.log_bin) !== 1) return 'the primary writes no binary log (log_bin is OFF): nothing it writes reaches a replica';
    const position = parseGtidPosition(row.pos);
    const last = this.samples[this.samples.length - 1];
    if (!last || !covers(last.position, position) || !covers(position, last.position)) this.samples.push({ at: now, position });
    const horizon = now - 2 * (this.settings.maxLagMs + this.settings.probeMs) - 10_000;
    while (this.samples.length > 1 && this.samples[0].at < horizon) this.samples.shift();
    return undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all(this.replicas.map((replica) => replica.close()));
  }
}

/** A replica's name in logs and /health/ready: where it is, `host:port/database` (or the socket's path), no user. */
export function replicaName(url: string): string {
  const { url: location, socketPath } = serverLocation(url);
  const parsed = new URL(location);
  return `${socketPath ?? `${parsed.hostname}:${parsed.port || 3306}`}${parsed.pathname}`;
}

/**
 * The replicas' pools, opened as TypeORM opens the primary's (the driver's own connection options: the same types
 * and charset, so a row reads the same wherever it came from), with a short connect timeout: a replica that is down
 * costs a request that meets it two seconds at most, then it is out of rotation.
 */
export function replicaPools(dataSource: DataSource, urls: readonly string[]): Array<{ name: string; pool: MysqlPool }> {
  const driver = dataSource.driver as unknown as {
    options: object;
    mysql: { createPool(options: object): MysqlPool };
    createConnectionOptions(options: object, credentials: object): object;
  };
  return urls.map((url) => ({
    name: replicaName(url),
    pool: driver.mysql.createPool({ ...driver.createConnectionOptions(driver.options, serverLocation(url)), connectTimeout: 2_000 }),
  }));
}
