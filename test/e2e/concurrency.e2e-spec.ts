import { jest } from '@jest/globals';
import { ADMIN_API_KEY, ADMIN_LOGIN, startTestApp, withoutKeptWriteChecks, type ApiResponse, type TestApp } from '../support/test-app.js';
import { inProcessIt, loginNamed } from '../support/in-process.js';
import { expectSqlSnapshot, recordSql, type RoundTrip } from '../support/sql-snapshots.js';
import { createRequire } from 'node:module';
import { describeWhen, inProcess, itWhen, needsFastPaths, onDialect } from '../support/conditions.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { Comment } from '../../src/comment/entities/comment.entity.js';
import { ApiKey } from '../../src/auth/entities/api-key.entity.js';
import { BugUpdateService } from '../../src/bug-write/bug-update.service.js';
import { expectError, fileBug } from './bug-fixtures.js';
import { commentsOf, historyOf, updated } from './bug-update-fixtures.js';
import { ok } from '../support/catalogue-fixtures.js';
import { BugHistoryRepository } from '../../src/bug/bug-history.repository.js';
import { apiFieldName } from '../../src/bug/changes.js';

/**
 * The history rows of one field of a bug as written, oldest first: Bug history joins the adjacent rows of one field
 * by one user in one second into one change (Bugzilla's join_activity_entries), which hides a chain's links.
 */
async function rowsOf(t: TestApp, id: number, field: string): Promise<Array<{ removed: string; added: string }>> {
  const rows = await t.app.get(BugHistoryRepository).ofBugs(t.db.read, [id]);
  return rows.filter((r) => apiFieldName(r.fieldName) === field).map((r) => ({ removed: r.removed ?? '', added: r.added ?? '' }));
}

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
    // One user's changes of a field in one second are joined with spaces (join_activity_entries): split them again.
    const valuesAdded = (field: string) => historyOf(field).flatMap((c) => c.added.split(/[ ,]+/));
    const comments = ((await t.get(`/bug/${id}/comment`, admin)).body.bugs[String(id)].comments as Array<{ text: string }>).map((c) => c.text);

    for (const change of accepted) {
      if (change.kind === 'cc') {
        expect(bug.cc).toContain(change.value);
        expect(valuesAdded('cc')).toContain(change.value);
      }
      if (change.kind === 'keyword') {
        expect(bug.keywords).toContain(change.value);
        expect(valuesAdded('keywords')).toContain(change.value);
      }
      if (change.kind === 'comment' || change.kind === 'status') expect(comments).toContain(change.body.comment && (change.body.comment as { body: string }).body);
    }
    // Status changes form one unbroken chain from the first status to the bug's current one: none was lost.
    // A status is never empty, so a joined change's n removed and n added statuses are its n links.
    const statuses = historyOf('status').flatMap((c) => c.removed.split(' ').map((removed, i) => ({ removed, added: c.added.split(' ')[i] })));
    expect(statuses.length).toBeGreaterThan(0);
    for (let i = 1; i < statuses.length; i++) expect(statuses[i].removed).toBe(statuses[i - 1].added);
    expect(statuses.at(-1)!.added).toBe(bug.status);
    // Each accepted status request either moved the status (one history entry) or found it already there.
    expect(statuses.length).toBeLessThanOrEqual(accepted.filter((c) => c.kind === 'status').length);
  }, 120_000);
});

