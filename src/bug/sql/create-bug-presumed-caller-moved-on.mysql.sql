-- A Create Bug presuming a caller whose settings moved on through another instance: the statements the service sends, one block per round trip to MariaDB/MySQL.
-- Written by test/e2e/presumed-caller.e2e-spec.ts, "a presumed caller commits only while its credential still names it a presumed create whose caller's settings moved on rolls back and runs again as the credential names them now (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=mysql TEST_DATABASE_URL=mysql://root@127.0.0.1:3306 \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns presumed-caller.e2e-spec.ts

-- round trip 1
START TRANSACTION;
INSERT INTO `bugs` (`summary`, `status`, `resolution`, `product_id`, `component_id`, `version`, `target_milestone`, `op_sys`, `platform`, `priority`, `severity`, `reporter_id`, `assigned_to_id`, `qa_contact_id`, `url`, `whiteboard`, `is_confirmed`, `is_creator_accessible`, `is_cc_accessible`, `estimated_time`, `remaining_time`, `deadline`, `creation_time`, `last_change_time`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
SET @tracker_new_row_1 = LAST_INSERT_ID();
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (@tracker_new_row_1, ?, ?, ?, ?, ?, ?, ?, ?);
SELECT ~0 + (NOT EXISTS (SELECT 1 FROM `api_keys` k WHERE `k`.`key_hash` = ? AND `k`.`revoked` = 0 AND `k`.`user_id` = ?
         AND COALESCE((SELECT `version` FROM `change_marks` WHERE `name` = 'settings'), 0) = ?)) AS `caller_unchanged`;

-- round trip 2
ROLLBACK;

-- round trip 3
SELECT `k`.`id`, `k`.`user_id`, `k`.`revoked`, `k`.`last_used`, (SELECT `version` FROM `change_marks` WHERE `name` = 'settings') AS `settings_mark`
         FROM `api_keys` k  WHERE `k`.`key_hash` = ?;

-- round trip 4
SELECT `id`, `login_name`, `email`, `realname`, `cryptpassword`, `login_denied_text`, `email_enabled`, `creation_ts`, `last_seen_date` FROM `users` WHERE `id` IN (?...);

-- round trip 5
SELECT 'u' AS `kind`, `user_id` AS `a`, `group_id` AS `b`, `is_bless` AS `c`, NULL AS `name`
         FROM `user_group_map` WHERE `user_id` IN (?...)
       UNION ALL SELECT 'g', `member_id`, `grantor_id`, `grant_type`, NULL FROM `group_group_map`
       UNION ALL SELECT 'n', `id`, 0, NULL, `name` FROM `groups`;

-- round trip 6
SELECT `Parameter`.`name` AS `Parameter_name`, `Parameter`.`value` AS `Parameter_value` FROM `parameters` `Parameter`;

-- round trip 7
SELECT `FieldDefinition`.`id` AS `FieldDefinition_id`, `FieldDefinition`.`name` AS `FieldDefinition_name`, `FieldDefinition`.`description` AS `FieldDefinition_description`, `FieldDefinition`.`type` AS `FieldDefinition_type`, `FieldDefinition`.`custom` AS `FieldDefinition_custom`, `FieldDefinition`.`obsolete` AS `FieldDefinition_obsolete`, `FieldDefinition`.`mailhead` AS `FieldDefinition_mailhead`, `FieldDefinition`.`sortkey` AS `FieldDefinition_sortkey`, `FieldDefinition`.`enter_bug` AS `FieldDefinition_enter_bug`, `FieldDefinition`.`buglist` AS `FieldDefinition_buglist`, `FieldDefinition`.`is_mandatory` AS `FieldDefinition_is_mandatory`, `FieldDefinition`.`is_numeric` AS `FieldDefinition_is_numeric`, `FieldDefinition`.`visibility_field_id` AS `FieldDefinition_visibility_field_id`, `FieldDefinition`.`value_field_id` AS `FieldDefinition_value_field_id`, `FieldDefinition`.`reverse_desc` AS `FieldDefinition_reverse_desc` FROM `fielddefs` `FieldDefinition` WHERE ((`FieldDefinition`.`obsolete` = ?) AND (`FieldDefinition`.`custom` = ?)) ORDER BY `FieldDefinition`.`sortkey` ASC, `FieldDefinition`.`name` ASC;

-- round trip 8
SELECT `p`.`id` AS `p_id`, `p`.`name` AS `p_name`, `p`.`classification_id` AS `p_classification_id`, `p`.`description` AS `p_description`, `p`.`is_active` AS `p_is_active`, `p`.`default_milestone` AS `p_default_milestone`, `p`.`has_unconfirmed` AS `p_has_unconfirmed`, `c`.`id` AS `c_id`, `c`.`name` AS `c_name`, `c`.`description` AS `c_description`, `c`.`sortkey` AS `c_sortkey` FROM `products` `p` LEFT JOIN `classifications` `c` ON `c`.`id`=`p`.`classification_id` WHERE `p`.`name` = ?;

-- round trip 9
SELECT `GroupControl`.`product_id` AS `GroupControl_product_id`, `GroupControl`.`group_id` AS `GroupControl_group_id`, `GroupControl`.`entry` AS `GroupControl_entry`, `GroupControl`.`membercontrol` AS `GroupControl_membercontrol`, `GroupControl`.`othercontrol` AS `GroupControl_othercontrol`, `GroupControl`.`canedit` AS `GroupControl_canedit`, `GroupControl`.`editcomponents` AS `GroupControl_editcomponents`, `GroupControl`.`editbugs` AS `GroupControl_editbugs`, `GroupControl`.`canconfirm` AS `GroupControl_canconfirm` FROM `group_control_map` `GroupControl` WHERE ((`GroupControl`.`product_id` IN (?...))) ORDER BY `GroupControl`.`product_id` ASC;

-- round trip 10
SELECT `Component`.`id` AS `Component_id`, `Component`.`name` AS `Component_name`, `Component`.`product_id` AS `Component_product_id`, `Component`.`default_assignee_id` AS `Component_default_assignee_id`, `Component`.`default_qa_contact_id` AS `Component_default_qa_contact_id`, `Component`.`description` AS `Component_description`, `Component`.`is_active` AS `Component_is_active`, `Component`.`sortkey` AS `Component_sortkey`, `Component`.`default_bug_type` AS `Component_default_bug_type`, `Component`.`triage_owner_id` AS `Component_triage_owner_id` FROM `components` `Component` WHERE ((`Component`.`product_id` IN (?...))) ORDER BY `Component`.`product_id` ASC, `Component`.`sortkey` ASC, `Component`.`name` ASC;

-- round trip 11
SELECT `ComponentCc`.`component_id` AS `ComponentCc_component_id`, `ComponentCc`.`user_id` AS `ComponentCc_user_id` FROM `component_cc` `ComponentCc` WHERE ((`ComponentCc`.`component_id` IN (?...))) ORDER BY `ComponentCc`.`user_id` ASC;

-- round trip 12
SELECT `Component`.`id` AS `Component_id`, `Component`.`name` AS `Component_name`, `Component`.`product_id` AS `Component_product_id`, `Component`.`default_assignee_id` AS `Component_default_assignee_id`, `Component`.`default_qa_contact_id` AS `Component_default_qa_contact_id`, `Component`.`description` AS `Component_description`, `Component`.`is_active` AS `Component_is_active`, `Component`.`sortkey` AS `Component_sortkey`, `Component`.`default_bug_type` AS `Component_default_bug_type`, `Component`.`triage_owner_id` AS `Component_triage_owner_id` FROM `components` `Component` WHERE ((`Component`.`product_id` = ?) AND (`Component`.`name` = ?)) LIMIT 1;

-- round trip 13
SELECT `ComponentCc`.`component_id` AS `ComponentCc_component_id`, `ComponentCc`.`user_id` AS `ComponentCc_user_id` FROM `component_cc` `ComponentCc` WHERE ((`ComponentCc`.`component_id` IN (?...))) ORDER BY `ComponentCc`.`user_id` ASC;

-- round trip 14
SELECT `Version`.`id` AS `Version_id`, `Version`.`value` AS `Version_value`, `Version`.`product_id` AS `Version_product_id`, `Version`.`is_active` AS `Version_is_active`, `Version`.`sortkey` AS `Version_sortkey` FROM `versions` `Version` WHERE ((`Version`.`product_id` = ?) AND (`Version`.`value` = ?)) LIMIT 1;

-- round trip 15
SELECT `Milestone`.`id` AS `Milestone_id`, `Milestone`.`value` AS `Milestone_value`, `Milestone`.`product_id` AS `Milestone_product_id`, `Milestone`.`is_active` AS `Milestone_is_active`, `Milestone`.`sortkey` AS `Milestone_sortkey` FROM `milestones` `Milestone` WHERE ((`Milestone`.`product_id` = ?) AND (`Milestone`.`value` = ?)) LIMIT 1;

-- round trip 16
SELECT `v`.`id` AS `v_id`, `v`.`field_id` AS `v_field_id`, `v`.`value` AS `v_value`, `v`.`sortkey` AS `v_sortkey`, `v`.`is_active` AS `v_is_active`, `v`.`is_open` AS `v_is_open`, `v`.`visibility_value_id` AS `v_visibility_value_id`, `f`.`id` AS `f_id`, `f`.`name` AS `f_name`, `f`.`description` AS `f_description`, `f`.`type` AS `f_type`, `f`.`custom` AS `f_custom`, `f`.`obsolete` AS `f_obsolete`, `f`.`mailhead` AS `f_mailhead`, `f`.`sortkey` AS `f_sortkey`, `f`.`enter_bug` AS `f_enter_bug`, `f`.`buglist` AS `f_buglist`, `f`.`is_mandatory` AS `f_is_mandatory`, `f`.`is_numeric` AS `f_is_numeric`, `f`.`visibility_field_id` AS `f_visibility_field_id`, `f`.`value_field_id` AS `f_value_field_id`, `f`.`reverse_desc` AS `f_reverse_desc` FROM `field_values` `v` INNER JOIN `fielddefs` `f` ON `f`.`id`=`v`.`field_id` WHERE `f`.`name` IN (?...);

-- round trip 17
SELECT `w`.`require_comment` AS `requireComment`, `t`.`value` AS `toStatus`, `f`.`value` AS `fromStatus` FROM `status_workflow` `w` INNER JOIN `field_values` `t` ON `t`.`id`=`w`.`to_status_id`  LEFT JOIN `field_values` `f` ON `f`.`id`=`w`.`from_status_id` ORDER BY `w`.`id` ASC;

-- round trip 18
START TRANSACTION;
INSERT INTO `bugs` (`summary`, `status`, `resolution`, `product_id`, `component_id`, `version`, `target_milestone`, `op_sys`, `platform`, `priority`, `severity`, `reporter_id`, `assigned_to_id`, `qa_contact_id`, `url`, `whiteboard`, `is_confirmed`, `is_creator_accessible`, `is_cc_accessible`, `estimated_time`, `remaining_time`, `deadline`, `creation_time`, `last_change_time`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
SET @tracker_new_row_1 = LAST_INSERT_ID();
INSERT INTO `comments` (`bug_id`, `user_id`, `creation_time`, `text`, `work_time`, `is_private`, `type`, `extra_data`, `attachment_id`) VALUES (@tracker_new_row_1, ?, ?, ?, ?, ?, ?, ?, ?);
SELECT `id`, `login_name`, `email`, `realname`, `cryptpassword`, `login_denied_text`, `email_enabled`, `creation_ts`, `last_seen_date` FROM `users` WHERE `id` IN (?...);

-- round trip 19
INSERT INTO `mail_queue` (`created_at`, `to_address`, `subject`, `body`, `headers`, `attempts`, `next_attempt_at`, `last_error`, `sent_at`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
SELECT `w`.`id` AS `w_id`, `w`.`owner_id` AS `w_owner_id`, `w`.`name` AS `w_name`, `w`.`url` AS `w_url`, `w`.`secret` AS `w_secret`, `w`.`format` AS `w_format`, `w`.`events` AS `w_events`, `w`.`product_id` AS `w_product_id`, `w`.`api_key_header` AS `w_api_key_header`, `w`.`api_key_value` AS `w_api_key_value`, `w`.`component_id` AS `w_component_id`, `w`.`enabled` AS `w_enabled`, `w`.`disabled_reason` AS `w_disabled_reason`, `w`.`created_at` AS `w_created_at` FROM `webhooks` `w` WHERE `w`.`enabled` = 1 OR `w`.`disabled_reason` IS NOT NULL;

-- round trip 20
INSERT INTO `bug_changes` (`bug_id`, `kinds`, `changed_at`) VALUES (@tracker_new_row_1, ?, ?);
COMMIT;
