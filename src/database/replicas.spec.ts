import { Logger } from '@nestjs/common';
import { parseGtidPosition } from './gtid.js';
import { fenceOf, lagOf, ReplicaSet, rotationOf, type MysqlPool, type Probe } from './replicas.js';
import { readPrimaryFromNowOn, readScopeHook, routedReads } from './read-scope.js';

/**
 * A MariaDB server as the replica code sees it through a mysql2 pool: a primary (its binary log position) or a
 * replica (the position it applied, whether its replication runs). `down` refuses every statement as a stopped
 * server does; MASTER_GTID_WAIT answers 0 once `position` covers what it waits for, else -1 (timed out).
 */
class FakeServer {
  position = '';
  running: 'ON' | 'OFF' = 'ON';
  logBin = 1;
  down = false;
  readonly statements: string[] = [];

  constructor(readonly name: string) {}

  pool(): MysqlPool {
    const answer = (sql: string, done: (err: Error | null, rows: unknown) => void) => {
      this.statements.push(sql);
      if (this.down) return done(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), undefined);
      done(null, this.answer(sql));
    };
    return {
      execute: (sql, _params, done) => answer(sql, done),
      query: (options, _params, done) => answer(typeof options === 'string' ? options : options.sql, done),
      on: () => undefined,
      end: (done) => done(),
    };
  }

  private answer(sql: string): unknown {
    if (sql.includes('@@gtid_slave_pos')) return [{ pos: this.position, running: this.running }];
    if (sql.startsWith('SELECT @@gtid_binlog_pos AS `pos`')) return [{ pos: this.position, log_bin: this.logBin }];
    if (sql.includes('MASTER_GTID_WAIT')) return [{ reached: this.waits() }];
    if (sql.endsWith(';\nSELECT @@gtid_binlog_pos AS `tracker_fence`')) return [this.rows(sql), [{ tracker_fence: this.position }]];
    if (sql.startsWith(RIDDEN)) return this.rows(sql).map((row) => ({ tracker_fence: this.position, ...row }));
    return this.rows(sql);
  }

  /** What a read finds: a row naming the server, none for a statement that says so. */
  private rows(sql: string): Array<Record<string, unknown>> {
    return sql.includes('nothing') ? [] : [{ from: this.name }];
  }

  /** A read on the primary as the routing sends one there without the fence. */
  plain(sql: string): Promise<unknown> {
    this.statements.push(sql);
    return Promise.resolve([{ from: this.name }]);
  }

  /** What the replica's MASTER_GTID_WAIT answers: set by the test. */
  waits: () => number = () => -1;

  /** The statements sent since the last call, the probe's left out. */
  sent(): string[] {
    const sent = this.statements.splice(0).filter((sql) => !sql.includes('@@gtid_slave_pos') && !/^SELECT @@gtid_binlog_pos AS `pos`/.test(sql));
    return sent.map((sql) => {
      if (sql.includes('MASTER_GTID_WAIT')) return 'wait';
      if (sql.startsWith(RIDDEN)) return `${sql.replace(RIDDEN, 'SELECT ')} +fence column`;
      return sql.includes('tracker_fence') ? `${sql.split(';')[0]} +fence statement` : sql;
    });
  }
}

/** A read the primary's position rides in, as its first column. */
const RIDDEN = 'SELECT @@gtid_binlog_pos AS `tracker_fence`, ';

const SETTINGS = { maxLagMs: 2_000, waitMs: 100, probeMs: 1_000 };

function cluster(settings = SETTINGS, isMariaDb = true, clock = Date.now) {
  const primary = new FakeServer('primary');
  const replica = new FakeServer('replica');
  const set = new ReplicaSet(primary.pool(), settings, [{ name: 'replica', pool: replica.pool() }], isMariaDb, clock);
  const reads = routedReads(primary.pool(), (sql) => primary.plain(sql), set, true);
  return { primary, replica, set, reads };
}

/** Runs `work` as a GET request does: in a read scope. */
function inGet<T>(work: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => readScopeHook({ method: 'GET' }, undefined, () => void work().then(resolve, reject)));
}

beforeAll(() => Logger.overrideLogger(false));

describe('the rotation rule', () => {
  const answered = (replicating = true): Probe => ({ answered: true, position: new Map(), replicating });

  it('keeps a replica that answers, replicates and is within the lag bound; takes out one beyond it', () => {
    expect(rotationOf(answered(), 2_000, 2_000)).toEqual({ in: true });
    expect(rotationOf(answered(), 2_001, 2_000)).toEqual({ in: false, reason: '2.0 s behind the primary (TRACKER_REPLICA_MAX_LAG_S is 2.0)' });
  });

  it('takes out a replica that does not answer, or whose replication is stopped', () => {
    expect(rotationOf({ answered: false, error: 'connect ECONNREFUSED' }, 0, 2_000)).toEqual({ in: false, reason: 'unreachable: connect ECONNREFUSED' });
    expect(rotationOf(answered(false), 0, 2_000)).toEqual({ in: false, reason: 'its replication is stopped (SLAVE_RUNNING is OFF)' });
  });
});

