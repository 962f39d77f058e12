import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { named } from '../support/in-process.js';
import { expectCodedError, ok } from '../support/catalogue-fixtures.js';
import { fileBug } from './bug-fixtures.js';

/**
 * Search Bugs' cursor paging (issue 44): `next` (and Link rel="next") continues a search by keyset in its order, the
 * bug id breaking ties, on any instance; limit/offset work as in 5.0; a cut by max_search_results is said.
 */
describe('Search Bugs: cursor paging', () => {
  let t: TestApp;
  const admin = { key: ADMIN_API_KEY };
  const summary = named('Cursor paging');
  const ids: number[] = [];
  const priorities = ['Low', 'High', 'Low', 'Normal', 'High', 'Low', 'Normal'];

  beforeAll(async () => {
    t = await startTestApp();
    for (const priority of priorities) ids.push(await fileBug(t, { summary, priority }));
  });
  afterAll(() => t.close());

  const search = (query: Record<string, string | number>) => t.get('/bug', { ...admin, query: { summary, include_fields: 'id', ...query } });

  /** Every page of a search from its first, by `next`: the ids in the order paged. */
  async function paged(query: Record<string, string | number>): Promise<{ ids: number[]; pages: number }> {
    const found: number[] = [];
    let pages = 0;
    let cursor: string | undefined;
    do {
      const res = await search({ ...query, ...(cursor ? { cursor } : {}) });
      const page = ok(res);
      pages++;
      found.push(...page.bugs.map((b: { id: number }) => b.id));
      cursor = page.next;
      if (cursor) expect(res.headers.get('link')).toBe(`</rest/bug?${new URLSearchParams({ summary, include_fields: 'id', ...stringified(query), cursor }).toString()}>; rel="next"`);
      else expect(res.headers.get('link')).toBeNull();
    } while (cursor);
    return { ids: found, pages };
  }

  it('pages by bug id with next until the last page, each bug once', async () => {
    const result = await paged({ order: 'bug_id', limit: 3 });
    expect(result).toEqual({ ids, pages: 3 });
  });

  it('keeps the requested order with the bug id breaking ties, as the unpaged search orders', async () => {
    for (const order of ['priority DESC,bug_id', 'priority', 'last_change_time DESC']) {
      const whole = ok(await search({ order })).bugs.map((b: { id: number }) => b.id);
      expect((await paged({ order, limit: 2 })).ids).toEqual(whole);
    }
  });

  it('pages over a sort key that is empty on some bugs (NULL first ascending, last descending), as the unpaged search', async () => {
    for (const [i, id] of ids.entries()) if (i % 3 === 1) ok(await t.put(`/bug/${id}`, { deadline: `2030-01-0${1 + (i % 2)}` }, admin));
    for (const order of ['deadline', 'deadline DESC', 'deadline,priority DESC']) {
      const whole = ok(await search({ order })).bugs.map((b: { id: number }) => b.id);
      expect(whole).toHaveLength(ids.length);
      expect((await paged({ order, limit: 2 })).ids).toEqual(whole);
    }
  });

  it('continues after limit/offset as 5.0 pages them, and follows the Link header', async () => {
    const first = await search({ order: 'bug_id', limit: 2, offset: 2 });
    expect(ok(first).bugs.map((b: { id: number }) => b.id)).toEqual(ids.slice(2, 4));
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link')!)![1];
    expect(link).not.toContain('offset');
    const followed = await t.get(link, admin);
    expect(ok(followed).bugs.map((b: { id: number }) => b.id)).toEqual(ids.slice(4, 6));
  });

  it('refuses an altered cursor, and one of another search (400, cursor_invalid)', async () => {
    const { next } = ok(await search({ order: 'bug_id', limit: 2 }));
    const [body, signature] = next.split('.');
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const altered = Buffer.from(JSON.stringify({ ...decoded, i: decoded.i + 1 })).toString('base64url');
    expectCodedError(await search({ order: 'bug_id', limit: 2, cursor: `${altered}.${signature}` }), 10600, 400);
    expectCodedError(await search({ order: 'bug_id', limit: 2, cursor: 'garbage' }), 10600, 400);
    expectCodedError(await search({ order: 'priority', limit: 2, cursor: next }), 10600, 400);
  });

  it('says when max_search_results cut the answer (truncated, X-Search-Truncated), with the cursor of the rest', async () => {
    await t.setParameters({ max_search_results: '4' });
    try {
      const cut = await search({ order: 'bug_id' });
      expect(ok(cut)).toMatchObject({ truncated: true, next: expect.any(String) });
      expect(ok(cut).bugs.map((b: { id: number }) => b.id)).toEqual(ids.slice(0, 4));
      expect(cut.headers.get('x-search-truncated')).toBe('max_search_results');
      const rest = ok(await search({ order: 'bug_id', cursor: ok(cut).next }));
      expect(rest.bugs.map((b: { id: number }) => b.id)).toEqual(ids.slice(4));
      expect(rest).not.toHaveProperty('truncated');
      // A limit the client chose is no cut: no truncated.
      expect(ok(await search({ order: 'bug_id', limit: 2 }))).not.toHaveProperty('truncated');
    } finally {
      await t.setParameters({ max_search_results: '10000' });
    }
  });

  it('answers an unchanged page 304 to If-None-Match', async () => {
    const first = await search({ order: 'bug_id', limit: 3 });
    const again = await t.get('/bug', { ...admin, query: { summary, include_fields: 'id', order: 'bug_id', limit: 3 }, headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});

function stringified(query: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)]));
}
