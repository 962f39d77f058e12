-- Eight one-bug Update Bugs (whiteboard, comment) arriving together while the bug is locked: the statements the service sends, one block per statement SQLite runs.
-- Written by test/e2e/concurrency.e2e-spec.ts, "concurrency: updates of one bug that arrive together share a transaction eight updates arriving together the first goes alone, the seven that waited behind it in one transaction: no savepoint sent, one statement per table (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=sqlite \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns concurrency.e2e-spec.ts

-- statement 1
BEGIN TRANSACTION;

-- statement 2
SELECT "b"."id" AS "b_id", "b"."summary" AS "b_summary", "b"."status" AS "b_status", "b"."resolution" AS "b_resolution", "b"."product_id" AS "b_product_id", "b"."component_id" AS "b_component_id", "b"."version" AS "b_version", "b"."target_milestone" AS "b_target_milestone", "b"."op_sys" AS "b_op_sys", "b"."platform" AS "b_platform", "b"."priority" AS "b_priority", "b"."severity" AS "b_severity", "b"."reporter_id" AS "b_reporter_id", "b"."assigned_to_id" AS "b_assigned_to_id", "b"."qa_contact_id" AS "b_qa_contact_id", "b"."url" AS "b_url", "b"."whiteboard" AS "b_whiteboard", "b"."is_confirmed" AS "b_is_confirmed", "b"."is_creator_accessible" AS "b_is_creator_accessible", "b"."is_cc_accessible" AS "b_is_cc_accessible", "b"."estimated_time" AS "b_estimated_time", "b"."remaining_time" AS "b_remaining_time", "b"."deadline" AS "b_deadline", "b"."creation_time" AS "b_creation_time", "b"."type" AS "b_type", "b"."filed_via" AS "b_filed_via", "b"."last_change_time" AS "b_last_change_time", "b"."revision" AS "b_revision" FROM "bugs" "b" WHERE "b"."id" = ?;

-- statement 3
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 4
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 5
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 6
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 7
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 8
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 9
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 10
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 11
COMMIT;

-- statement 12
BEGIN TRANSACTION;

-- statement 13
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 14
SELECT b.*, "p"."name" AS "product_name", "c"."name" AS "component_name", "cl"."name" AS "classification_name",
              "r"."id" AS "r_id", "r"."login_name" AS "r_login", "r"."realname" AS "r_realname", "r"."email" AS "r_email", "a"."id" AS "a_id", "a"."login_name" AS "a_login", "a"."realname" AS "a_realname", "a"."email" AS "a_email", "q"."id" AS "q_id", "q"."login_name" AS "q_login", "q"."realname" AS "q_realname", "q"."email" AS "q_email", "d"."dupe_of_id", "sv"."is_open", 1 AS "visible"
         FROM "bugs" b
         JOIN "products" p ON "p"."id" = "b"."product_id"
         JOIN "components" c ON "c"."id" = "b"."component_id"
         LEFT JOIN "classifications" cl ON "cl"."id" = "p"."classification_id"
         JOIN "users" r ON "r"."id" = "b"."reporter_id"
         JOIN "users" a ON "a"."id" = "b"."assigned_to_id"
         LEFT JOIN "users" q ON "q"."id" = "b"."qa_contact_id"
         LEFT JOIN "bug_duplicates" d ON "d"."dupe_id" = "b"."id"
         LEFT JOIN "fielddefs" sf ON "sf"."name" = 'bug_status'
         LEFT JOIN "field_values" sv ON "sv"."field_id" = "sf"."id" AND "sv"."value" = "b"."status"
        WHERE "b"."id" IN (?...);

-- statement 15
SELECT 1 AS "k", "bug_id" AS "bug_id", NULL AS "n1", NULL AS "n2", NULL AS "x", "alias" AS "s1", NULL AS "s2", NULL AS "s3", NULL AS "s4", NULL AS "s5", NULL AS "s6" FROM "bug_aliases" WHERE "bug_id" IN (?...) UNION ALL SELECT 2 AS "k", "x"."bug_id" AS "bug_id", "u"."id" AS "n1", NULL AS "n2", NULL AS "x", "u"."login_name" AS "s1", "u"."realname" AS "s2", "u"."email" AS "s3", NULL AS "s4", NULL AS "s5", NULL AS "s6" FROM "bug_cc" x JOIN "users" u ON "u"."id" = "x"."user_id" WHERE "x"."bug_id" IN (?...) UNION ALL SELECT 3 AS "k", "x"."bug_id" AS "bug_id", NULL AS "n1", NULL AS "n2", NULL AS "x", "k"."name" AS "s1", NULL AS "s2", NULL AS "s3", NULL AS "s4", NULL AS "s5", NULL AS "s6" FROM "bug_keywords" x JOIN "keywords" k ON "k"."id" = "x"."keyword_id" WHERE "x"."bug_id" IN (?...) UNION ALL SELECT 4 AS "k", "x"."bug_id" AS "bug_id", NULL AS "n1", NULL AS "n2", NULL AS "x", "g"."name" AS "s1", NULL AS "s2", NULL AS "s3", NULL AS "s4", NULL AS "s5", NULL AS "s6" FROM "bug_groups" x JOIN "groups" g ON "g"."id" = "x"."group_id" WHERE "x"."bug_id" IN (?...);

-- statement 16
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 17
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 18
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 19
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 20
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 21
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 22
COMMIT;

-- statement 23
BEGIN TRANSACTION;

-- statement 24
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 25
SAVEPOINT tracker_step_1;

-- statement 26
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 27
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 28
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 29
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 30
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 31
SAVEPOINT tracker_step_2;

-- statement 32
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 33
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 34
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 35
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 36
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 37
SAVEPOINT tracker_step_3;

-- statement 38
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 39
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 40
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 41
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 42
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 43
SAVEPOINT tracker_step_4;

-- statement 44
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 45
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 46
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 47
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 48
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 49
SAVEPOINT tracker_step_5;

-- statement 50
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 51
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 52
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 53
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 54
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 55
SAVEPOINT tracker_step_6;

-- statement 56
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 57
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 58
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 59
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 60
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 61
SAVEPOINT tracker_step_7;

-- statement 62
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 63
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 64
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 65
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 66
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 67
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 68
COMMIT;
