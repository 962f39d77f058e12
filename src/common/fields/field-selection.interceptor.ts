import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { applyAtPath } from './field-selection.js';
import { FIELD_SELECTION, type FieldSelectionTarget } from './field-selection.decorator.js';
import { requestContext } from '../http/request-context.js';

/** Trims responses of handlers marked @SelectableFields by the request's include_fields/exclude_fields. */
@Injectable()
export class FieldSelectionInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const targets = this.reflector.get<FieldSelectionTarget[] | undefined>(FIELD_SELECTION, context.getHandler());
    if (!targets) return next.handle();
    const selection = requestContext(context.switchToHttp().getRequest()).selection;
    return next.handle().pipe(
      map((response: unknown) => targets.reduce((result, target) => applyAtPath(result, target.path, selection, target.fields), response)),
    );
  }
}
