import { CommentType } from '../bug/bug-comments.js';
import { commentText, presentComment } from './comment.presenter.js';

describe('comment presenter', () => {
  const row = { id: 7, bugId: 3, userId: 1, creationTime: '2024-02-03 04:05:06', text: 'Hello', isPrivate: false, type: CommentType.NORMAL, extraData: null, attachmentId: null, count: 2 };

  it('shows the Comment object with time equal to creation_time, and tags only when given', () => {
    expect(presentComment(row, 'a@example.com', ['spam'])).toEqual({
      id: 7, bug_id: 3, attachment_id: null, count: 2, text: 'Hello', creator: 'a@example.com',
      time: '2024-02-03T04:05:06Z', creation_time: '2024-02-03T04:05:06Z', is_private: false, tags: ['spam'],
    });
    expect(presentComment(row, 'a@example.com', undefined)).not.toHaveProperty('tags');
  });

  it('adds the notice of a duplicate or attachment comment to its text', () => {
    expect(commentText({ type: CommentType.DUPE_OF, text: 'Same crash.', extraData: '12' })).toBe('Same crash.\n\n*** This bug has been marked as a duplicate of bug 12 ***');
    expect(commentText({ type: CommentType.DUPE_OF, text: '', extraData: '12' })).toBe('*** This bug has been marked as a duplicate of bug 12 ***');
    expect(commentText({ type: CommentType.HAS_DUPE, text: '', extraData: '9' })).toBe('*** Bug 9 has been marked as a duplicate of this bug. ***');
    expect(commentText({ type: CommentType.ATTACHMENT_CREATED, text: 'A log', extraData: '4' })).toBe('Created attachment 4\n\nA log');
  });
});
