import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import type { FastifyReply } from 'fastify';
import { applyAtTargets } from './field-selection.js';
import { FIELD_SELECTION, type FieldSelectionTarget } from './field-selection.decorator.js';
import { requestContext } from '../http/request-context.js';
import { RawJson, sendsRawJson } from '../http/raw-json.js';

/**
 * Trims responses of handlers marked @SelectableFields by the request's include_fields/exclude_fields. A handler that
 * answers RawJson applied the selection itself and is sent as it is.
 */
@Injectable()
export class FieldSelectionInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const targets = this.reflector.get<FieldSelectionTarget[] | undefined>(FIELD_SELECTION, context.getHandler());
    if (!targets) return next.handle();
    const http = context.switchToHttp();
    const selection = requestContext(http.getRequest()).selection;
    return next.handle().pipe(
      map((response: unknown) => {
        if (response instanceof RawJson) {
          sendsRawJson(http.getResponse<FastifyReply>(), response);
          return response.text;
        }
        return applyAtTargets(response, targets, selection);
      }),
    );
  }
}
