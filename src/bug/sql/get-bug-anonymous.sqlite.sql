-- A warm anonymous Get Bug of a kept bug in no group: the statements the service sends, one block per statement SQLite runs.
-- Written by test/e2e/kept-answers.e2e-spec.ts, "kept bug answers are never another caller's, another selection's or stale the stamps read with the credential (BugStampsCompanion): one statement, never for another caller a warm anonymous Get Bug of a kept bug (records statements)". After a meant change, write it again with:
--   UPDATE_SQL_SNAPSHOTS=1 TEST_DIALECT=sqlite \
--   node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects e2e --testPathPatterns kept-answers.e2e-spec.ts

-- statement 1
SELECT "b"."id" AS "c_id", "b"."revision" AS "c_revision", "m"."version" AS "settings" FROM "change_marks" m LEFT JOIN "bugs" b ON "b"."id" IN (?...) WHERE "m"."name" = 'settings';
