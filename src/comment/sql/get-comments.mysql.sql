-- A warm Get Comments by API key of a bug unchanged since its last read: the statements the service sends, one block per round trip to MariaDB/MySQL.
-- Written by test/e2e/comment.e2e-spec.ts, "Comments (Create Comment, Get Comments, comment tags) Get Comments the bugs' visibility rides with the caller's key: Get Comments and Create Comment read nothing of the bug on their own (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=mysql TEST_DATABASE_URL=mysql://root@127.0.0.1:3306 \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns comment.e2e-spec.ts

-- round trip 1
SELECT `b`.`id` AS `c_id`, `b`.`revision` AS `c_revision`, `k`.`id`, `k`.`user_id`, `k`.`revoked`, `k`.`last_used`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `settings_mark`
         FROM `api_keys` k LEFT JOIN `bugs` b ON `b`.`id` IN (?...) WHERE `k`.`key_hash` = ?;
