import { caughtError } from '../common/errors/testing.js';
import { sameSeeAlso, validateSeeAlso } from './see-also.js';


const url = (input: string, urlBase?: string) => validateSeeAlso(input, { urlBase })?.url;

describe('validateSeeAlso — recognised bug trackers (updates.md see_also, errors.md 112)', () => {
  describe('Bugzilla show_bug.cgi?id=N', () => {
    it('keeps only id=N and drops the fragment', () => {
      expect(validateSeeAlso('https://bugzilla.mozilla.org/show_bug.cgi?id=123&foo=bar#c4')).toEqual({
        url: 'https://bugzilla.mozilla.org/show_bug.cgi?id=123', tracker: 'bugzilla',
      });
    });

    it('accepts an installation below a path', () => {
      expect(url('http://example.com/bugzilla/show_bug.cgi?id=007')).toBe('http://example.com/bugzilla/show_bug.cgi?id=7');
    });

    it.each([
      'https://example.com/show_bug.cgi',
      'https://example.com/show_bug.cgi?id=abc',
      'https://example.com/show_bug.cgi?id=0',
    ])('refuses %s (no numeric id) with 112', (input) => {
      const e = caughtError(() => validateSeeAlso(input));
      expect(e.code).toBe(112);
      expect(e.errorName).toBe('bug_url_invalid');
    });

    it('marks a link to this installation with the local bug ID', () => {
      expect(validateSeeAlso('https://tracker.example.com/show_bug.cgi?id=5', { urlBase: 'https://tracker.example.com/' })).toEqual({
        url: 'https://tracker.example.com/show_bug.cgi?id=5', tracker: 'bugzilla', localBugId: 5,
      });
      expect(validateSeeAlso('https://other.example.com/show_bug.cgi?id=5', { urlBase: 'https://tracker.example.com/' })?.localBugId).toBeUndefined();
      expect(validateSeeAlso('https://tracker.example.com/sub/show_bug.cgi?id=5', { urlBase: 'https://tracker.example.com' })?.localBugId).toBeUndefined();
    });
  });

  it('Launchpad: every form reduces to https://launchpad.net/bugs/N', () => {
    expect(url('https://bugs.launchpad.net/ubuntu/+bug/1234')).toBe('https://launchpad.net/bugs/1234');
    expect(url('http://launchpad.net/bugs/1234')).toBe('https://launchpad.net/bugs/1234');
    expect(validateSeeAlso('https://launchpad.net/bugs/9')?.tracker).toBe('launchpad');
  });

  it('Google Code: issues/detail?id=N, always http', () => {
    expect(validateSeeAlso('https://code.google.com/p/proj/issues/detail?id=12')).toEqual({
      url: 'http://code.google.com/p/proj/issues/detail?id=12', tracker: 'google',
    });
  });

  it('Debian: both forms reduce to http://bugs.debian.org/N', () => {
    expect(url('https://bugs.debian.org/cgi-bin/bugreport.cgi?bug=5678')).toBe('http://bugs.debian.org/5678');
    expect(url('http://bugs.debian.org/5678#foo')).toBe('http://bugs.debian.org/5678');
  });

  it('JIRA: /browse/KEY-N without query or fragment', () => {
    expect(validateSeeAlso('https://issues.apache.org/jira/browse/HADOOP-1234?focusedCommentId=1#c')).toEqual({
      url: 'https://issues.apache.org/jira/browse/HADOOP-1234', tracker: 'jira',
    });
    // A one-letter or lower-case key is not a JIRA issue.
    expect(caughtError(() => validateSeeAlso('https://jira.example.com/browse/K-1')).code).toBe(112);
    expect(caughtError(() => validateSeeAlso('https://jira.example.com/browse/key-1')).code).toBe(112);
  });

  it('Trac: /ticket/N without query or fragment', () => {
    expect(validateSeeAlso('http://dev.mutt.org/trac/ticket/1234?x=1#comment:3')).toEqual({
      url: 'http://dev.mutt.org/trac/ticket/1234', tracker: 'trac',
    });
  });

  it('MantisBT: view.php?id=N', () => {
    expect(validateSeeAlso('https://www.mantisbt.org/bugs/view.php?id=42#c1')).toEqual({
      url: 'https://www.mantisbt.org/bugs/view.php?id=42', tracker: 'mantisbt',
    });
  });

  it('SourceForge: tracker/?func=detail&aid&group_id&atid', () => {
    const sf = 'http://sourceforge.net/tracker/?func=detail&aid=111&group_id=222&atid=333';
    expect(validateSeeAlso(sf)).toEqual({ url: sf, tracker: 'sourceforge' });
    expect(caughtError(() => validateSeeAlso('http://sourceforge.net/tracker/?func=detail&aid=111')).code).toBe(112);
  });

  it('GitHub: issues and pulls, always https', () => {
    expect(validateSeeAlso('http://github.com/owner/repo/issues/12#issuecomment-3')).toEqual({
      url: 'https://github.com/owner/repo/issues/12', tracker: 'github',
    });
    expect(url('https://GitHub.com/owner/repo/pull/7')).toBe('https://github.com/owner/repo/pull/7');
  });

  it('GitLab: any depth of groups, always https, no query', () => {
    expect(validateSeeAlso('http://gitlab.com/group/sub/project/issues/53?x=1')).toEqual({
      url: 'https://gitlab.com/group/sub/project/issues/53', tracker: 'gitlab',
    });
    expect(url('https://gitlab.example.org/a/b/-/issues/9')).toBe('https://gitlab.example.org/a/b/-/issues/9');
  });

  it('a URL without scheme is taken as http', () => {
    expect(url('example.com/show_bug.cgi?id=3')).toBe('http://example.com/show_bug.cgi?id=3');
  });

  it('trims the value and lower-cases the host', () => {
    expect(url('  https://BUGS.Example.COM/show_bug.cgi?id=3  ')).toBe('https://bugs.example.com/show_bug.cgi?id=3');
  });
});

