export { Errors, httpStatusForCode, type ErrorDefinition, type ErrorFacts, type ErrorName } from './error-catalogue.js';
export { TrackerError } from './tracker-error.js';
export { isDatabaseUnavailable } from './database-unavailable.js';
