/**
 * Whether an error means the database could not be reached or dropped the connection (as opposed to refusing a
 * statement): the server went away, the connection was killed or reset, the pool could not connect. Such errors are
 * not the client's fault nor a bug of the service: reads retry once on a fresh connection, and what still fails is
 * DATABASE_UNAVAILABLE (503 with Retry-After), never a 500. TypeORM wraps driver errors (`driverError`).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; depth++) {
    const { code, errno } = current as { code?: unknown; errno?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof errno === 'number' && UNAVAILABLE_ERRNOS.has(errno)) return true;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  // mysql2 and Node's sockets
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR', 'PROTOCOL_SEQUENCE_TIMEOUT', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT',
  'EHOSTUNREACH',
  // the server's own: shutting down, connection killed, query interrupted by the kill, too many connections
  'ER_SERVER_SHUTDOWN', 'ER_CONNECTION_KILLED', 'ER_QUERY_INTERRUPTED', 'ER_CON_COUNT_ERROR',
]);

/** The same by number: 1040 too many connections, 1053 shutdown, 1317 interrupted, 1927 killed, 2006/2013 gone/lost. */
const UNAVAILABLE_ERRNOS: ReadonlySet<number> = new Set([1040, 1053, 1317, 1927, 2006, 2013]);
