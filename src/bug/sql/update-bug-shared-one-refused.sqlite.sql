-- Six one-bug Update Bugs arriving together while the bug is locked, the fourth refused (103) before its writes left: the statements the service sends, one block per statement SQLite runs.
-- Written by test/e2e/concurrency.e2e-spec.ts, "concurrency: updates of one bug that arrive together share a transaction five good updates and one refused among them, arriving together refused while all it wrote was still held it is dropped with its savepoint, never sent: two transactions, the five good ones in the second (records statements)". After a meant change, write it again with:
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
COMMIT;

-- statement 10
BEGIN TRANSACTION;

-- statement 11
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 12
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

-- statement 13
SELECT 1 AS "k", "bug_id" AS "bug_id", NULL AS "n1", NULL AS "n2", NULL AS "x", "alias" AS "s1", NULL AS "s2", NULL AS "s3", NULL AS "s4", NULL AS "s5", NULL AS "s6" FROM "bug_aliases" WHERE "bug_id" IN (?...) UNION ALL SELECT 2 AS "k", "x"."bug_id" AS "bug_id", "u"."id" AS "n1", NULL AS "n2", NULL AS "x", "u"."login_name" AS "s1", "u"."realname" AS "s2", "u"."email" AS "s3", NULL AS "s4", NULL AS "s5", NULL AS "s6" FROM "bug_cc" x JOIN "users" u ON "u"."id" = "x"."user_id" WHERE "x"."bug_id" IN (?...) UNION ALL SELECT 3 AS "k", "x"."bug_id" AS "bug_id", NULL AS "n1", NULL AS "n2", NULL AS "x", "k"."name" AS "s1", NULL AS "s2", NULL AS "s3", NULL AS "s4", NULL AS "s5", NULL AS "s6" FROM "bug_keywords" x JOIN "keywords" k ON "k"."id" = "x"."keyword_id" WHERE "x"."bug_id" IN (?...) UNION ALL SELECT 4 AS "k", "x"."bug_id" AS "bug_id", NULL AS "n1", NULL AS "n2", NULL AS "x", "g"."name" AS "s1", NULL AS "s2", NULL AS "s3", NULL AS "s4", NULL AS "s5", NULL AS "s6" FROM "bug_groups" x JOIN "groups" g ON "g"."id" = "x"."group_id" WHERE "x"."bug_id" IN (?...);

-- statement 14
INSERT INTO "bug_cc" ("bug_id", "user_id") VALUES (?, ?);

-- statement 15
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 16
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 17
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 18
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 19
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 20
COMMIT;

-- statement 21
BEGIN TRANSACTION;

-- statement 22
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 23
SAVEPOINT tracker_step_1;

-- statement 24
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 25
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 26
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 27
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 28
SAVEPOINT tracker_step_2;

-- statement 29
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 30
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 31
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 32
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 33
SAVEPOINT tracker_step_3;

-- statement 34
INSERT INTO "bug_cc" ("bug_id", "user_id") VALUES (?, ?);

-- statement 35
ROLLBACK TO SAVEPOINT tracker_step_3;

-- statement 36
SAVEPOINT tracker_step_4;

-- statement 37
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 38
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 39
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 40
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 41
SAVEPOINT tracker_step_5;

-- statement 42
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 43
UPDATE "bugs" SET "whiteboard" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 44
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 45
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 46
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 47
COMMIT;
