-- A warm Create Bug by API key, in no group, mailing nobody: the statements the service sends, one block per round trip to MariaDB/MySQL.
-- Written by test/e2e/bug-create.e2e-spec.ts, "Create Bug (POST /rest/bug) round trips (SQL snapshots src/bug/sql/create-bug*) a warm Create Bug in no group, mailing nobody: on MySQL one round trip, the key's check, the bug with its description and the COMMIT (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=mysql TEST_DATABASE_URL=mysql://root@127.0.0.1:3306 \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns bug-create.e2e-spec.ts

-- round trip 1
START TRANSACTION;
INSERT INTO `bugs` (`summary`, `status`, `resolution`, `product_id`, `component_id`, `version`, `target_milestone`, `op_sys`, `platform`, `priority`, `severity`, `reporter_id`, `assigned_to_id`, `qa_contact_id`, `url`, `whiteboard`, `is_confirmed`, `is_creator_accessible`, `is_cc_accessible`, `estimated_time`, `remaining_time`, `deadline`, `creation_time`, `last_change_time`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
SET @tracker_new_row_1 = LAST_INSERT_ID();
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (@tracker_new_row_1, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `bug_changes` (`bug_id`, `kinds`, `changed_at`) VALUES (@tracker_new_row_1, ?, ?);
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;
COMMIT;
