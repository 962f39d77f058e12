// The e2e files that are in-process only as a whole: they restart, break or configure the instance, read its logs,
// metrics or database, or move its clock. `npm run test:e2e:remote` (E2E_BASE_URL) leaves them out; single tests of
// that kind elsewhere are declared with inProcessIt / inProcessDescribe (test/support/in-process.ts).
module.exports = [
  'bmo-fields', // turns on bmo_bug_fields, which changes every Get Bug answer of the instance
  'change-mark', // proves the audit and settings marks move on raw writes (reads the marks)
  'cli', // runs the admin command line on the instance's database
  'concurrency', // two instances on one database, racing
  'crash-restart', // kills and restarts the service process
  'database-socket', // starts an instance that reaches its database through the server's Unix socket
  'db-faults', // breaks the database under a running instance
  'fast-paths-off', // starts instances with TRACKER_FAST_PATHS off and on, and spies on their statements
  'first-steps', // starts an instance of its own and runs the README's commands (the admin command line among them)
  'held-statements', // runs transactions on the instance's database handle
  'kept-answers', // two instances, kept serialised answers and statement counts
  'kept-comments', // two instances, kept Get Comments answers and statement counts
  'kept-values', // statement counts of kept values
  'logs', // reads the instance's log lines
  'mail', // reads the mail outbox table and configures delivery
  'metrics', // starts an instance with TRACKER_METRICS=1
  'rate-limit', // configures limits and moves the clock
  'schema', // compares the database schema with the entities
  'shutdown', // signals the service process
  'start-up', // starts instances on a busy port, a missing database, and reads the mail files
  'webhook-delivery', // needs TRACKER_WEBHOOK_ALLOW_PRIVATE=1 and fast retries, and a receiver the instance can reach
];