describe('lag', () => {
  const samples = [
    { at: 1_000, position: parseGtidPosition('0-1-10') },
    { at: 2_000, position: parseGtidPosition('0-1-12') },
    { at: 3_000, position: parseGtidPosition('0-1-20') },
  ];

  it('is the time since the oldest primary position the replica lacks was first seen, 0 when it lacks none', () => {
    expect(lagOf(samples, parseGtidPosition('0-1-20'), 5_000)).toBe(0);
    expect(lagOf(samples, parseGtidPosition('0-1-12'), 5_000)).toBe(2_000);
    expect(lagOf(samples, parseGtidPosition('0-1-11'), 5_000)).toBe(3_000);
    expect(lagOf([], parseGtidPosition(''), 5_000)).toBe(0);
  });
});

describe('ReplicaSet: out of rotation and back', () => {
  it('starts out of rotation, and is in once a probe finds it replicating', async () => {
    const { set } = cluster();
    expect(set.states()).toEqual([{ replica: 'replica', in_rotation: false, lag_s: null, reason: 'not probed yet' }]);
    await set.probe();
    expect(set.states()).toEqual([{ replica: 'replica', in_rotation: true, lag_s: 0 }]);
    expect(set.next()?.name).toBe('replica');
  });

  it('takes a replica that went down out at the next probe, and puts it back once it answers again', async () => {
    const { set, replica } = cluster();
    await set.probe();
    replica.down = true;
    await set.probe();
    expect(set.states()).toEqual([{ replica: 'replica', in_rotation: false, lag_s: null, reason: 'unreachable: connect ECONNREFUSED' }]);
    expect(set.next()).toBeUndefined();
    replica.down = false;
    await set.probe();
    expect(set.states()[0].in_rotation).toBe(true);
  });

  it('takes a stopped replica out, and back once replicating again', async () => {
    const { set, replica } = cluster();
    replica.running = 'OFF';
    await set.probe();
    expect(set.states()[0]).toMatchObject({ in_rotation: false, reason: 'its replication is stopped (SLAVE_RUNNING is OFF)' });
    replica.running = 'ON';
    await set.probe();
    expect(set.states()[0].in_rotation).toBe(true);
  });

  it('takes a replica beyond TRACKER_REPLICA_MAX_LAG_S out, and back once it caught up', async () => {
    let now = 10_000;
    const { set, primary, replica } = cluster({ ...SETTINGS, maxLagMs: 0 }, true, () => now);
    primary.position = '0-1-5';
    replica.position = '0-1-5';
    await set.probe();
    expect(set.states()[0]).toEqual({ replica: 'replica', in_rotation: true, lag_s: 0 });
    primary.position = '0-1-6';
    now = 11_000;
    await set.probe();
    now = 12_500;
    await set.probe();
    expect(set.states()[0]).toEqual({ replica: 'replica', in_rotation: false, lag_s: 1.5, reason: '1.5 s behind the primary (TRACKER_REPLICA_MAX_LAG_S is 0.0)' });
    replica.position = '0-1-6';
    await set.probe();
    expect(set.states()[0]).toEqual({ replica: 'replica', in_rotation: true, lag_s: 0 });
  });

  it('uses no replica when the primary writes no binary log, or is MySQL', async () => {
    const noBinlog = cluster();
    noBinlog.primary.logBin = 0;
    await noBinlog.set.probe();
    expect(noBinlog.set.states()[0]).toMatchObject({ in_rotation: false, reason: expect.stringContaining('log_bin is OFF') });
    const mysql = cluster(SETTINGS, false);
    await mysql.set.probe();
    expect(mysql.set.states()[0]).toMatchObject({ in_rotation: false, reason: expect.stringContaining('MySQL') });
    expect(mysql.replica.statements).toEqual([]);
  });
});

describe('Replica.reached: the wait for a request\'s fence', () => {
  it('does not wait when the replica is known to be past the fence', async () => {
    const { set, replica } = cluster();
    replica.position = '0-1-9';
    await set.probe();
    replica.statements.splice(0);
    expect(await set.next()!.reached(fenceOf('0-1-9'), 100)).toBe(true);
    expect(replica.statements).toEqual([]);
  });

  it('waits once for concurrent fences the same wait covers, and knows the position after', async () => {
    const { set, replica } = cluster();
    await set.probe();
    replica.statements.splice(0);
    replica.waits = () => 0;
    const one = set.next()!;
    expect(await Promise.all([one.reached(fenceOf('0-1-9'), 100), one.reached(fenceOf('0-1-8'), 100)])).toEqual([true, true]);
    expect(replica.sent()).toEqual(['wait']);
    expect(await one.reached(fenceOf('0-1-9'), 100)).toBe(true);
    expect(replica.sent()).toEqual([]);
  });

  it('after a wait timed out, later requests do not wait on it until the next probe', async () => {
    const { set, replica } = cluster();
    await set.probe();
    replica.statements.splice(0);
    const one = set.next()!;
    expect(await one.reached(fenceOf('0-1-9'), 100)).toBe(false);
    expect(await one.reached(fenceOf('0-1-10'), 100)).toBe(false);
    expect(replica.sent()).toEqual(['wait']);
    expect(await one.reached(fenceOf('0-1-10'), 0)).toBe(false);
  });
});

