import { nextPageUrl } from './bug-search.controller.js';

describe('nextPageUrl (Link rel="next" of Search Bugs)', () => {
  it('keeps the criteria, drops offset and every credential, and sets the cursor', () => {
    const url = '/rest/bug?product=Foo&limit=2&offset=4&Bugzilla_api_key=secret&api_key=s2&Tracker_login=me&password=p&restrict_login=1&bugzilla_token=t&cursor=old&order=bug_id';
    expect(nextPageUrl(url, 'abc.def')).toBe('/rest/bug?product=Foo&limit=2&cursor=abc.def&order=bug_id');
  });

  it('adds the cursor to a first page', () => {
    expect(nextPageUrl('/rest/bug?summary=a+b&limit=1', 'x')).toBe('/rest/bug?summary=a+b&limit=1&cursor=x');
  });
});
