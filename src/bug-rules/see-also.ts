/**
 * See Also URLs (updates.md `see_also`, errors.md 112): an http(s) link to one bug of a tracker Bugzilla 5.0
 * recognises (Bugzilla::BugUrl and its subclasses), reduced to a canonical form so that the same bug is not
 * linked twice under two spellings.
 */
import { Errors, TrackerError } from '../common/errors/index.js';

export const MAX_SEE_ALSO_LENGTH = 255;

export type SeeAlsoTracker =
  | 'bugzilla'
  | 'launchpad'
  | 'google'
  | 'debian'
  | 'jira'
  | 'trac'
  | 'mantisbt'
  | 'sourceforge'
  | 'github'
  | 'gitlab';

export interface SeeAlsoLink {
  /** The canonical URL to store. */
  url: string;
  tracker: SeeAlsoTracker;
  /** Set when the URL is a show_bug.cgi link to this very installation (the reverse link is then added). */
  localBugId?: number;
}

export interface SeeAlsoOptions {
  /** urlbase of this installation, e.g. `https://tracker.example.com/`; enables local-bug detection. */
  urlBase?: string;
}

interface ParsedUrl {
  scheme: string;
  /** host[:port], lower-cased. */
  authority: string;
  path: string;
  /** Without '?'; null when absent. */
  query: string | null;
}

function invalid(url: string, reason?: string): TrackerError {
  return TrackerError.of(Errors.BUG_URL_INVALID, { url, ...(reason ? { reason } : {}) });
}

// scheme://authority path ?query #fragment — kept textual, as Perl's URI does, so paths are not re-encoded.
const URL_SHAPE = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?$/i;

function parse(input: string): ParsedUrl {
  // A URL without a scheme is taken as http (Bugzilla does the same), but a bare path is not a URL to a bug.
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(input);
  if (!hasScheme && input.startsWith('/')) throw invalid(input, 'a full URL with a host name is needed');
  const candidate = hasScheme ? input : `http://${input}`;
  const m = URL_SHAPE.exec(candidate);
  if (!m) {
    if (hasScheme && !/^https?:/i.test(input)) throw invalid(input, 'only http and https URLs are accepted');
    throw invalid(input, 'a full URL with a host name is needed');
  }
  const scheme = m[1].toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') throw invalid(input, 'only http and https URLs are accepted');
  const authority = m[2].toLowerCase();
  // "http://1234" or "http://example.com" point at no bug: Bugzilla wants a host and a path.
  if (authority === '' || !m[3].includes('/')) throw invalid(input, 'a full URL with a host name is needed');
  try {
    new URL(`${scheme}://${authority}/`);
  } catch {
    throw invalid(input, 'the host name is not valid');
  }
  if (/\s/.test(m[3]) || /\s/.test(m[4] ?? '')) throw invalid(input, 'URLs cannot contain blanks');
  return { scheme, authority, path: m[3], query: m[4] ?? null };
}

const hostOf = (authority: string) => authority.replace(/^[^@]*@/, '').replace(/:\d+$/, '');
const params = (u: ParsedUrl) => new URLSearchParams(u.query ?? '');
const build = (scheme: string, authority: string, path: string, query: string | null) =>
  `${scheme}://${authority}${path}${query !== null && query !== '' ? `?${query}` : ''}`;

interface Handler {
  tracker: SeeAlsoTracker;
  matches(u: ParsedUrl): boolean;
  /** The canonical URL; throws 112 when the link is recognised but malformed. */
  canonical(u: ParsedUrl, input: string): string;
}

