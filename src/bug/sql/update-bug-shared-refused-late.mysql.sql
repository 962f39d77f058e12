-- Six one-bug Update Bugs arriving together while the bug is locked, the fourth refused (103) after a read sent its writes: the statements the service sends, one block per round trip to MariaDB/MySQL.
-- Written by test/e2e/concurrency.e2e-spec.ts, "concurrency: updates of one bug that arrive together share a transaction five good updates and one refused among them, arriving together refused after its writes left (a read sent them) it is rolled back to its savepoint: the alias's lookup carried the savepoint and the cc write (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=mysql TEST_DATABASE_URL=mysql://root@127.0.0.1:3306 \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns concurrency.e2e-spec.ts

-- round trip 1
START TRANSACTION;
SELECT `b`.`id` AS `b_id`, `b`.`summary` AS `b_summary`, `b`.`status` AS `b_status`, `b`.`resolution` AS `b_resolution`, `b`.`product_id` AS `b_product_id`, `b`.`component_id` AS `b_component_id`, `b`.`version` AS `b_version`, `b`.`target_milestone` AS `b_target_milestone`, `b`.`op_sys` AS `b_op_sys`, `b`.`platform` AS `b_platform`, `b`.`priority` AS `b_priority`, `b`.`severity` AS `b_severity`, `b`.`reporter_id` AS `b_reporter_id`, `b`.`assigned_to_id` AS `b_assigned_to_id`, `b`.`qa_contact_id` AS `b_qa_contact_id`, `b`.`url` AS `b_url`, `b`.`whiteboard` AS `b_whiteboard`, `b`.`is_confirmed` AS `b_is_confirmed`, `b`.`is_creator_accessible` AS `b_is_creator_accessible`, `b`.`is_cc_accessible` AS `b_is_cc_accessible`, `b`.`estimated_time` AS `b_estimated_time`, `b`.`remaining_time` AS `b_remaining_time`, `b`.`deadline` AS `b_deadline`, `b`.`creation_time` AS `b_creation_time`, `b`.`type` AS `b_type`, `b`.`filed_via` AS `b_filed_via`, `b`.`last_change_time` AS `b_last_change_time`, `b`.`revision` AS `b_revision` FROM `bugs` `b` WHERE `b`.`id` = ? FOR UPDATE;

