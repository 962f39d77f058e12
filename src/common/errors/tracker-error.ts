import type { ErrorDefinition, ErrorFacts } from './error-catalogue.js';

/** The one exception type of the service: a catalogue entry plus the facts for its message. */
export class TrackerError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  readonly errorName: string;

  constructor(readonly definition: ErrorDefinition<ErrorFacts>, readonly params: Record<string, unknown> = {}) {
    super(definition.message(params));
    this.code = definition.code;
    this.httpStatus = definition.httpStatus;
    this.errorName = definition.name;
  }

  static of(definition: ErrorDefinition<ErrorFacts>, params: Record<string, unknown> = {}): TrackerError {
    return new TrackerError(definition, params);
  }
}
