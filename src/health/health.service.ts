import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { Db } from '../database/db.service.js';

/** The checks of readiness. */
@Injectable()
export class HealthService {
  constructor(private readonly indicators: HealthIndicatorService, private readonly db: Db) {}

  /** The database answers a statement within two seconds. */
  database() {
    return this.indicators.check('database').attempt(async () => {
      await this.db.currentTime();
    }).withTimeout(2_000);
  }

  /**
   * The read replicas as the last probe saw them (docs/replicas.md), one entry each, `replica <host:port/database>`:
   * `up` while in rotation, `out` (with the reason) while its reads go to the primary, and its lag. An entry, not a
   * check: a replica out of rotation does not make the instance unready, the primary serves its reads. None without
   * replicas.
   */
  replicas(): Record<string, { status: 'up' | 'out'; lag_s: number | null; reason?: string }> {
    const entries: Record<string, { status: 'up' | 'out'; lag_s: number | null; reason?: string }> = {};
    for (const state of this.db.replicaStates() ?? []) {
      entries[`replica ${state.replica}`] = { status: state.in_rotation ? 'up' : 'out', lag_s: state.lag_s, ...(state.reason ? { reason: state.reason } : {}) };
    }
    return entries;
  }

  /** Every committed migration has run (an instance on an older schema must not take traffic). */
  migrations() {
    return this.indicators.check('migrations').attempt(async () => {
      if (await this.db.dataSource.showMigrations()) throw new Error('migrations are pending');
    }).withTimeout(2_000);
  }
}
