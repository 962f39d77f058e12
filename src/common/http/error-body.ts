import type { ErrorDefinition, ErrorFacts } from '../errors/index.js';
import { TrackerError } from '../errors/index.js';
import { redactCredentials } from './redact.js';

export const DOCUMENTATION_URL = 'https://bugzilla.readthedocs.org/en/5.0/api/';

export function errorBody(error: TrackerError) {
  return { error: true, code: error.code, message: redactCredentials(error.message), documentation: DOCUMENTATION_URL };
}

export function errorFrom(definition: ErrorDefinition<ErrorFacts>, params: Record<string, unknown> = {}): TrackerError {
  return TrackerError.of(definition, params);
}
