import { joinActivityEntries } from './bug-history.service.js';

describe("joinActivityEntries (Bugzilla::Util's join_activity_entries)", () => {
  it('gives the second text when the first is empty', () => {
    expect(joinActivityEntries('keywords', '', 'crash')).toBe('crash');
    expect(joinActivityEntries('depends_on', '', '7')).toBe('7');
  });

  it('joins lists of bugs and See Also with a comma, the URL as it is, anything else with a space', () => {
    expect(joinActivityEntries('depends_on', '5', '7')).toBe('5, 7');
    expect(joinActivityEntries('blocks', '5', '7')).toBe('5, 7');
    expect(joinActivityEntries('see_also', 'https://a.example/1', 'https://b.example/2')).toBe('https://a.example/1, https://b.example/2');
    expect(joinActivityEntries('url', 'https://example.com/a', 'bc')).toBe('https://example.com/abc');
    expect(joinActivityEntries('cc', 'a@example.com', 'b@example.com')).toBe('a@example.com b@example.com');
  });

  it('adds nothing when the second text starts with a comma or a space (a row LogActivityEntry split)', () => {
    expect(joinActivityEntries('depends_on', '5', ', 7')).toBe('5, 7');
    expect(joinActivityEntries('cc', 'a@example.com', ', b@example.com')).toBe('a@example.com, b@example.com');
    expect(joinActivityEntries('whiteboard', 'one', ' two')).toBe('one two');
  });

  it('keeps a separator before an empty second text, as Bugzilla does', () => {
    expect(joinActivityEntries('cc', 'a@example.com', '')).toBe('a@example.com ');
  });
});
