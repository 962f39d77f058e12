import { ADMIN_API_KEY, startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { describeWhen, inProcess } from '../support/conditions.js';
import { Bug } from '../../src/bug/entities/bug.entity.js';
import { expectError, fileBug } from './bug-fixtures.js';

/**
 * Admission (issue 40, "overload degrades fairly"): an instance works on TRACKER_MAX_IN_FLIGHT requests at once, lets
 * TRACKER_MAX_QUEUE more wait their turn for up to TRACKER_MAX_WAIT_MS, and refuses the others with 503 and
 * Retry-After before doing anything for them. The slot is held by an update waiting for the bug's row, which the
 * test holds in a transaction of its own (MariaDB: the row lock; SQLite: its one connection's transaction), and the
 * states are read from /metrics: no test here depends on how fast anything runs.
 */
const withTheDatabase = describeWhen(inProcess);

interface Hold {
  release: () => Promise<void>;
}

/** Holds bug `id` in a transaction until released: an update of it waits (in the database or for SQLite's turn). */
async function holdBug(t: TestApp, id: number): Promise<Hold> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const transaction = t.db.transaction(async (tx) => {
    await tx.repository(Bug).increment({ id }, 'revision', 1);
    holding();
    await released;
  });
  await held;
  return {
    release: async () => {
      release();
      await transaction;
    },
  };
}

/** The admission's state in /metrics. */
async function admissionState(t: TestApp): Promise<{ inFlight: number; waiting: number; refused: Record<string, number> }> {
  const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    inFlight: value(/^tracker_admission_requests\{state="in_flight"\} (\d+)$/m),
    waiting: value(/^tracker_admission_requests\{state="waiting"\} (\d+)$/m),
    refused: Object.fromEntries(['queue_full', 'waited_too_long', 'loop_busy'].map((outcome) => [outcome, value(new RegExp(`^tracker_admission_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm'))])),
  };
}

/** Waits until the admission is in the state `expected` says (a state, not a duration: 10 s at most to fail). */
async function until(t: TestApp, expected: { inFlight: number; waiting: number }): Promise<void> {
  let state = await admissionState(t);
  for (let tries = 0; tries < 400 && (state.inFlight !== expected.inFlight || state.waiting !== expected.waiting); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    state = await admissionState(t);
  }
  expect({ inFlight: state.inFlight, waiting: state.waiting }).toEqual(expected);
}

function expectOverloaded(res: ApiResponse): void {
  expectError(res, -32002, 503);
  expect(res.headers.get('retry-after')).toBe('1');
}

/** An instance of its own with these admission limits and /metrics, for the tests of one describe. */
function instanceWith(limits: Record<string, string>): () => TestApp {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ...limits, TRACKER_METRICS: '1' });
  });
  afterAll(() => t.close());
  return () => t;
}

/** A bug held by the test, and an update of it in flight (holding the one slot) until the hold is released. */
async function updateInFlight(t: TestApp, comment: string): Promise<{ id: number; hold: Hold; update: Promise<ApiResponse> }> {
  const id = await fileBug(t, { summary: 'held' });
  const hold = await holdBug(t, id);
  const update = t.put(`/bug/${id}`, { comment: { body: comment } }, { key: ADMIN_API_KEY });
  await until(t, { inFlight: 1, waiting: 0 });
  return { id, hold, update };
}

withTheDatabase('admission: a full queue is refused with 503 and Retry-After, every admitted request is answered', () => {
  const app = instanceWith({ TRACKER_MAX_IN_FLIGHT: '1', TRACKER_MAX_QUEUE: '1', TRACKER_MAX_WAIT_MS: '600000' });

  it('one in flight, one waiting: the next ones are refused at once and change nothing; both admitted ones are answered', async () => {
    const t = app();
    const { id, hold, update } = await updateInFlight(t, 'admitted first');
    const read = t.get(`/bug/${id}/comment`, { key: ADMIN_API_KEY });
    await until(t, { inFlight: 1, waiting: 1 });

    const refusedWrite = await t.post('/bug', { product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'refused' }, { key: ADMIN_API_KEY });
    expectOverloaded(refusedWrite);
    expectOverloaded(await t.get(`/bug/${id}`));
    expectOverloaded(await t.get(`/bug/${id}`, { key: 'not-a-key-at-all-but-long-enough' }));
    // Operators' endpoints are not API requests: they are answered while the API is full.
    expect((await t.get('/health/live')).status).toBe(200);
    expect((await admissionState(t)).refused.queue_full).toBe(3);

    await hold.release();
    const [updated, comments] = await Promise.all([update, read]);
    expect(updated.status).toBe(200);
    expect(comments.status).toBe(200);
    expect(comments.body.bugs[id].comments.map((c: { text: string }) => c.text)).toContain('admitted first');
    await until(t, { inFlight: 0, waiting: 0 });
    // Nothing of the refused request was done.
    const found = await t.get('/bug', { key: ADMIN_API_KEY, query: { summary: 'refused' } });
    expect(found.body.bugs).toEqual([]);
  });
});

withTheDatabase('admission: a request that waits longer than TRACKER_MAX_WAIT_MS is refused, the one in flight is answered', () => {
  const app = instanceWith({ TRACKER_MAX_IN_FLIGHT: '1', TRACKER_MAX_QUEUE: '10', TRACKER_MAX_WAIT_MS: '200' });

  it('refused after its wait while the slot stays taken; the next request after it is taken again', async () => {
    const t = app();
    const { id, hold, update } = await updateInFlight(t, 'in flight');
    // The slot is held until the test lets go, so this request waits its 200 ms and is refused.
    expectOverloaded(await t.get(`/bug/${id}`, { key: ADMIN_API_KEY }));
    expect((await admissionState(t)).refused.waited_too_long).toBe(1);
    await hold.release();
    expect((await update).status).toBe(200);
    await until(t, { inFlight: 0, waiting: 0 });
    expect((await t.get(`/bug/${id}`, { key: ADMIN_API_KEY })).status).toBe(200);
  });
});
