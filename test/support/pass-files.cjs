// Which e2e files a pass of `npm test` leaves out: the files none of whose tests applies to it (Jest fails a file
// that registers no test). Single tests that apply to some passes only say so themselves (test/support/conditions.ts:
// itWhen / describeWhen, inProcessIt / inProcessDescribe); each file here runs whole in the passes it applies to.

// In-process only as a whole: they restart, break or configure the instance, read its logs, metrics or database,
// or move its clock. Left out against a running instance (E2E_BASE_URL, `npm run test:e2e:remote`).
const IN_PROCESS_ONLY = [
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
  'rpc-transcripts', // imports the Bugzilla 5.0.6 fixture into a database of its own and replays the RPC transcripts
  'rate-limit', // configures limits and moves the clock
  'schema', // compares the database schema with the entities
  'shutdown', // signals the service process
  'start-up', // starts instances on a busy port, a missing database, and reads the mail files
  'webhook-delivery', // needs TRACKER_WEBHOOK_ALLOW_PRIVATE=1 and fast retries, and a receiver the instance can reach
  'webhook-bmo', // as webhook-delivery: a receiver the instance can reach, fast retries
  'admission', // configures the admission limits of instances of its own
  'import-bugzilla', // imports into databases of its own and reads them
  'presumed-caller', // revokes keys in the instance's database and counts its statements
  'write-after-settings-change', // moves the settings mark through a second instance and counts runs
  'writes-outside-transactions', // spies on the instance's database handle
];
// On one dialect only as a whole.
const MYSQL_ONLY = [
  'database-socket', // only a database server has a Unix socket
  'db-faults', // only a database server has connections to lose
];
const SQLITE_ONLY = [
  'first-steps', // the README's steps run the service on its default, SQLite
];
// Their subject is a speed mechanism (held statements), absent with TRACKER_FAST_PATHS=off.
const FAST_PATHS_ONLY = ['held-statements'];

/** The names (without `.e2e-spec.ts`) of the e2e files the pass that `env` describes leaves out. */
module.exports = function filesLeftOut(env) {
  const mysql = env.TEST_DIALECT === 'mysql';
  return [
    ...(env.E2E_BASE_URL ? IN_PROCESS_ONLY : []),
    ...(mysql ? SQLITE_ONLY : MYSQL_ONLY),
    ...(env.TRACKER_FAST_PATHS === 'off' ? FAST_PATHS_ONLY : []),
  ];
};
