import { followsWrites, stateAfter } from './update-projection.js';
import { BugWork, type UpdateRun } from './bug-work.js';
import type { LockedBug } from '../../bug/store/bug-loader.service.js';
import type { Caller } from '../../common/caller.js';
import type { ProductRecord } from '../../product/product.service.js';
import type { UserRecord } from '../../user/user.service.js';
import type { LoadedBug, UserDetail } from '../../bug/loaded-bug.js';
import type { BugRow } from '../../bug/bug.types.js';

const person = (id: number, login: string): UserDetail => ({ id, login, realName: login.toUpperCase(), email: login });
const reporter = person(1, 'reporter@example.com');
const zed = person(2, 'zed@example.com');
const amy: UserRecord = { ...person(3, 'amy@example.com'), cryptpassword: null, loginDeniedText: '', emailEnabled: true };

const row: BugRow = {
  id: 10, summary: 's', status: 'CONFIRMED', resolution: '', productId: 1, componentId: 1, version: 'unspecified', targetMilestone: '---',
  opSys: 'All', platform: 'All', priority: '---', severity: 'normal', reporterId: 1, assignedToId: 1, qaContactId: null, url: '', whiteboard: '',
  isConfirmed: true, isCreatorAccessible: true, isCcAccessible: true, estimatedTime: 0, remainingTime: 0, deadline: null,
  creationTime: '2026-01-01 00:00:00', lastChangeTime: '2026-01-01 00:00:00',
};

const bug: LoadedBug = {
  row, product: 'P', component: 'C', classification: 'Unclassified', reporter, assignee: reporter, qaContact: null, dupeOf: null, isOpen: true,
  visible: true, aliases: [], cc: [zed], keywords: ['b', 'A'], groups: [], blocks: [], dependsOn: [], seeAlso: [], flags: [], custom: new Map(), tags: [],
  actualTime: 2,
};

const basis = (mark = 7): LockedBug => ({
  bug, stamp: { revision: 4, settingsMark: mark, visible: true }, relations: new Set(['alias', 'cc', 'keywords', 'groups', 'actual_time']), customFields: [],
  movedElsewhere: false,
});

function work(): BugWork {
  const run = {
    caller: { settingsMark: 7 } as Caller,
    at: '2026-02-02 10:00:00',
    namedUsers: new Map([[amy.login, amy]]),
    bumped: new Set<number>(),
    workflow: { statuses: [{ name: 'CONFIRMED', isOpen: true }, { name: 'RESOLVED', isOpen: false }], transitions: [], resolutions: ['FIXED'] },
  } as unknown as UpdateRun;
  return new BugWork(run, bug, {} as never, {} as ProductRecord);
}

describe('stateAfter: the bug as the loader will read it after an update', () => {
  it('follows the columns, the open-ness of the new status, cc and keywords, sorted as the loader sorts them', () => {
    const w = work();
    w.set('status', 'status', 'CONFIRMED', 'RESOLVED');
    w.set('resolution', 'resolution', '', 'FIXED');
    w.set('assignedToId', 'assigned_to', reporter.login, amy.login, amy.id);
    w.noteCcChange([amy], []);
    w.changes.record('cc', '', amy.login);
    w.keywords = ['c', 'b', 'A'];
    w.changes.record('keywords', '', 'c');
    w.columns.lastChangeTime = '2026-02-02 10:00:00';
    const after = stateAfter(w, basis())!;
    expect(after.detail.row).toMatchObject({ status: 'RESOLVED', resolution: 'FIXED', assignedToId: 3, lastChangeTime: '2026-02-02 10:00:00' });
    expect(after.detail.isOpen).toBe(false);
    expect(after.detail.assignee).toEqual(person(3, 'amy@example.com'));
    expect(after.relations.cc.map((u) => u.login)).toEqual(['amy@example.com', 'zed@example.com']);
    expect(after.relations.keywords).toEqual(['A', 'b', 'c']);
    expect(after.wanted).toEqual(new Set(['alias', 'cc', 'keywords', 'groups', 'actual_time']));
    expect(after.settingsMark).toBe(7);
  });

  it('leaves the actual time to the database after work time', () => {
    const w = work();
    w.quiet.push({ field: 'work_time', removed: '', added: '1.50', commentId: 5 });
    expect(stateAfter(w, basis())!.wanted.has('actual_time')).toBe(false);
  });

  it('follows nothing it cannot: an alias, a product move, a bug changed through another, names of another settings mark', () => {
    const aliased = work();
    aliased.changes.record('alias', '', 'x');
    expect(stateAfter(aliased, basis())).toBeUndefined();
    const moved = work();
    moved.productChanged = true;
    expect(stateAfter(moved, basis())).toBeUndefined();
    const bumped = work();
    bumped.run.bumped.add(10);
    expect(stateAfter(bumped, basis())).toBeUndefined();
    expect(stateAfter(work(), basis(8))).toBeUndefined();
  });

  it('follows nobody it has no details of (a default QA contact the request did not name)', () => {
    const w = work();
    w.set('qaContactId', 'qa_contact', '', 'default-qa@example.com', 99);
    expect(stateAfter(w, basis())).toBeUndefined();
  });
});

describe('followsWrites: only what stateAfter can follow was written', () => {
  it('the row, cc, keywords, comments, history and outboxes, and nothing else', () => {
    expect(followsWrites(new Set(['bugs', 'bug_cc', 'bug_keywords', 'comments', 'bug_activity', 'mail_queue', 'webhook_deliveries']))).toBe(true);
    expect(followsWrites(new Set(['bugs', 'flags']))).toBe(false);
    expect(followsWrites(new Set(['bugs', 'bug_custom_values']))).toBe(false);
  });
});
