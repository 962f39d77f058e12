-- A warm Create Bug by API key with a cc list and a see-also, mailing the cc: the statements the service sends, one block per statement SQLite runs.
-- Written by test/e2e/bug-create.e2e-spec.ts, "Create Bug (POST /rest/bug) round trips (SQL snapshots src/bug/sql/create-bug*) the lists of a new bug name its held id; a mail to someone asks for the number, and says it (records statements, reads the outbox)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=sqlite \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns bug-create.e2e-spec.ts

-- statement 1
SELECT "k"."id", "k"."user_id", "k"."revoked", "k"."last_used", (SELECT "version" FROM "change_marks" WHERE "name" = 'settings') AS "settings_mark"
         FROM "api_keys" k  WHERE "k"."key_hash" = ?;

-- statement 2
BEGIN TRANSACTION;

-- statement 3
INSERT INTO "bugs" ("summary", "status", "resolution", "product_id", "component_id", "version", "target_milestone", "op_sys", "platform", "priority", "severity", "reporter_id", "assigned_to_id", "qa_contact_id", "url", "whiteboard", "is_confirmed", "is_creator_accessible", "is_cc_accessible", "estimated_time", "remaining_time", "deadline", "creation_time", "last_change_time") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 4
INSERT INTO "bug_cc" ("bug_id", "user_id") VALUES (?, ?);

-- statement 5
INSERT INTO "bug_see_also" ("bug_id", "url") VALUES (?, ?);

-- statement 6
INSERT INTO "comments" ("bug_id", "user_id", "creation_time", "text", "work_time", "is_private", "type", "extra_data", "attachment_id") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 7
INSERT INTO "mail_queue" ("created_at", "to_address", "subject", "body", "headers", "attempts", "next_attempt_at", "last_error", "sent_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- statement 8
INSERT INTO "bug_changes" ("bug_id", "kinds", "changed_at") VALUES (?, ?, ?);

-- statement 9
COMMIT;
