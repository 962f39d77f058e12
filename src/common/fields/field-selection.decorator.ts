import { SetMetadata } from '@nestjs/common';
import type { ResourceFields } from './field-selection.js';

export const FIELD_SELECTION = 'tracker:field-selection';

export interface FieldSelectionTarget {
  /** Where the objects are in the response (see applyAtPath). */
  path: string;
  fields: ResourceFields;
}

/** Declares that a handler's response is trimmed by include_fields/exclude_fields at these paths. */
export const SelectableFields = (...targets: FieldSelectionTarget[]) => SetMetadata(FIELD_SELECTION, targets);
