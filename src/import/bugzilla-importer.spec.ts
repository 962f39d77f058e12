import { bugzillaCommentText, redactedUrl } from './bugzilla-importer.js';
import { summaryText } from './import-command.js';

describe("Bugzilla's comment texts (Bugzilla::Comment::body_full, as the fixture's answers show them)", () => {
  it('puts the duplicate notice after the text, even an empty one', () => {
    expect(bugzillaCommentText(1, 'Same root cause.', '229', undefined)).toBe('Same root cause.\n\n*** This bug has been marked as a duplicate of bug 229 ***');
    expect(bugzillaCommentText(1, '', '1', undefined)).toBe('\n\n*** This bug has been marked as a duplicate of bug 1 ***');
  });

  it('puts the notice of a duplicate before the text, when there is one', () => {
    expect(bugzillaCommentText(2, '', '3', undefined)).toBe('*** Bug 3 has been marked as a duplicate of this bug. ***');
    expect(bugzillaCommentText(2, 'Same.', '3', undefined)).toBe('*** Bug 3 has been marked as a duplicate of this bug. ***\n\nSame.');
  });

  it("names the attachment with its description on the next line", () => {
    expect(bugzillaCommentText(5, 'Here is a patch.', '43', 'Proposed fix')).toBe('Created attachment 43\nProposed fix\n\nHere is a patch.');
    expect(bugzillaCommentText(5, '', '4', 'URL wins?')).toBe('Created attachment 4\nURL wins?');
    expect(bugzillaCommentText(6, 'Looks good.', '4', 'URL wins?')).toBe('Comment on attachment 4\nURL wins?\n\nLooks good.');
  });

  it('leaves a normal comment as it is', () => {
    expect(bugzillaCommentText(0, 'Steps: start the widget.', null, undefined)).toBe('Steps: start the widget.');
  });
});

describe('the source URL shown and kept', () => {
  it('masks the password', () => {
    expect(redactedUrl('mysql://bugs:secret@db.example.com/bugs')).toBe('mysql://bugs:***@db.example.com/bugs');
    expect(redactedUrl('mariadb://root@127.0.0.1:3306/bugs')).toBe('mariadb://root@127.0.0.1:3306/bugs');
  });
});

describe('the summary', () => {
  it('lists the rows per kind, the parameters left out and the warnings', () => {
    const summary = { checked: false, sinceLast: false, counts: { users: 2, bugs: 3 }, skippedParameters: ['LDAPserver'], warnings: ['a warning'], seconds: 1.25 };
    expect(summaryText(summary, 'mysql://bugs:pw@db/bugs')).toBe(
      'Imported from mysql://bugs:***@db/bugs in 1.3 s.\n  users: 2\n  bugs: 3\n  parameters Tracker does not have (left out): LDAPserver\nWarning: a warning\n',
    );
    expect(summaryText({ ...summary, checked: true, skippedParameters: [], warnings: [] }, 'mysql://db/bugs')).toBe(
      'Check of the import from mysql://db/bugs: it can be imported; nothing was written.\n  users: 2\n  bugs: 3\n',
    );
  });
});
