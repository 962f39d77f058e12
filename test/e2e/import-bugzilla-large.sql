-- Three comments of 6 MiB each on bug 2, made in Bugzilla after the import (test/e2e/import-bugzilla.e2e-spec.ts):
-- together more than MariaDB's default max_allowed_packet (16 MiB), so one INSERT of them would be refused.
INSERT INTO longdescs (bug_id, who, bug_when, thetext) VALUES
  (2, 1, NOW() + INTERVAL 1 SECOND, REPEAT('a', 6291456)),
  (2, 1, NOW() + INTERVAL 1 SECOND, REPEAT('b', 6291456)),
  (2, 1, NOW() + INTERVAL 1 SECOND, REPEAT('c', 6291456));
UPDATE bugs SET delta_ts = NOW() + INTERVAL 1 SECOND WHERE bug_id = 2;