describeWhen(inProcess, onDialect('mysql', 'deadlocks are between transactions of a server (SQLite runs one at a time)'))('concurrency: a deadlock victim runs again (issue 40)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('Add Comment chosen as the victim of a deadlock with another transaction runs again and succeeds, its comment written once', async () => {
    const id = await fileBug(t, { summary: 'deadlocked' });
    let changed!: () => void;
    const changing = new Promise<void>((resolve) => (changed = resolve));
    let requestWaits!: () => void;
    const waiting = new Promise<void>((resolve) => (requestWaits = resolve));
    const rolledBack = new Error('rolled back by the test');
    let otherRuns = 0;
    // The other transaction changes the bug's comments (heavier than the request when they deadlock: MariaDB rolls
    // back the lighter), which locks the gap where the request's comment goes in; once the request holds the bug's
    // row lock and waits for that gap, it wants the bug's row: a deadlock, in which the request loses.
    const other = t.db.transaction(async (tx) => {
      otherRuns++;
      await tx.repository(Comment).update({ bugId: id }, { text: 'changed meanwhile' });
      changed();
      await waiting;
      await tx.repository(Bug).createQueryBuilder('b').where('b.id = :id', { id }).setLock('pessimistic_write').getOne();
      throw rolledBack;
    }).catch((error: unknown) => error);
    await changing;
    const answer = t.post(`/bug/${id}/comment`, { comment: 'after the deadlock' }, { key: ADMIN_API_KEY });
    const until = Date.now() + 10_000;
    while ((await t.database.lockWaits()) < 1) {
      if (Date.now() > until) throw new Error('the request never waited for the other transaction');
      await pause(20);
    }
    requestWaits();
    expect(await other).toBe(rolledBack);
    expect(otherRuns).toBe(1);
    const res = await answer;
    expect(res.status).toBe(200);
    const texts = (await commentsOf(t, id)).map((c) => c.text);
    expect(texts.filter((text) => text === 'after the deadlock')).toHaveLength(1);
    expect(texts).not.toContain('changed meanwhile');
  });
});

describeWhen(inProcess, onDialect('sqlite', 'another connection to the database file (MariaDB\'s lock conflicts: the test above)'))('concurrency: a transaction that found SQLite busy runs again (issue 40)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('Add Comment while another connection writes the file past the busy timeout runs again and succeeds, its comment written once', async () => {
    const id = await fileBug(t, { summary: 'busy' });
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => { exec(sql: string): void; close(): void };
    const other = new Database(t.database.url.slice('sqlite:'.length));
    try {
      other.exec('BEGIN IMMEDIATE');
      // The request's write waits out the busy timeout (5 s, this process blocked meanwhile) and fails; the other
      // connection lets go while it waits to run again.
      setTimeout(() => other.exec('COMMIT'), 500);
      const started = Date.now();
      const res = await t.post(`/bug/${id}/comment`, { comment: 'after the busy wait' }, { key: ADMIN_API_KEY });
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
      expect(res.status).toBe(200);
      const texts = (await commentsOf(t, id)).map((c) => c.text);
      expect(texts.filter((text) => text === 'after the busy wait')).toHaveLength(1);
    } finally {
      other.close();
    }
  }, 30_000);
});

