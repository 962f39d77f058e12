import { getMetadataArgsStorage } from 'typeorm';
import { followsWrites, ROW_FOLLOWING, stateAfter, type RowFollowing } from './update-projection.js';
import { Bug } from '../../bug/entities/bug.entity.js';
import { BugWork, type UpdateRun } from '../update/bug-work.js';
import type { LockedBug } from '../../bug/store/bug-loader.service.js';
import type { Caller } from '../../common/caller.js';
import type { ProductRecord } from '../../product/product.service.js';
import type { UserRecord } from '../../user/user.service.js';
import type { LoadedBug, UserDetail } from '../../bug/loaded-bug.js';
import type { BugRow } from '../../bug/bug.types.js';
import type { BugColumns } from '../../bug/store/bug-store.service.js';

const person = (id: number, login: string): UserDetail => ({ id, login, realName: login.toUpperCase(), email: login });
const reporter = person(1, 'reporter@example.com');
const zed = person(2, 'zed@example.com');
const amy: UserRecord = { ...person(3, 'amy@example.com'), cryptpassword: null, loginDeniedText: '', emailEnabled: true };

const row: BugRow = {
  id: 10, summary: 's', status: 'CONFIRMED', resolution: '', productId: 1, componentId: 1, version: 'unspecified', targetMilestone: '---',
  opSys: 'All', platform: 'All', priority: '---', severity: 'normal', reporterId: 1, assignedToId: 1, qaContactId: null, url: '', whiteboard: '',
  isConfirmed: true, isCreatorAccessible: true, isCcAccessible: true, estimatedTime: 0, remainingTime: 0, deadline: null,
  creationTime: '2026-01-01 00:00:00', lastChangeTime: '2026-01-01 00:00:00', type: 'defect', filedVia: 'api',
};

const bug: LoadedBug = {
  row, product: 'P', component: 'C', classification: 'Unclassified', reporter, assignee: reporter, qaContact: null, dupeOf: null, isOpen: true,
  visible: true, aliases: [], cc: [zed], keywords: ['b', 'A'], groups: [], blocks: [], dependsOn: [], seeAlso: [], flags: [], custom: new Map(), tags: [],
  actualTime: 2, regressedBy: [], regressions: [], duplicates: [], commentCount: 1, triageOwner: null,
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
    reordered: new Set<number>(),
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

  it('follows nothing it cannot: an alias, a product move, a bug changed or reordered through another, names of another settings mark', () => {
    const aliased = work();
    aliased.changes.record('alias', '', 'x');
    expect(stateAfter(aliased, basis())).toBeUndefined();
    const moved = work();
    moved.productChanged = true;
    expect(stateAfter(moved, basis())).toBeUndefined();
    const bumped = work();
    bumped.run.bumped.add(10);
    expect(stateAfter(bumped, basis())).toBeUndefined();
    const reordered = work();
    reordered.run.reordered.add(10);
    expect(stateAfter(reordered, basis())).toBeUndefined();
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

/** Columns of `bugs` a loaded bug's row does not hold, and why. */
const NOT_IN_ROW: Readonly<Record<string, string>> = {
  revision: 'the stamp a kept bug is kept under (LoadedBugCache), read with the bug, not shown',
};

/** The value a change of `column` sets in the tests below: one the state can name (a known person, a workflow status). */
function changedValue(column: keyof BugRow): unknown {
  const overrides: Partial<BugRow> = { status: 'RESOLVED', qaContactId: amy.id, deadline: '2026-03-03' };
  if (column in overrides) return overrides[column];
  const before = row[column];
  return typeof before === 'number' ? amy.id : typeof before === 'boolean' ? !before : `changed ${column}`;
}

/** The row's columns an update records changes of, by how the state follows them: each is one of the update's columns. */
const changedUnder = <K extends 'followed' | 'readAgain'>(kind: K) =>
  Object.entries(ROW_FOLLOWING).flatMap(([column, following]: [string, RowFollowing]) =>
    kind in following ? [[column as keyof BugColumns, (following as Record<K, string>)[kind]] as const] : []);

describe('every column of a bug is followed by kept bugs, or says why not (ROW_FOLLOWING)', () => {
  it('the Bug entity\'s columns are the row\'s columns (each with how an update follows it) and the ones excluded with a reason', () => {
    const entityColumns = getMetadataArgsStorage().columns.filter((column) => column.target === Bug).map((column) => column.propertyName);
    const unhandled = entityColumns.filter((column) => !(column in ROW_FOLLOWING) && !(column in NOT_IN_ROW));
    expect(unhandled).toEqual([]);
    expect(Object.keys(ROW_FOLLOWING).filter((column) => !entityColumns.includes(column))).toEqual([]);
    expect(Object.keys(NOT_IN_ROW).filter((column) => !entityColumns.includes(column))).toEqual([]);
  });

  it.each(changedUnder('followed'))('%s: its change (%s) is followed into the kept state', (column, field) => {
    const w = work();
    const value = changedValue(column);
    w.set(column, field, row[column], value);
    expect(stateAfter(w, basis())?.detail.row[column]).toEqual(value);
  });

  it.each(changedUnder('readAgain'))('%s: its change (%s) is not followed: the bug is read again', (column, field) => {
    const w = work();
    w.set(column, field, row[column], changedValue(column));
    expect(stateAfter(w, basis())).toBeUndefined();
  });
});
