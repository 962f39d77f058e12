import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';

/** GET /metrics, when TRACKER_METRICS=1 (AppModule.forRoot leaves it out otherwise). */
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
