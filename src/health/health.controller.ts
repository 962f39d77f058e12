import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '../common/openapi/openapi-decorators.js';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { Operational } from '../common/guards/access.decorators.js';
import { HealthService } from './health.service.js';

/** Readiness's answer (Terminus's): each check by name under `info` (up) or `error` (down), and all of them under `details`. */
const CHECKS = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['up', 'down'] }, responseTime: { type: 'number', description: 'How long the check took, in ms' }, message: { type: 'string' } },
    required: ['status'],
  },
  example: { database: { status: 'up', responseTime: 2 }, migrations: { status: 'up', responseTime: 4 } },
};
/** `details` also holds one entry per read replica: `up` in rotation, `out` (with why) while the primary serves its reads. */
const DETAILS = {
  ...CHECKS,
  additionalProperties: {
    ...CHECKS.additionalProperties,
    properties: {
      ...CHECKS.additionalProperties.properties,
      status: { type: 'string', enum: ['up', 'down', 'out'] },
      lag_s: { type: 'number', nullable: true, description: 'A replica: how far behind the primary it was at its last probe, in seconds' },
      reason: { type: 'string', description: 'A replica out of rotation: why' },
    },
  },
  example: { ...CHECKS.example, 'replica 10.0.0.2:3306/tracker': { status: 'up', lag_s: 0 } },
};
const readiness = (status: 'ok' | 'error') => ({ type: 'object', properties: { status: { type: 'string', enum: [status] }, info: CHECKS, error: CHECKS, details: DETAILS } });

/**
 * Liveness and readiness for orchestrators (beyond 5.0; outside /rest). Liveness answers without touching the
 * database; readiness answers 503 with the failing check while the database does not answer or migrations are
 * pending. With read replicas, `details` reports each one (HealthService.replicas); one out of rotation leaves the
 * instance ready.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthCheckService, private readonly checks: HealthService) {}

  @Get('live')
  @Operational()
  @ApiOperation({ summary: 'Liveness: the process serves requests (no database access). Beyond 5.0.' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Operational()
  // Terminus's own OpenAPI part would load @nestjs/swagger at start (src/common/openapi): described here instead.
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOkResponse({ description: 'Ready: every check is up.', schema: readiness('ok') })
  @ApiServiceUnavailableResponse({ description: 'Not ready: the failing check is under `error`.', schema: readiness('error') })
  @ApiOperation({ summary: 'Readiness: the database answers and its migrations are current; 503 with the failing check otherwise. Each read replica is reported in `details` (in rotation or out, its lag) and never makes it unready. Beyond 5.0.' })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult | string | object> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check([() => this.checks.database(), () => this.checks.migrations()]);
    } catch (error) {
      // Terminus reports a failed check as a 503 exception whose body lists the checks: sent as it is.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      void reply.status(503);
      result = error.getResponse() as HealthCheckResult;
    }
    return { ...result, details: { ...result.details, ...this.checks.replicas() } };
  }
}
