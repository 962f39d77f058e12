-- Changes made in the Bugzilla of the fixture after a first import (test/e2e/import-bugzilla.e2e-spec.ts, --since-last):
-- bug 2 retitled and commented, bug 308 filed, bug 307 deleted, a user created. Times are the server's clock, after
-- the import's reading.
UPDATE bugs SET short_desc = 'Retitled in Bugzilla after the import', delta_ts = NOW() + INTERVAL 1 SECOND WHERE bug_id = 2;
INSERT INTO bugs_activity (bug_id, who, bug_when, fieldid, removed, added)
  SELECT 2, 1, NOW() + INTERVAL 1 SECOND, id, 'Old title', 'Retitled in Bugzilla after the import' FROM fielddefs WHERE name = 'short_desc';
INSERT INTO longdescs (bug_id, who, bug_when, thetext) VALUES (2, 2, NOW() + INTERVAL 1 SECOND, 'A comment made in Bugzilla after the import');
CREATE TEMPORARY TABLE filed AS SELECT * FROM bugs WHERE bug_id = 1;
UPDATE filed SET bug_id = 308, short_desc = 'Filed in Bugzilla after the import', creation_ts = NOW() + INTERVAL 1 SECOND, delta_ts = NOW() + INTERVAL 1 SECOND;
INSERT INTO bugs SELECT * FROM filed;
INSERT INTO longdescs (bug_id, who, bug_when, thetext) VALUES (308, 3, NOW() + INTERVAL 1 SECOND, 'Its description');
-- Every table naming a bug deletes its rows with it (ON DELETE CASCADE in Bugzilla's schema).
DELETE FROM bugs WHERE bug_id = 307;
INSERT INTO profiles (login_name, cryptpassword, realname, disabledtext, disable_mail, mybugslink, is_enabled)
  VALUES ('late@example.com', NULL, 'Late Comer', '', 0, 1, 1);
