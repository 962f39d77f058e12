-- A warm Create Comment by API key on a bug in no group: the statements the service sends, one block per round trip to MariaDB/MySQL.
-- Written by test/e2e/comment.e2e-spec.ts, "Comments (Create Comment, Get Comments, comment tags) Get Comments the bugs' visibility rides with the caller's key: Get Comments and Create Comment read nothing of the bug on their own (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=mysql TEST_DATABASE_URL=mysql://root@127.0.0.1:3306 \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns comment.e2e-spec.ts

-- round trip 1
SELECT `b`.`id` AS `c_id`, `b`.`revision` AS `c_revision`, CASE WHEN ((NOT EXISTS (SELECT 1 FROM `bug_groups` vg WHERE `vg`.`bug_id` = `b`.`id`) OR EXISTS (SELECT 1 FROM `bug_groups` vg WHERE `vg`.`bug_id` = `b`.`id` AND `vg`.`group_id` IN (?...))) OR `b`.`assigned_to_id` = ? OR (`b`.`is_creator_accessible` = 1 AND `b`.`reporter_id` = ?) OR (`b`.`is_cc_accessible` = 1 AND EXISTS (SELECT 1 FROM `bug_cc` vc WHERE `vc`.`bug_id` = `b`.`id` AND `vc`.`user_id` = ?))) THEN 1 ELSE 0 END AS `c_visible`, `k`.`id`, `k`.`user_id`, `k`.`revoked`, `k`.`last_used`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `settings_mark`
         FROM `api_keys` k LEFT JOIN `bugs` b ON `b`.`id` IN (?...) WHERE `k`.`key_hash` = ?;

-- round trip 2
START TRANSACTION;
SELECT `id` FROM `bugs` WHERE `id` IN (?...) FOR UPDATE;
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
UPDATE `bugs` SET `last_change_time` = ?, `revision` = `revision` + 1 WHERE `id` IN (?...);
SELECT b.*, `p`.`name` AS `product_name`, `c`.`name` AS `component_name`, `cl`.`name` AS `classification_name`,
              `r`.`id` AS `r_id`, `r`.`login_name` AS `r_login`, `r`.`realname` AS `r_realname`, `r`.`email` AS `r_email`, `a`.`id` AS `a_id`, `a`.`login_name` AS `a_login`, `a`.`realname` AS `a_realname`, `a`.`email` AS `a_email`, `q`.`id` AS `q_id`, `q`.`login_name` AS `q_login`, `q`.`realname` AS `q_realname`, `q`.`email` AS `q_email`, `d`.`dupe_of_id`, `sv`.`is_open`, 1 AS `visible`
         FROM `bugs` b
         JOIN `products` p ON `p`.`id` = `b`.`product_id`
         JOIN `components` c ON `c`.`id` = `b`.`component_id`
         LEFT JOIN `classifications` cl ON `cl`.`id` = `p`.`classification_id`
         JOIN `users` r ON `r`.`id` = `b`.`reporter_id`
         JOIN `users` a ON `a`.`id` = `b`.`assigned_to_id`
         LEFT JOIN `users` q ON `q`.`id` = `b`.`qa_contact_id`
         LEFT JOIN `bug_duplicates` d ON `d`.`dupe_id` = `b`.`id`
         LEFT JOIN `fielddefs` sf ON `sf`.`name` = 'bug_status'
         LEFT JOIN `field_values` sv ON `sv`.`field_id` = `sf`.`id` AND `sv`.`value` = `b`.`status`
        WHERE `b`.`id` IN (?...);
SELECT 2 AS `k`, `x`.`bug_id` AS `bug_id`, `u`.`id` AS `n1`, NULL AS `n2`, NULL AS `x`, `u`.`login_name` AS `s1`, `u`.`realname` AS `s2`, `u`.`email` AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_cc` x JOIN `users` u ON `u`.`id` = `x`.`user_id` WHERE `x`.`bug_id` IN (?...) UNION ALL SELECT 3 AS `k`, `x`.`bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `k`.`name` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_keywords` x JOIN `keywords` k ON `k`.`id` = `x`.`keyword_id` WHERE `x`.`bug_id` IN (?...) UNION ALL SELECT 4 AS `k`, `x`.`bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `g`.`name` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_groups` x JOIN `groups` g ON `g`.`id` = `x`.`group_id` WHERE `x`.`bug_id` IN (?...);

-- round trip 3
INSERT INTO `mail_queue` (`created_at`, `to_address`, `subject`, `body`, `headers`, `attempts`, `next_attempt_at`, `last_error`, `sent_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `bug_changes` (`bug_id`, `kinds`, `changed_at`) VALUES (?, ?, ?);
COMMIT;
