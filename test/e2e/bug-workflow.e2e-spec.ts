import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { createProduct, ok } from '../support/catalogue-fixtures.js';
import { inProcessDescribe, inProcessIt, loginNamed, named } from '../support/in-process.js';
import { expectError, fileBug, setBug, statusValueId } from './bug-fixtures.js';
import { StatusTransition } from '../../src/field/entities/status-transition.entity.js';
import { expectUncoded, getBug, plainUser, update, updated } from './bug-update-fixtures.js';

const STATUSES = ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED', 'VERIFIED'] as const;
const CLOSED = new Set(['RESOLVED', 'VERIFIED']);
/** The default transition table of workflow.md (from → allowed targets, besides staying). */
const TABLE: Record<string, string[]> = {
  UNCONFIRMED: ['CONFIRMED', 'IN_PROGRESS', 'RESOLVED'],
  CONFIRMED: ['IN_PROGRESS', 'RESOLVED'],
  IN_PROGRESS: ['CONFIRMED', 'RESOLVED'],
  RESOLVED: ['UNCONFIRMED', 'CONFIRMED', 'VERIFIED'],
  VERIFIED: ['UNCONFIRMED', 'CONFIRMED'],
};

describe('Update Bug: the workflow (workflow.md) and who may change what', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** A bug brought to a status by the admin (filed in an open one, resolved FIXED on the way to a closed one). */
  async function bugIn(status: string): Promise<number> {
    const closed = CLOSED.has(status);
    const id = await fileBug(t, { status: closed ? 'CONFIRMED' : status });
    if (closed) updated(await update(t, id, { status: 'RESOLVED', resolution: 'FIXED' }));
    if (status === 'VERIFIED') updated(await update(t, id, { status }));
    return id;
  }

  describe('the transition table', () => {
    const cases = STATUSES.flatMap((from) => STATUSES.filter((to) => to !== from).map((to) => [from, to, TABLE[from].includes(to)] as const));
    it.each(cases)('%s → %s allowed: %s (refused transitions are 123)', async (from, to, allowed) => {
      const id = await bugIn(from);
      const body: Record<string, unknown> = { status: to };
      if (CLOSED.has(to) && !CLOSED.has(from)) body.resolution = 'FIXED';
      const res = await update(t, id, body);
      if (!allowed) {
        expectError(res, 123, 400);
        expect((await getBug(t, id)).status).toBe(from);
        return;
      }
      const { changes } = updated(res);
      expect(changes.status).toEqual({ removed: from, added: to });
      const bug = await getBug(t, id);
      expect(bug.status).toBe(to);
      expect(bug.is_open).toBe(!CLOSED.has(to));
      // Reopening clears the resolution; closing sets it; moving between closed statuses keeps it.
      expect(bug.resolution).toBe(CLOSED.has(to) ? 'FIXED' : '');
      if (CLOSED.has(from) && !CLOSED.has(to)) expect(changes.resolution).toEqual({ removed: 'FIXED', added: '' });
    });

    it('keeping the status is always allowed and changes nothing', async () => {
      const id = await bugIn('IN_PROGRESS');
      expect(updated(await update(t, id, { status: 'IN_PROGRESS' })).changes).toEqual({});
    });

    it('an unknown status is 51/404, an empty one 50/400', async () => {
      const id = await bugIn('CONFIRMED');
      expectError(await update(t, id, { status: 'NEW' }), 51, 404);
      expectError(await update(t, id, { status: '' }), 50, 400);
    });

    // No route edits the workflow: the test writes its table.
    inProcessIt('a transition row that requires a comment refuses the change without one — comment_required 32000 (writes the workflow table)', async () => {
      const [confirmed, inProgress] = [await statusValueId(t, 'CONFIRMED'), await statusValueId(t, 'IN_PROGRESS')];
      await t.db.transaction((tx) => tx.repository(StatusTransition).update({ fromStatusId: confirmed, toStatusId: inProgress }, { requireComment: true }));
      const id = await bugIn('CONFIRMED');
      expectUncoded(await update(t, id, { status: 'IN_PROGRESS' }), /specify a comment/);
      expect(updated(await update(t, id, { status: 'IN_PROGRESS', comment: { body: 'taking it' } })).changes.status.added).toBe('IN_PROGRESS');
      await t.db.transaction((tx) => tx.repository(StatusTransition).update({ requireComment: true }, { requireComment: false }));
    });
  });

  describe('rules 1 and 2: resolutions', () => {
    it('rule 1: a resolution on an open bug is 122, even empty or null', async () => {
      const id = await bugIn('CONFIRMED');
      for (const resolution of ['FIXED', '', null]) expectError(await update(t, id, { resolution }), 122, 400);
    });

    it('rule 2: closing needs a resolution — 121', async () => {
      const id = await bugIn('CONFIRMED');
      expectError(await update(t, id, { status: 'RESOLVED' }), 121, 400);
      expectError(await update(t, id, { status: 'RESOLVED', resolution: '' }), 121, 400);
    });

    it('an unknown resolution is 51/404 (checked before the open/closed rules)', async () => {
      const id = await bugIn('CONFIRMED');
      expectError(await update(t, id, { status: 'RESOLVED', resolution: 'BOGUS' }), 51, 404);
    });

    it('on a closed bug the resolution alone may change, but not be blanked (121)', async () => {
      const id = await bugIn('RESOLVED');
      expect(updated(await update(t, id, { resolution: 'WONTFIX' })).changes).toEqual({ resolution: { removed: 'FIXED', added: 'WONTFIX' } });
      expectError(await update(t, id, { resolution: '' }), 121, 400);
    });

    it('reopening drops a resolution sent with it', async () => {
      const id = await bugIn('RESOLVED');
      const { changes } = updated(await update(t, id, { status: 'CONFIRMED', resolution: 'WONTFIX' }));
      expect(changes).toEqual({ status: { removed: 'RESOLVED', added: 'CONFIRMED' }, resolution: { removed: 'FIXED', added: '' } });
    });

    it('closing sets remaining_time to 0', async () => {
      const id = await fileBug(t, { estimated_time: 8, remaining_time: 8 });
      const { changes } = updated(await update(t, id, { status: 'RESOLVED', resolution: 'FIXED' }));
      expect(changes.remaining_time).toEqual({ removed: '8.00', added: '0' });
    });

    it('a caller outside the time-tracking group closes too, but is not shown the time fields in changes', async () => {
      await t.setParameters({ timetrackinggroup: 'admin' });
      const closer = await t.createUser(loginNamed('closer'));
      const id = await fileBug(t, { estimated_time: 8, remaining_time: 8 });
      const { changes } = updated(await update(t, id, { status: 'RESOLVED', resolution: 'FIXED' }, closer.apiKey));
      expect(changes).toEqual({ status: { removed: 'CONFIRMED', added: 'RESOLVED' }, resolution: { removed: '', added: 'FIXED' } });
      expect((await getBug(t, id)).remaining_time).toBe(0);
      await t.setParameters({ timetrackinggroup: 'editbugs' });
    });

    it('commentonchange_resolution: changing the resolution needs a comment — comment_required 32000', async () => {
      await t.setParameters({ commentonchange_resolution: '1' });
      const id = await bugIn('CONFIRMED');
      expectUncoded(await update(t, id, { status: 'RESOLVED', resolution: 'FIXED' }), /specify a comment/);
      updated(await update(t, id, { status: 'RESOLVED', resolution: 'FIXED', comment: { body: 'fixed in trunk' } }));
      await t.setParameters({ commentonchange_resolution: '0' });
    });

    it('musthavemilestoneonaccept: IN_PROGRESS on the default milestone of a product with milestones — milestone_required 32000', async () => {
      const product = named('Milestones');
      await createProduct(t, product);
      ok(await t.post(`/product/${encodeURIComponent(product)}/milestone`, { name: '2.0', sort_key: 10 }, { key: ADMIN_API_KEY }));
      await t.setParameters({ musthavemilestoneonaccept: '1', usetargetmilestone: '1' });
      const id = await fileBug(t, { product, component: 'General', version: '1.0' });
      expectUncoded(await update(t, id, { status: 'IN_PROGRESS' }), /target milestone/);
      updated(await update(t, id, { status: 'IN_PROGRESS', target_milestone: '2.0' }));
      await t.setParameters({ musthavemilestoneonaccept: '0', usetargetmilestone: '0' });
    });
  });

  describe('is_confirmed', () => {
    it('confirming shows is_confirmed "0" → "1"; going back to UNCONFIRMED shows "1" → "0"', async () => {
      const id = await bugIn('UNCONFIRMED');
      expect(updated(await update(t, id, { status: 'CONFIRMED' })).changes.is_confirmed).toEqual({ removed: '0', added: '1' });
      await update(t, id, { status: 'RESOLVED', resolution: 'FIXED' });
      expect(updated(await update(t, id, { status: 'UNCONFIRMED' })).changes.is_confirmed).toEqual({ removed: '1', added: '0' });
      expect((await getBug(t, id)).is_confirmed).toBe(false);
    });
  });

  // Callers outside editbugs: a running instance cannot take an account out of that regexp group.
  inProcessDescribe('who may change what (check_can_change_field), callers outside editbugs', () => {
    let reporter: { id: number; login: string; apiKey: string };
    let stranger: { id: number; login: string; apiKey: string };
    let assignee: { id: number; login: string; apiKey: string };
    let confirmer: { id: number; login: string; apiKey: string };
    beforeAll(async () => {
      reporter = await plainUser(t, 'reporter@example.com');
      stranger = await plainUser(t, 'stranger@example.com');
      assignee = await plainUser(t, 'assignee@example.com');
      confirmer = await plainUser(t, 'confirmer@example.com', ['canconfirm']);
    });

    /** A bug reported by `reporter`, assigned to `assignee`. */
    async function reported(status = 'CONFIRMED'): Promise<number> {
      const id = await bugIn(status);
      await setBug(t, id, { reporterId: reporter.id, assignedToId: assignee.id });
      return id;
    }

    it('rule 4: an editbugs member changes anything', async () => {
      const id = await reported();
      updated(await update(t, id, { status: 'IN_PROGRESS', assigned_to: 'admin@example.com', priority: 'High' }));
    });

    it('rule 12: the reporter changes the summary and closes and reopens their bug', async () => {
      const id = await reported();
      updated(await update(t, id, { summary: 'reporter says' }, reporter.apiKey));
      updated(await update(t, id, { status: 'RESOLVED', resolution: 'INVALID' }, reporter.apiKey));
      updated(await update(t, id, { status: 'CONFIRMED' }, reporter.apiKey));
    });

    it('rule 11: the reporter may not move between open statuses — the status is not offered, so 123', async () => {
      const id = await reported();
      expectError(await update(t, id, { status: 'IN_PROGRESS' }, reporter.apiKey), 123, 400);
    });

    it('rule 8: the reporter may not reassign — 115', async () => {
      const id = await reported();
      expectError(await update(t, id, { assigned_to: reporter.login }, reporter.apiKey), 115, 401);
      expectError(await update(t, id, { qa_contact: stranger.login }, reporter.apiKey), 115, 401);
    });

    it('rule 9: priority only when letsubmitterchoosepriority is on', async () => {
      const id = await reported();
      await t.setParameters({ letsubmitterchoosepriority: '0' });
      expectError(await update(t, id, { priority: 'Highest' }, reporter.apiKey), 115, 401);
      await t.setParameters({ letsubmitterchoosepriority: '1' });
      expect(updated(await update(t, id, { priority: 'Highest' }, reporter.apiKey)).changes.priority.added).toBe('Highest');
    });

    it('rule 13: anyone else may change nothing — 115', async () => {
      const id = await reported();
      expectError(await update(t, id, { summary: 'not mine' }, stranger.apiKey), 115, 401);
      expectError(await update(t, id, { keywords: { set: [] }, whiteboard: 'x' }, stranger.apiKey), 115, 401);
      // Comments and an unchanged value are fine (rules 1 and 2).
      updated(await update(t, id, { comment: { body: 'me too' }, summary: (await getBug(t, id)).summary }, stranger.apiKey));
    });

    it('rule 6: the assignee changes open → open and reassigns', async () => {
      const id = await reported();
      updated(await update(t, id, { status: 'IN_PROGRESS' }, assignee.apiKey));
      updated(await update(t, id, { assigned_to: stranger.login, priority: 'Low' }, assignee.apiKey));
    });

    it('rule 5: confirming needs canconfirm — the assignee gets 123, a canconfirm member confirms', async () => {
      const id = await reported('UNCONFIRMED');
      expectError(await update(t, id, { status: 'CONFIRMED' }, assignee.apiKey), 123, 400);
      expectError(await update(t, id, { status: 'CONFIRMED' }, reporter.apiKey), 123, 400);
      expect(updated(await update(t, id, { status: 'CONFIRMED' }, confirmer.apiKey)).changes.is_confirmed).toEqual({ removed: '0', added: '1' });
    });

    it('rule 7: the QA contact acts like the assignee while useqacontact is on', async () => {
      const id = await reported();
      await setBug(t, id, { qaContactId: stranger.id });
      expectError(await update(t, id, { status: 'IN_PROGRESS' }, stranger.apiKey), 123, 400);
      await t.setParameters({ useqacontact: '1' });
      updated(await update(t, id, { status: 'IN_PROGRESS' }, stranger.apiKey));
      await t.setParameters({ useqacontact: '0' });
    });
  });
});
