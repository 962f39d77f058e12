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

  /** Every committed migration has run (an instance on an older schema must not take traffic). */
  migrations() {
    return this.indicators.check('migrations').attempt(async () => {
      if (await this.db.dataSource.showMigrations()) throw new Error('migrations are pending');
    }).withTimeout(2_000);
  }
}