describe('validateSeeAlso — refusals', () => {
  it.each([
    ['a bare number', '1234'],
    ['"Bug N"', 'Bug 1234'],
    ['a path without host', '/show_bug.cgi?id=1'],
    ['a host without path', 'https://example.com'],
    ['an unknown tracker', 'https://example.com/some/page'],
    ['an ftp URL', 'ftp://example.com/show_bug.cgi?id=1'],
    ['a mailto URL', 'mailto:someone@example.com'],
    ['a URL with blanks', 'https://example.com/ticket 1/ticket/2'],
    ['an empty host', 'http:///show_bug.cgi?id=1'],
  ])('refuses %s with 112', (_label, input) => {
    const e = caughtError(() => validateSeeAlso(input));
    expect(e.code).toBe(112);
    expect(e.httpStatus).toBe(400);
    expect(e.message).toContain('is not a valid URL to a bug');
  });

  it('refuses a URL longer than 255 characters with 112 bug_url_too_long', () => {
    const long = `https://example.com/${'p/'.repeat(130)}ticket/1`;
    const e = caughtError(() => validateSeeAlso(long));
    expect(e.code).toBe(112);
    expect(e.errorName).toBe('bug_url_too_long');
  });

  it('skips empty values (returns null) as Bugzilla does', () => {
    expect(validateSeeAlso('')).toBeNull();
    expect(validateSeeAlso('   ')).toBeNull();
    expect(validateSeeAlso(null)).toBeNull();
  });
});

describe('sameSeeAlso — see_also comparisons are case-insensitive', () => {
  it('compares ignoring case', () => {
    expect(sameSeeAlso('https://github.com/o/r/issues/1', 'HTTPS://GITHUB.COM/O/R/ISSUES/1')).toBe(true);
    expect(sameSeeAlso('https://github.com/o/r/issues/1', 'https://github.com/o/r/issues/2')).toBe(false);
  });
});
