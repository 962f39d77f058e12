import { bugzillaCommentText, redactedUrl } from './bugzilla-importer.js';

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
