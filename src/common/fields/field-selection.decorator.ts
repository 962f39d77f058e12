import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiQuery } from '../openapi/openapi-decorators.js';
import type { ResourceFields } from './field-selection.js';

export const FIELD_SELECTION = 'tracker:field-selection';

export interface FieldSelectionTarget {
  /** Where the objects are in the response (see applyAtPath). */
  path: string;
  fields: ResourceFields;
}

/**
 * Declares that a handler's response is trimmed by include_fields/exclude_fields at these paths (and documents the
 * two parameters in the OpenAPI document).
 */
export const SelectableFields = (...targets: FieldSelectionTarget[]) =>
  applyDecorators(
    SetMetadata(FIELD_SELECTION, targets),
    ApiQuery({ name: 'include_fields', required: false, type: String, isArray: true, description: 'Only these fields (comma list or repeated; `_all`, `_default`, `_extra`, `_custom`, `field.subfield`).' }),
    ApiQuery({ name: 'exclude_fields', required: false, type: String, isArray: true, description: 'Leave these fields out; wins over include_fields.' }),
  );