-- round trip 2
START TRANSACTION;
SELECT `id` FROM `bugs` WHERE `id` IN (?...) FOR UPDATE;
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;
SELECT `b`.`id` AS `c_id`, `b`.`revision` AS `c_revision`, 1 AS `c_visible`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `c_settings_mark` FROM `bugs` b WHERE `b`.`id` IN (?...);
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
SELECT 1 AS `k`, `bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `alias` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_aliases` WHERE `bug_id` IN (?...) UNION ALL SELECT 2 AS `k`, `x`.`bug_id` AS `bug_id`, `u`.`id` AS `n1`, NULL AS `n2`, NULL AS `x`, `u`.`login_name` AS `s1`, `u`.`realname` AS `s2`, `u`.`email` AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_cc` x JOIN `users` u ON `u`.`id` = `x`.`user_id` WHERE `x`.`bug_id` IN (?...) UNION ALL SELECT 3 AS `k`, `x`.`bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `k`.`name` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_keywords` x JOIN `keywords` k ON `k`.`id` = `x`.`keyword_id` WHERE `x`.`bug_id` IN (?...) UNION ALL SELECT 4 AS `k`, `x`.`bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `g`.`name` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_groups` x JOIN `groups` g ON `g`.`id` = `x`.`group_id` WHERE `x`.`bug_id` IN (?...);

-- round trip 3
COMMIT;

-- round trip 4
INSERT INTO `bug_cc` (`bug_id`, `user_id`) VALUES (?, ?);
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
UPDATE `bugs` SET `whiteboard` = ?, `last_change_time` = ?, `revision` = `revision` + 1 WHERE `id` = ?;
INSERT INTO `bug_activity` (`bug_id`, `attachment_id`, `comment_id`, `user_id`, `changed_at`, `field_name`, `removed`, `added`) VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `bug_changes` (`bug_id`, `kinds`, `changed_at`) VALUES (?, ?, ?);
SELECT `b`.`id` AS `c_id`, `b`.`revision` AS `c_revision`, 1 AS `c_visible`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `c_settings_mark` FROM `bugs` b WHERE `b`.`id` IN (?...);
COMMIT;

-- round trip 5
START TRANSACTION;
SELECT `id` FROM `bugs` WHERE `id` IN (?...) FOR UPDATE;
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;
SELECT `b`.`id` AS `c_id`, `b`.`revision` AS `c_revision`, 1 AS `c_visible`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `c_settings_mark` FROM `bugs` b WHERE `b`.`id` IN (?...);
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
SELECT 1 AS `k`, `bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `alias` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_aliases` WHERE `bug_id` IN (?...) UNION ALL SELECT 2 AS `k`, `x`.`bug_id` AS `bug_id`, `u`.`id` AS `n1`, NULL AS `n2`, NULL AS `x`, `u`.`login_name` AS `s1`, `u`.`realname` AS `s2`, `u`.`email` AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_cc` x JOIN `users` u ON `u`.`id` = `x`.`user_id` WHERE `x`.`bug_id` IN (?...) UNION ALL SELECT 3 AS `k`, `x`.`bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `k`.`name` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_keywords` x JOIN `keywords` k ON `k`.`id` = `x`.`keyword_id` WHERE `x`.`bug_id` IN (?...) UNION ALL SELECT 4 AS `k`, `x`.`bug_id` AS `bug_id`, NULL AS `n1`, NULL AS `n2`, NULL AS `x`, `g`.`name` AS `s1`, NULL AS `s2`, NULL AS `s3`, NULL AS `s4`, NULL AS `s5`, NULL AS `s6` FROM `bug_groups` x JOIN `groups` g ON `g`.`id` = `x`.`group_id` WHERE `x`.`bug_id` IN (?...);

-- round trip 6
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
UPDATE `bugs` SET `whiteboard` = ?, `last_change_time` = ?, `revision` = `revision` + 1 WHERE `id` = ?;
INSERT INTO `bug_activity` (`bug_id`, `attachment_id`, `comment_id`, `user_id`, `changed_at`, `field_name`, `removed`, `added`) VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `bug_changes` (`bug_id`, `kinds`, `changed_at`) VALUES (?, ?, ?), (?, ?, ?);
SAVEPOINT tracker_step_1;
INSERT INTO `bug_cc` (`bug_id`, `user_id`) VALUES (?, ?);
SELECT `BugAlias`.`bug_id` AS `BugAlias_bug_id`, `BugAlias`.`alias` AS `BugAlias_alias`, `BugAlias`.`id` AS `BugAlias_id` FROM `bug_aliases` `BugAlias` WHERE ((`BugAlias`.`alias` IN (?...))) LOCK IN SHARE MODE;

-- round trip 7
ROLLBACK TO SAVEPOINT tracker_step_1;
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
UPDATE `bugs` SET `whiteboard` = ?, `last_change_time` = ?, `revision` = `revision` + 1 WHERE `id` = ?;
INSERT INTO `bug_activity` (`bug_id`, `attachment_id`, `comment_id`, `user_id`, `changed_at`, `field_name`, `removed`, `added`) VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?);
INSERT INTO `bug_changes` (`bug_id`, `kinds`, `changed_at`) VALUES (?, ?, ?), (?, ?, ?);
SELECT `b`.`id` AS `c_id`, `b`.`revision` AS `c_revision`, 1 AS `c_visible`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `c_settings_mark` FROM `bugs` b WHERE `b`.`id` IN (?...);
COMMIT;
