import { ADMIN_API_KEY, startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { fileBug } from './bug-fixtures.js';
import { ok } from '../support/catalogue-fixtures.js';

/** A response that is neither a success nor a coded error is a failure of the service. */
function describeFailure(label: string, res: ApiResponse): string | undefined {
  if (res.status === 200) return undefined;
  return `${label}: ${res.status} ${res.text.slice(0, 300)}`;
}

/** Runs `client` repeatedly until `until`, collecting what it reports as failures. */
async function loop(until: number, client: (round: number) => Promise<string | undefined>, failures: string[]): Promise<number> {
  let round = 0;
  while (Date.now() < until) {
    const failure = await client(round++);
    if (failure) failures.push(failure);
  }
  return round;
}

describe('concurrency: searches, reads and writes of the same bugs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('4 searching, 4 reading and 2 writing the whiteboard of the same 30 bugs: no error at all (issue 12, defect 2)', async () => {
    ok(await t.post('/keyword', { name: 'load', description: 'under load' }, { key: ADMIN_API_KEY }));
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await fileBug(t, { summary: `T load ${i}`, keywords: ['load'], cc: ['admin@example.com'] }));
    const fieldLists = ['id,summary,whiteboard', 'id,cc,keywords', '_default', 'id,flags,groups,see_also', '_all', 'id,alias,blocks,depends_on,cc_detail'];
    const until = Date.now() + 3000;
    const failures: string[] = [];
    const searcher = (n: number) => loop(until, async (round) => {
      const res = await t.get('/bug', { query: { summary: 'T', include_fields: fieldLists[(n + round) % fieldLists.length] }, key: ADMIN_API_KEY });
      if (res.status === 200 && res.body.bugs.length !== ids.length) return `search found ${res.body.bugs.length} of ${ids.length} bugs`;
      return describeFailure('search', res);
    }, failures);
    const reader = (n: number) => loop(until, async (round) => {
      const id = ids[(n * 7 + round) % ids.length];
      const res = await t.get(`/bug/${id}`, { key: ADMIN_API_KEY });
      if (res.status === 200 && res.body.bugs[0]?.id !== id) return `read of ${id} answered ${res.text.slice(0, 200)}`;
      return describeFailure(`read ${id}`, res);
    }, failures);
    const writer = (n: number) => loop(until, async (round) => {
      const id = ids[(n * 11 + round) % ids.length];
      return describeFailure(`write ${id}`, await t.put(`/bug/${id}`, { whiteboard: `w${n}-${round}` }, { key: ADMIN_API_KEY }));
    }, failures);
    const rounds = await Promise.all([0, 1, 2, 3].map(searcher).concat([0, 1, 2, 3].map(reader), [0, 1].map(writer)));
    expect(failures.slice(0, 5)).toEqual([]);
    // The load really ran concurrently: every client made several rounds.
    expect(Math.min(...rounds)).toBeGreaterThan(2);
    // And what the writers left is what every route reads.
    const search = await t.get('/bug', { query: { summary: 'T', include_fields: 'id,whiteboard' }, key: ADMIN_API_KEY });
    for (const bug of search.body.bugs) expect((await t.get(`/bug/${bug.id}`, { query: { include_fields: 'whiteboard' }, key: ADMIN_API_KEY })).body.bugs[0].whiteboard).toBe(bug.whiteboard);
  }, 60_000);
});

describe('concurrency: 50 concurrent updates of one bug', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lose nothing: every accepted change is in the bug and its history, every refusal is a coded error', async () => {
    const admin = { key: ADMIN_API_KEY };
    const keywords = ['kw0', 'kw1', 'kw2', 'kw3', 'kw4'];
    for (const name of keywords) ok(await t.post('/keyword', { name, description: name }, admin));
    const users: string[] = [];
    for (let i = 0; i < 15; i++) users.push((await t.createUser(`racer${i}@example.com`)).login);
    // Nothing is kept yet when the updates start (the keywords just created moved the settings mark): the
    // settings they read come from inside their transactions, which must not wait for the pool while holding the
    // bug's lock (more updates than pool connections used to end in MariaDB's lock wait timeout, a 500).
    const id = await fileBug(t, { summary: 'raced' });

    // 15 cc additions, 5 keyword additions, 15 comments, 15 status changes (with a comment), all at once.
    const changes: Array<{ kind: string; value: string; body: Record<string, unknown> }> = [];
    for (const login of users) changes.push({ kind: 'cc', value: login, body: { cc: { add: [login] } } });
    for (const name of keywords) changes.push({ kind: 'keyword', value: name, body: { keywords: { add: [name] } } });
    for (let i = 0; i < 15; i++) changes.push({ kind: 'comment', value: `comment ${i}`, body: { comment: { body: `comment ${i}` } } });
    for (let i = 0; i < 15; i++) {
      const status = i % 2 ? 'CONFIRMED' : 'IN_PROGRESS';
      changes.push({ kind: 'status', value: status, body: { status, comment: { body: `status ${i} to ${status}` } } });
    }
    expect(changes).toHaveLength(50);
    const responses = await Promise.all(changes.map((change) => t.put(`/bug/${id}`, change.body, admin)));

    const accepted = changes.filter((_, i) => responses[i].status === 200);
    for (const [i, res] of responses.entries()) {
      if (res.status === 200) continue;
      // A refusal is a coded error in the envelope, never a 500.
      expect({ change: changes[i].body, status: res.status < 500, error: res.body?.error, code: typeof res.body?.code }).toEqual({ change: changes[i].body, status: true, error: true, code: 'number' });
    }
    // Ordinary concurrency on one bug must not refuse most of the changes.
    expect(accepted.length).toBeGreaterThanOrEqual(45);

    const bug = (await t.get(`/bug/${id}`, admin)).body.bugs[0];
    const history = (await t.get(`/bug/${id}/history`, admin)).body.bugs[0].history as Array<{ changes: Array<{ field_name: string; removed: string; added: string }> }>;
    const historyOf = (field: string) => history.flatMap((entry) => entry.changes.filter((c) => c.field_name === field));
    const comments = ((await t.get(`/bug/${id}/comment`, admin)).body.bugs[String(id)].comments as Array<{ text: string }>).map((c) => c.text);

    for (const change of accepted) {
      if (change.kind === 'cc') {
        expect(bug.cc).toContain(change.value);
        expect(historyOf('cc').map((c) => c.added)).toContain(change.value);
      }
      if (change.kind === 'keyword') {
        expect(bug.keywords).toContain(change.value);
        expect(historyOf('keywords').some((c) => c.added.split(', ').includes(change.value))).toBe(true);
      }
      if (change.kind === 'comment' || change.kind === 'status') expect(comments).toContain(change.body.comment && (change.body.comment as { body: string }).body);
    }
    // Status changes form one unbroken chain from the first status to the bug's current one: none was lost.
    const statuses = [...historyOf('status'), ...historyOf('bug_status')];
    expect(statuses.length).toBeGreaterThan(0);
    for (let i = 1; i < statuses.length; i++) expect(statuses[i].removed).toBe(statuses[i - 1].added);
    expect(statuses.at(-1)!.added).toBe(bug.status);
    // Each accepted status request either moved the status (one history entry) or found it already there.
    expect(statuses.length).toBeLessThanOrEqual(accepted.filter((c) => c.kind === 'status').length);
  }, 120_000);
});
