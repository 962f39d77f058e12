-- A warm one-bug Update Bug (status, cc, comment) by API key, of a kept bug in no group: the statements the service sends, one block per round trip to MariaDB/MySQL.
-- Written by test/e2e/bug-update.e2e-spec.ts, "Update Bug (PUT /rest/bug/(id_or_alias)): fields, object shapes, response, history round trips (SQL snapshots src/bug/sql/update-bug*) a warm status + cc + comment update of a bug in no group: on MySQL two round trips, both under its lock (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=mysql TEST_DATABASE_URL=mysql://root@127.0.0.1:3306 \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns bug-update.e2e-spec.ts

-- round trip 1
START TRANSACTION;
SELECT `id` FROM `bugs` WHERE `id` IN (?...) FOR UPDATE;
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;
SELECT `b`.`id` AS `c_id`, `b`.`revision` AS `c_revision`, 1 AS `c_visible`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `c_settings_mark` FROM `bugs` b WHERE `b`.`id` IN (?...);

-- round trip 2
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
UPDATE `bugs` SET `status` = ?, `last_change_time` = ?, `revision` = `revision` + 1 WHERE `id` = ?;
INSERT INTO `bug_activity` (`bug_id`, `attachment_id`, `comment_id`, `user_id`, `changed_at`, `field_name`, `removed`, `added`) VALUES (?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `mail_queue` (`created_at`, `to_address`, `subject`, `body`, `headers`, `attempts`, `next_attempt_at`, `last_error`, `sent_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `bug_changes` (`bug_id`, `kinds`, `changed_at`) VALUES (?, ?, ?);
SELECT `b`.`id` AS `c_id`, `b`.`revision` AS `c_revision`, 1 AS `c_visible`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `c_settings_mark` FROM `bugs` b WHERE `b`.`id` IN (?...);
COMMIT;
