import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '../common/openapi/openapi-decorators.js';
import { Operational } from '../common/guards/access.decorators.js';
import { metricsRegistry } from '../common/metrics/metrics.js';

/** Prometheus metrics of this instance (issue 14), outside /rest; mounted only with TRACKER_METRICS=1. */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  @Get()
  @Operational()
  @Header('Content-Type', metricsRegistry.contentType)
  @ApiOperation({ summary: 'Prometheus metrics: requests and latency by route, database pool, kept-value cache, mail outbox. Beyond 5.0; TRACKER_METRICS=1.' })
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
