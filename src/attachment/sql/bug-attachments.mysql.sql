-- A warm Get Attachments of a bug by API key: the statements the service sends, one block per round trip to MariaDB/MySQL.
-- Written by test/e2e/attachment.e2e-spec.ts, "Attachments (Create, Get, Update Attachment) create and read back the bug's visibility rides with the caller's key when its attachments are asked (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=mysql TEST_DATABASE_URL=mysql://root@127.0.0.1:3306 \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns attachment.e2e-spec.ts

-- round trip 1
SELECT `b`.`id` AS `c_id`, CASE WHEN ((NOT EXISTS (SELECT 1 FROM `bug_groups` vg WHERE `vg`.`bug_id` = `b`.`id`) OR EXISTS (SELECT 1 FROM `bug_groups` vg WHERE `vg`.`bug_id` = `b`.`id` AND `vg`.`group_id` IN (?...))) OR `b`.`assigned_to_id` = ? OR (`b`.`is_creator_accessible` = 1 AND `b`.`reporter_id` = ?) OR (`b`.`is_cc_accessible` = 1 AND EXISTS (SELECT 1 FROM `bug_cc` vc WHERE `vc`.`bug_id` = `b`.`id` AND `vc`.`user_id` = ?))) THEN 1 ELSE 0 END AS `c_visible`, `k`.`id`, `k`.`user_id`, `k`.`revoked`, `k`.`last_used`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `settings_mark`
         FROM `api_keys` k LEFT JOIN `bugs` b ON `b`.`id` IN (?...) WHERE `k`.`key_hash` = ?;

-- round trip 2
SELECT `Attachment`.`id` AS `Attachment_id`, `Attachment`.`bug_id` AS `Attachment_bug_id`, `Attachment`.`creation_time` AS `Attachment_creation_time`, `Attachment`.`last_change_time` AS `Attachment_last_change_time`, `Attachment`.`summary` AS `Attachment_summary`, `Attachment`.`content_type` AS `Attachment_content_type`, `Attachment`.`is_patch` AS `Attachment_is_patch`, `Attachment`.`file_name` AS `Attachment_file_name`, `Attachment`.`creator_id` AS `Attachment_creator_id`, `Attachment`.`is_obsolete` AS `Attachment_is_obsolete`, `Attachment`.`is_private` AS `Attachment_is_private`, `Attachment`.`size` AS `Attachment_size` FROM `attachments` `Attachment` WHERE ((`Attachment`.`bug_id` IN (?...))) ORDER BY `Attachment`.`id` ASC;

-- round trip 3
SELECT `Flag`.`id` AS `Flag_id`, `Flag`.`type_id` AS `Flag_type_id`, `Flag`.`status` AS `Flag_status`, `Flag`.`bug_id` AS `Flag_bug_id`, `Flag`.`attachment_id` AS `Flag_attachment_id`, `Flag`.`creation_date` AS `Flag_creation_date`, `Flag`.`modification_date` AS `Flag_modification_date`, `Flag`.`setter_id` AS `Flag_setter_id`, `Flag`.`requestee_id` AS `Flag_requestee_id`, `Flag__Flag_type`.`id` AS `Flag__Flag_type_id`, `Flag__Flag_type`.`name` AS `Flag__Flag_type_name`, `Flag__Flag_type`.`description` AS `Flag__Flag_type_description`, `Flag__Flag_type`.`cc_list` AS `Flag__Flag_type_cc_list`, `Flag__Flag_type`.`target_type` AS `Flag__Flag_type_target_type`, `Flag__Flag_type`.`is_active` AS `Flag__Flag_type_is_active`, `Flag__Flag_type`.`is_requestable` AS `Flag__Flag_type_is_requestable`, `Flag__Flag_type`.`is_requesteeble` AS `Flag__Flag_type_is_requesteeble`, `Flag__Flag_type`.`is_multiplicable` AS `Flag__Flag_type_is_multiplicable`, `Flag__Flag_type`.`sortkey` AS `Flag__Flag_type_sortkey`, `Flag__Flag_type`.`grant_group_id` AS `Flag__Flag_type_grant_group_id`, `Flag__Flag_type`.`request_group_id` AS `Flag__Flag_type_request_group_id` FROM `flags` `Flag` LEFT JOIN `flag_types` `Flag__Flag_type` ON `Flag__Flag_type`.`id`=`Flag`.`type_id` WHERE ((`Flag`.`attachment_id` IN (?...))) ORDER BY `Flag`.`id` ASC;

-- round trip 4
SELECT `id`, `login_name`, `email`, `realname`, `cryptpassword`, `login_denied_text`, `email_enabled`, `creation_ts`, `last_seen_date` FROM `users` WHERE `id` IN (?...);

-- round trip 5
SELECT `d`.`attachment_id` AS `id`, `d`.`data` AS `data` FROM `attachment_data` `d` WHERE `d`.`attachment_id` IN (?...);