// In Bugzilla's order (first match wins), GitLab last as in later Bugzilla versions.
const HANDLERS: Handler[] = [
  {
    tracker: 'bugzilla',
    matches: (u) => /show_bug\.cgi$/.test(u.path),
    canonical: (u, input) => {
      // Aliases are refused: another installation's alias cannot be checked against a numeric link to it.
      const id = params(u).get('id')?.trim() ?? '';
      if (!/^\d+$/.test(id) || Number(id) === 0) throw invalid(input, 'the link must name a bug by its number (id=N)');
      return build(u.scheme, u.authority, u.path, `id=${Number(id)}`);
    },
  },
  {
    tracker: 'launchpad',
    matches: (u) => /launchpad\.net$/.test(hostOf(u.authority)) && /bugs?\/\d+$/.test(u.path),
    canonical: (u) => `https://launchpad.net/bugs/${/bugs?\/(\d+)$/.exec(u.path)![1]}`,
  },
  {
    tracker: 'google',
    matches: (u) => hostOf(u.authority) === 'code.google.com' && /^\/p\/[^/]+\/issues\/detail$/.test(u.path) && /^\d+$/.test(params(u).get('id') ?? ''),
    canonical: (u) => build('http', u.authority, u.path, u.query),
  },
  {
    tracker: 'debian',
    matches: (u) =>
      hostOf(u.authority) === 'bugs.debian.org' &&
      ((/bugreport\.cgi$/.test(u.path) && /^\d+$/.test(params(u).get('bug') ?? '')) || /^\/\d+$/.test(u.path)),
    canonical: (u) => `http://bugs.debian.org/${/^\/(\d+)$/.exec(u.path)?.[1] ?? params(u).get('bug')}`,
  },
  {
    tracker: 'jira',
    matches: (u) => /\/browse\/[A-Z][A-Z]+-\d+$/.test(u.path),
    canonical: (u) => build(u.scheme, u.authority, u.path, null),
  },
  {
    tracker: 'trac',
    matches: (u) => /\/ticket\/\d+$/.test(u.path),
    canonical: (u) => build(u.scheme, u.authority, u.path, null),
  },
  {
    tracker: 'mantisbt',
    matches: (u) => /view\.php\?id=\d+$/.test(`${u.path}?${u.query ?? ''}`),
    canonical: (u) => build(u.scheme, u.authority, u.path, u.query),
  },
  {
    tracker: 'sourceforge',
    matches: (u) => {
      const p = params(u);
      return hostOf(u.authority) === 'sourceforge.net' && u.path.includes('/tracker/') && p.get('func') === 'detail' && !!p.get('aid') && !!p.get('group_id') && !!p.get('atid');
    },
    canonical: (u) => build(u.scheme, u.authority, u.path, u.query),
  },
  {
    tracker: 'github',
    matches: (u) => hostOf(u.authority) === 'github.com' && /^\/[^/]+\/[^/]+\/(?:issues|pull)\/\d+$/.test(u.path),
    canonical: (u) => build('https', u.authority, u.path, u.query),
  },
  {
    tracker: 'gitlab',
    matches: (u) => /^\/.*\/issues\/\d+$/.test(u.path),
    canonical: (u) => build('https', u.authority, u.path, null),
  },
];

function localBugId(url: string, urlBase: string | undefined): number | undefined {
  if (!urlBase) return undefined;
  let base: ParsedUrl;
  try {
    base = parse(`${urlBase.replace(/\/?$/, '/')}show_bug.cgi`);
  } catch {
    return undefined;
  }
  const u = parse(url);
  if (hostOf(u.authority) !== hostOf(base.authority) || u.path !== base.path) return undefined;
  const id = Number(params(u).get('id'));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/**
 * Validates one See Also value for `see_also.add` (and Create Bug). Returns null for an empty value, which
 * Bugzilla skips. The fragment (`#c3`) is always dropped; query strings are dropped where they cannot name the
 * bug (JIRA, Trac, GitLab) and reduced to `id=N` for Bugzilla. Errors: 112 (not a URL to a bug of a known
 * tracker, not http(s), no host, bad Bugzilla id), 112 bug_url_too_long (over 255 characters).
 */
export function validateSeeAlso(value: unknown, options: SeeAlsoOptions = {}): SeeAlsoLink | null {
  if (value === null || value === undefined) return null;
  const input = String(value).trim();
  if (input === '') return null;

  const url = parse(input);
  const handler = HANDLERS.find((h) => h.matches(url));
  if (!handler) throw invalid(input);
  const canonical = handler.canonical(url, input);
  if ([...canonical].length > MAX_SEE_ALSO_LENGTH) throw TrackerError.of(Errors.BUG_URL_TOO_LONG, { url: canonical });

  const local = handler.tracker === 'bugzilla' ? localBugId(canonical, options.urlBase) : undefined;
  return { url: canonical, tracker: handler.tracker, ...(local !== undefined ? { localBugId: local } : {}) };
}

/** See Also values are compared case-insensitively (the database collation does, and Bugzilla too). */
export function sameSeeAlso(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
