-- A warm Bug History by API key: the statements the service sends, one block per round trip to MariaDB/MySQL.
-- Written by test/e2e/bug-history.e2e-spec.ts, "Bug history (GET /rest/bug/(id)/history) and the change recorder the bugs' visibility rides with the caller's key: no statement of its own (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=mysql TEST_DATABASE_URL=mysql://root@127.0.0.1:3306 \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns bug-history.e2e-spec.ts

-- round trip 1
SELECT `b`.`id` AS `c_id`, CASE WHEN ((NOT EXISTS (SELECT 1 FROM `bug_groups` vg WHERE `vg`.`bug_id` = `b`.`id`) OR EXISTS (SELECT 1 FROM `bug_groups` vg WHERE `vg`.`bug_id` = `b`.`id` AND `vg`.`group_id` IN (?...))) OR `b`.`assigned_to_id` = ? OR (`b`.`is_creator_accessible` = 1 AND `b`.`reporter_id` = ?) OR (`b`.`is_cc_accessible` = 1 AND EXISTS (SELECT 1 FROM `bug_cc` vc WHERE `vc`.`bug_id` = `b`.`id` AND `vc`.`user_id` = ?))) THEN 1 ELSE 0 END AS `c_visible`, `k`.`id`, `k`.`user_id`, `k`.`revoked`, `k`.`last_used`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `settings_mark`
         FROM `api_keys` k LEFT JOIN `bugs` b ON `b`.`id` IN (?...) WHERE `k`.`key_hash` = ?;

-- round trip 2
SELECT `a`.`id` AS `id`, `a`.`bug_id` AS `bugId`, `a`.`user_id` AS `userId`, `a`.`attachment_id` AS `attachmentId`, `a`.`comment_id` AS `commentId`, `a`.`changed_at` AS `changedAt`, `a`.`field_name` AS `fieldName`, `a`.`removed` AS `removed`, `a`.`added` AS `added` FROM `bug_activity` `a` WHERE `a`.`bug_id` IN (?...) ORDER BY `a`.`changed_at` ASC, `a`.`comment_id` ASC, `a`.`id` ASC;

-- round trip 3
SELECT 1 AS `k`, `bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `alias` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_aliases` WHERE `bug_id` IN (?...);

-- round trip 4
SELECT `id`, `login_name`, `email`, `realname`, `cryptpassword`, `login_denied_text`, `email_enabled`, `creation_ts`, `last_seen_date` FROM `users` WHERE `id` IN (?...);
