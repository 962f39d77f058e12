/**
 * Credentials never leave in a message or a log line: API keys, passwords and tokens, in any of the spellings
 * clients send (clients.md: `Tracker_*`, `Bugzilla_*`, plain, headers), are replaced wherever text that may carry a
 * URL, a query string or headers is rendered (error messages, logged errors).
 */
const CREDENTIAL_IN_QUERY = /\b((?:Tracker_|Bugzilla_)?(?:api_key|password|token|login_token))=[^&\s'"#]*/gi;
const CREDENTIAL_HEADER = /\b(x-(?:bugzilla|tracker)-(?:api-key|password|token)|authorization)(\s*[:=]\s*)[^\s,;'"]+(?:\s+[^\s,;'"]+)?/gi;
const CREDENTIAL_IN_JSON = /("(?:(?:Tracker_|Bugzilla_)?(?:api_key|password|token))"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

export const REDACTED = '[redacted]';

export function redactCredentials(text: string): string {
  return text
    .replace(CREDENTIAL_IN_QUERY, `$1=${REDACTED}`)
    .replace(CREDENTIAL_HEADER, `$1$2${REDACTED}`)
    .replace(CREDENTIAL_IN_JSON, `$1"${REDACTED}"`);
}