describe('routedReads: where a read goes', () => {
  it('outside a GET request (writes, workers): the primary', async () => {
    const { set, primary, replica, reads } = cluster();
    await set.probe();
    await reads('SELECT 1', []);
    await new Promise<void>((resolve) => readScopeHook({ method: 'POST' }, undefined, () => void reads('SELECT 2', []).then(() => resolve())));
    expect(primary.sent()).toEqual(['SELECT 1', 'SELECT 2']);
    expect(replica.sent()).toEqual([]);
  });

  it('in a GET: the first read on the primary with its position; the later ones on the replica once it reached it', async () => {
    const { set, primary, replica, reads } = cluster();
    primary.position = '0-1-7';
    await set.probe();
    replica.waits = () => {
      replica.position = '0-1-7';
      return 0;
    };
    const answers = await inGet(async () => [await reads('SELECT credential', []), await reads('SELECT bug', []), await reads('SELECT more', [])]);
    expect(answers).toEqual([[{ from: 'primary' }], [{ from: 'replica' }], [{ from: 'replica' }]]);
    expect(primary.sent()).toEqual(['SELECT credential +fence column']);
    expect(replica.sent()).toEqual(['wait', 'SELECT bug', 'SELECT more']);
  });

  it('the position rides in a plain SELECT as a column the rows lose; after any other read as a statement of its own', async () => {
    const { set, primary, reads } = cluster();
    primary.position = '0-1-7';
    await set.probe();
    expect(await inGet(() => reads('SELECT credential', []))).toEqual([{ from: 'primary' }]);
    expect(await inGet(() => reads('SELECT DISTINCT a', []))).toEqual([{ from: 'primary' }]);
    expect(await inGet(() => reads('SELECT a UNION SELECT b', []))).toEqual([{ from: 'primary' }]);
    expect(await inGet(() => reads('WITH x AS (SELECT 1) SELECT a', []))).toEqual([{ from: 'primary' }]);
    expect(primary.sent()).toEqual([
      'SELECT credential +fence column', 'SELECT DISTINCT a +fence statement', 'SELECT a UNION SELECT b +fence statement', 'WITH x AS (SELECT 1) SELECT a +fence statement',
    ]);
  });

  it('a first read that found no row brings no position: the next read takes it, and only then may a replica serve', async () => {
    const { set, primary, replica, reads } = cluster();
    await set.probe();
    await inGet(async () => {
      expect(await reads('SELECT nothing', [])).toEqual([]);
      await reads('SELECT credential', []);
      await reads('SELECT bug', []);
    });
    expect(primary.sent()).toEqual(['SELECT nothing +fence column', 'SELECT credential +fence column']);
    expect(replica.sent()).toEqual(['SELECT bug']);
  });

  it('in a GET whose replica does not reach the fence in time: the primary to its end', async () => {
    const { set, primary, replica, reads } = cluster();
    primary.position = '0-1-7';
    await set.probe();
    await inGet(async () => {
      await reads('SELECT credential', []);
      await reads('SELECT bug', []);
      await reads('SELECT more', []);
    });
    expect(primary.sent()).toEqual(['SELECT credential +fence column', 'SELECT bug', 'SELECT more']);
    expect(replica.sent()).toEqual(['wait']);
  });

  it('in a GET that wrote: the primary from then on', async () => {
    const { set, primary, replica, reads } = cluster();
    await set.probe();
    await inGet(async () => {
      await reads('SELECT credential', []);
      await reads('SELECT bug', []);
      readPrimaryFromNowOn();
      await reads('SELECT after the write', []);
    });
    expect(primary.sent()).toEqual(['SELECT credential +fence column', 'SELECT after the write']);
    expect(replica.sent()).toEqual(['SELECT bug']);
  });

  it('a read the replica fails goes to the primary, and the replica is out until a probe finds it again', async () => {
    const { set, primary, replica, reads } = cluster();
    await set.probe();
    await inGet(async () => {
      await reads('SELECT credential', []);
      replica.down = true;
      expect(await reads('SELECT bug', [])).toEqual([{ from: 'primary' }]);
    });
    expect(set.states()[0]).toMatchObject({ in_rotation: false, reason: 'a read failed: connect ECONNREFUSED' });
    expect(primary.sent()).toEqual(['SELECT credential +fence column', 'SELECT bug']);
    expect(replica.sent()).toEqual(['SELECT bug']);
    // No replica in rotation: no fence either, every read on the primary as without replicas.
    await inGet(async () => void (await reads('SELECT credential', [])));
    expect(primary.sent()).toEqual(['SELECT credential']);
    replica.down = false;
    await set.probe();
    await inGet(async () => {
      await reads('SELECT credential', []);
      await reads('SELECT bug', []);
    });
    expect(replica.sent()).toEqual(['SELECT bug']);
  });
});