describe('concurrency: updates of one bug that arrive together share a transaction', () => {
  let t: TestApp;
  let other: { login: string };
  beforeAll(async () => {
    t = await startTestApp();
    other = await t.createUser(loginNamed('sharer'));
  });
  afterAll(() => t.close());

  const admin = { key: ADMIN_API_KEY };
  const put = (id: number, body: Record<string, unknown>, key = ADMIN_API_KEY) => t.put(`/bug/${id}`, body, { key });

  /**
   * Sends `first`, then the `rest` together, while the test holds the bug — on MySQL its row lock, on SQLite the one
   * connection's transaction: `first` waits for it in its transaction, and the rest queue behind it on the instance,
   * so that they go in one shared transaction once the test lets go. Answers the responses, how many requests each
   * transaction of Update Bug carried, and the statements sent. `keys[i]` is the API key of `rest[i]` (the
   * administrator's by default).
   */
  async function sendTogether(
    id: number, first: Record<string, unknown>, rest: Array<Record<string, unknown>>, keys: string[] = [],
  ): Promise<Together> {
    // How many requests each transaction of Update Bug carried.
    // updateTogether is private: seen here as what it is at run time.
    const service = t.app.get<BugUpdateService, { updateTogether(parts: unknown[], locked: () => void): Promise<unknown> }>(BugUpdateService);
    const original = service.updateTogether.bind(service);
    const shared: number[] = [];
    const together = jest.spyOn(service, 'updateTogether').mockImplementation((parts, locked) => {
      shared.push(parts.length);
      return original(parts, locked);
    });
    const send = async (): Promise<ApiResponse[]> => {
      const release = await holdBug(id);
      const head = put(id, first);
      await pause(150);
      const tail = rest.map((body, i) => put(id, body, keys[i]));
      await pause(400);
      await release();
      return Promise.all([head, ...tail]);
    };
    try {
      let responses: ApiResponse[] = [];
      const sent = await recordSql(async () => {
        responses = await send();
      });
      return { responses, shared, sent };
    } finally {
      together.mockRestore();
    }
  }

  /** Holds the bug in a transaction of the test's own until the answer is called. */
  async function holdBug(id: number): Promise<() => Promise<void>> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const done = t.db.transaction(async (tx) => {
      const read = tx.repository(Bug).createQueryBuilder('b').where('b.id = :id', { id });
      await (t.db.dialect === 'mysql' ? read.setLock('pessimistic_write') : read).getOne();
      holding();
      await released;
    });
    await held;
    return async () => {
      release();
      await done;
    };
  }

  /**
   * `scenario` without the check of what updates keep (TRACKER_CACHE_BUGS_CHECK: it reads each kept bug again, on a
   * schedule of its own): the statements it sends are the service's alone, in an order that does not change.
   */
  async function withoutChecks<T>(scenario: () => Promise<T>): Promise<T> {
    const checking = withoutKeptWriteChecks(t);
    try {
      return await scenario();
    } finally {
      checking.restore();
    }
  }

  describe('eight updates arriving together', () => {
    let id: number;
    let together: Together;
    const scenario = async () => {
      // Another user on its cc list, so that each change queues mail.
      const id = await fileBug(t, { summary: 'shared', cc: [other.login] });
      const bodies = Array.from({ length: 8 }, (_, i) => ({ whiteboard: `w${i}`, comment: { body: `c${i}` } }));
      return { id, together: await sendTogether(id, bodies[0], bodies.slice(1)) };
    };
    beforeAll(async () => {
      ({ id, together } = await scenario());
    });

    inProcessIt('each update comes to what it would alone, in the order they were applied', async () => {
      const { responses } = together;
      for (const res of responses) expect(res.status).toBe(200);
      const whiteboards = await rowsOf(t, id, 'whiteboard');
      expect(whiteboards).toHaveLength(8);
      // One unbroken chain, each answer's change one link of it.
      expect(whiteboards[0].removed).toBe('');
      for (let i = 1; i < whiteboards.length; i++) expect(whiteboards[i].removed).toBe(whiteboards[i - 1].added);
      for (const [i, res] of responses.entries()) {
        const change = updated(res).changes.whiteboard;
        expect(change.added).toBe(`w${i}`);
        expect(whiteboards).toContainEqual(expect.objectContaining({ removed: change.removed, added: change.added }));
      }
      // Comments in the order the changes were applied.
      const comments = (await commentsOf(t, id)).slice(1).map((c) => c.text);
      expect(comments).toEqual(whiteboards.map((w: { added: string }) => `c${w.added.slice(1)}`));
      const bug = (await t.get(`/bug/${id}`, admin)).body.bugs[0];
      expect(bug.whiteboard).toBe(whiteboards.at(-1)!.added);
      // What the instance keeps of the bug is what the database holds (TRACKER_CACHE_BUGS_CHECK checks it in tests).
      expect(bug.last_change_time).toBe(updated(responses.find((res) => updated(res).changes.whiteboard.added === whiteboards.at(-1)!.added)!).last_change_time);
    });

    itWhen(inProcess, needsFastPaths)('the first goes alone, the seven that waited behind it in one transaction: no savepoint sent, one statement per table (records statements)', async () => {
      const { together } = await withoutChecks(scenario);
      expect(together.shared).toEqual([1, 7]);
      // Each step of the shared transaction was undoable alone, but none needed its savepoint (all its writes were
      // still held when it ended): none was sent, and on MySQL the seven requests' row, history and outbox writes
      // went as one statement each (combineHeldWrites), the comments as seven.
      expectSqlSnapshot('bug/sql/update-bug-shared', 'Eight one-bug Update Bugs (whiteboard, comment) arriving together while the bug is locked', together.sent);
    });
  });

  itWhen(inProcess, needsFastPaths)('the next transaction of a bug starts once the one before holds the lock, and waits for it in the database', async () => {
    const id = await fileBug(t, { summary: 'two in flight' });
    // The first update dwells in its work under the lock until the test has looked.
    // apply is private: seen here as what it is at run time.
    const service = t.app.get<BugUpdateService, { apply(...args: unknown[]): Promise<unknown> }>(BugUpdateService);
    const original = service.apply.bind(service);
    let working!: () => void;
    const inWork = new Promise<void>((resolve) => (working = resolve));
    let letGo!: () => void;
    const goOn = new Promise<void>((resolve) => (letGo = resolve));
    const apply = jest.spyOn(service, 'apply').mockImplementationOnce(async (...args) => {
      working();
      await goOn;
      return original(...args);
    });
    try {
      const first = put(id, { whiteboard: 'p0' });
      await inWork;
      const next = [put(id, { whiteboard: 'p1' })];
      await pause(200);
      next.push(put(id, { whiteboard: 'p2' }));
      await pause(200);
      if (t.db.dialect === 'mysql') {
        // The second update's lock waits in MariaDB while the first holds it; the third waits on the instance.
        expect(await t.database.lockWaits()).toBe(1);
      }
      letGo();
      const responses = await Promise.all([first, ...next]);
      for (const res of responses) expect(res.status).toBe(200);
    } finally {
      letGo();
      apply.mockRestore();
    }
    // Applied in the order they came: one unbroken chain p0, p1, p2.
    const whiteboards = await rowsOf(t, id, 'whiteboard');
    expect(whiteboards.map((c) => [c.removed, c.added])).toEqual([['', 'p0'], ['p0', 'p1'], ['p1', 'p2']]);
  });

  describe('five good updates and one refused among them, arriving together', () => {
    describe('refused while all it wrote was still held', () => {
      let id: number;
      let together: Together;
      const scenario = async () => {
        const id = await fileBug(t, { summary: 'shared, one refused' });
        // The alias is checked after the cc list is written (Bugzilla's order): its refusal undoes that write.
        return { id, together: await sendWithOneRefused(id, { alias: { add: ['12345'] } }) };
      };
      beforeAll(async () => {
        ({ id, together } = await scenario());
      });

      inProcessIt('the refused update is undone alone: nothing of it stays, the others commit', async () => {
        expectOnlyTheRefusedFailed(together);
        await expectNothingOfTheRefused(id);
      });

      itWhen(inProcess, needsFastPaths)('it is dropped with its savepoint, never sent: two transactions, the five good ones in the second (records statements)', async () => {
        const { together } = await withoutChecks(scenario);
        expect(together.shared).toEqual([1, 5]);
        expectSqlSnapshot('bug/sql/update-bug-shared-one-refused', 'Six one-bug Update Bugs arriving together while the bug is locked, the fourth refused (103) before its writes left', together.sent);
      });
    });

    describe('refused after its writes left (a read sent them)', () => {
      let id: number;
      let together: Together;
      const scenario = async () => {
        const id = await fileBug(t, { summary: 'shared, one refused late' });
        const owner = await fileBug(t, { summary: 'owns the alias' });
        ok(await t.put(`/bug/${owner}`, { alias: { add: [`taken-${owner}`] } }, admin));
        return { id, together: await sendWithOneRefused(id, { alias: { add: [`taken-${owner}`] } }) };
      };
      beforeAll(async () => {
        ({ id, together } = await scenario());
      });

      inProcessIt('the refused update is undone alone: nothing of it stays, the others commit', async () => {
        expectOnlyTheRefusedFailed(together);
        await expectNothingOfTheRefused(id);
      });

      itWhen(inProcess, needsFastPaths)('it is rolled back to its savepoint: the alias\'s lookup carried the savepoint and the cc write (records statements)', async () => {
        const { together } = await withoutChecks(scenario);
        // The alias is looked up in the database (in use? 103 with its owner) after the cc list is written: on MySQL
        // that read carries the savepoint and the cc write before it, and the refusal then sends ROLLBACK TO it.
        expect(together.shared).toEqual([1, 5]);
        expectSqlSnapshot('bug/sql/update-bug-shared-refused-late', 'Six one-bug Update Bugs arriving together while the bug is locked, the fourth refused (103) after a read sent its writes', together.sent);
      });
    });
  });

  describe('a request among them whose presumed caller\'s key was revoked', () => {
    let id: number;
    let together: Together;
    const good = (i: number) => ({ whiteboard: `r${i}`, comment: { body: `kept ${i}` } });
    beforeAll(async () => {
      id = await fileBug(t, { summary: 'shared, one key revoked' });
      const revoked = await t.createUser(loginNamed('revoked-sharer'));
      // Both keys named their callers here (a read) under the settings mark the new user moved: their next writes
      // presume them. The key is then revoked behind the instance's back (no settings mark moves).
      expect((await t.get(`/bug/${id}`, { key: revoked.apiKey })).status).toBe(200);
      expect((await t.get(`/bug/${id}`, admin)).status).toBe(200);
      await t.db.transaction((tx) => tx.repository(ApiKey).update({ userId: revoked.id }, { revoked: true }));
      const bodies = [good(1), { comment: { body: 'revoked' } }, good(2)];
      together = await sendTogether(id, good(0), bodies, [ADMIN_API_KEY, revoked.apiKey, ADMIN_API_KEY]);
    });

    inProcessIt('fails alone: the others commit, it is refused (306), each read the bug as the one before it left it', async () => {
      const { responses } = together;
      expect(responses[2].body).toMatchObject({ error: true, code: 306 });
      for (const i of [0, 1, 3]) expect(responses[i].status).toBe(200);
      const texts = (await commentsOf(t, id)).map((c) => c.text);
      expect(texts).not.toContain('revoked');
      for (let i = 0; i <= 2; i++) expect(texts).toContain(`kept ${i}`);
      // Each update read the bug as the one before it left it (its lock granted before its snapshot).
      const whiteboards = await rowsOf(t, id, 'whiteboard');
      expect(whiteboards.map((c) => c.removed)).toEqual(['', ...whiteboards.slice(0, -1).map((c) => c.added)]);
    });

    itWhen(inProcess, needsFastPaths)('on MySQL the three went together (the key\'s check in the transaction), which failed, and each then ran alone; SQLite resolves every caller first, the revoked key never reached the queue', () => {
      expect(together.shared).toEqual(t.db.dialect === 'mysql' ? [1, 3] : [1, 2]);
    });
  });

  /**
   * Five good updates of the bug and, fourth, one adding another user to its cc list and a comment with `refusing`,
   * which refuses it with 103 (an alias), sent together.
   */
  function sendWithOneRefused(id: number, refusing: Record<string, unknown>): Promise<Together> {
    const refused = { cc: { add: [other.login] }, comment: { body: 'refused' }, ...refusing };
    const good = (i: number) => ({ whiteboard: `v${i}`, cc: { add: [ADMIN_LOGIN] }, comment: { body: `kept ${i}` } });
    return sendTogether(id, good(0), [good(1), good(2), refused, good(3), good(4)]);
  }

  /** The answers of sendWithOneRefused: the refused one fails alone. */
  function expectOnlyTheRefusedFailed({ responses }: Together): void {
    expectError(responses[3], 103, 400);
    for (const res of responses.filter((_, i) => i !== 3)) expect(res.status).toBe(200);
  }

  /** The bug of five good updates and a refused one among them: nothing of the refused stays. */
  async function expectNothingOfTheRefused(id: number): Promise<void> {
    const bug = (await t.get(`/bug/${id}`, admin)).body.bugs[0];
    expect(bug.cc).toEqual([ADMIN_LOGIN]);
    expect(bug.alias).toEqual([]);
    const texts = (await commentsOf(t, id)).map((c) => c.text);
    expect(texts).not.toContain('refused');
    for (let i = 0; i <= 4; i++) expect(texts).toContain(`kept ${i}`);
    const ccHistory = (await historyOf(t, id)).flatMap((entry) => entry.changes.filter((c: { field_name: string }) => c.field_name === 'cc'));
    expect(ccHistory).toEqual([expect.objectContaining({ removed: '', added: ADMIN_LOGIN })]);
  }
});

/** Updates sent together (sendTogether): their answers, how many requests each transaction carried, the statements sent. */
interface Together {
  responses: ApiResponse[];
  shared: number[];
  sent: RoundTrip[];
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
