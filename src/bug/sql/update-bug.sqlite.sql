-- A warm one-bug Update Bug (status, cc, comment) by API key, of a kept bug in no group: the statements the service sends, one block per statement SQLite runs.
-- Written by test/e2e/bug-update.e2e-spec.ts, "Update Bug (PUT /rest/bug/(id_or_alias)): fields, object shapes, response, history round trips (SQL snapshots src/bug/sql/update-bug*) a warm status + cc + comment update of a bug in no group: on MySQL two round trips, both under its lock (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=sqlite \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns bug-update.e2e-spec.ts

-- statement 1
SELECT "b"."id" AS "c_id", CASE WHEN ((NOT EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id") OR EXISTS (SELECT 1 FROM "bug_groups" vg WHERE "vg"."bug_id" = "b"."id" AND "vg"."group_id" IN (?...))) OR "b"."assigned_to_id" = ? OR ("b"."is_creator_accessible" = 1 AND "b"."reporter_id" = ?) OR ("b"."is_cc_accessible" = 1 AND EXISTS (SELECT 1 FROM "bug_cc" vc WHERE "vc"."bug_id" = "b"."id" AND "vc"."user_id" = ?))) THEN 1 ELSE 0 END AS "c_visible", "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "k"."key_hash" = ?;

-- statement 2
BEGIN TRANSACTION;

-- statement 3
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 4
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 5
UPDATE "bugs" SET "status" = ?, "last_change_time" = ?, "revision" = "revision" + 1 WHERE "id" = ?;

-- statement 6
INSERT INTO "bug_activity" ("bug_id", "attachment_id", "comment_id", "user_id", "changed_at", "field_name", "removed", "added") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- statement 7
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 8
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 9
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", 1 AS "c_visible", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "c_settings_mark" FROM "bugs" b WHERE "b"."id" IN (?...);

-- statement 10
COMMIT;
