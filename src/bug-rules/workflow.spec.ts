import { caughtError } from '../common/errors/testing.js';
import type { StatusDef, Transition } from '../field/field.types.js';
import {
  PlanStatusChangeInput,
  allowedTransitions,
  checkTransition,
  chooseInitialStatus,
  initialStatusCandidates,
  planStatusChange,
} from './workflow.js';

// The fresh-installation data of workflow.md.
const STATUSES: StatusDef[] = [
  { name: 'UNCONFIRMED', isOpen: true, isActive: true, sortKey: 100 },
  { name: 'CONFIRMED', isOpen: true, isActive: true, sortKey: 200 },
  { name: 'IN_PROGRESS', isOpen: true, isActive: true, sortKey: 300 },
  { name: 'RESOLVED', isOpen: false, isActive: true, sortKey: 400 },
  { name: 'VERIFIED', isOpen: false, isActive: true, sortKey: 500 },
];

const t = (from: string | null, to: string, requireComment = false): Transition => ({ from, to, requireComment });
const TRANSITIONS: Transition[] = [
  t(null, 'UNCONFIRMED'), t(null, 'CONFIRMED'), t(null, 'IN_PROGRESS'),
  t('UNCONFIRMED', 'CONFIRMED'), t('UNCONFIRMED', 'IN_PROGRESS'), t('UNCONFIRMED', 'RESOLVED'),
  t('CONFIRMED', 'IN_PROGRESS'), t('CONFIRMED', 'RESOLVED'),
  t('IN_PROGRESS', 'CONFIRMED'), t('IN_PROGRESS', 'RESOLVED'),
  t('RESOLVED', 'UNCONFIRMED'), t('RESOLVED', 'CONFIRMED'), t('RESOLVED', 'VERIFIED'),
  t('VERIFIED', 'UNCONFIRMED'), t('VERIFIED', 'CONFIRMED'),
];
const RESOLUTIONS = ['FIXED', 'INVALID', 'WONTFIX', 'DUPLICATE', 'WORKSFORME'];

const names = (list: StatusDef[]) => list.map((s) => s.name);


describe('initial status on Create Bug (workflow.md)', () => {
  it('offers the (new bug) row in sort-key order — rule 1', () => {
    expect(names(initialStatusCandidates(STATUSES, TRANSITIONS, true))).toEqual(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']);
  });

  it('drops UNCONFIRMED when the product has has_unconfirmed off', () => {
    expect(names(initialStatusCandidates(STATUSES, TRANSITIONS, false))).toEqual(['CONFIRMED', 'IN_PROGRESS']);
  });

  it('skips inactive statuses', () => {
    const statuses = STATUSES.map((s) => (s.name === 'IN_PROGRESS' ? { ...s, isActive: false } : s));
    expect(names(initialStatusCandidates(statuses, TRANSITIONS, true))).toEqual(['UNCONFIRMED', 'CONFIRMED']);
  });

  const candidates = initialStatusCandidates(STATUSES, TRANSITIONS, true);

  it('gives a privileged caller the first non-UNCONFIRMED candidate by default — rule 2', () => {
    expect(chooseInitialStatus({ canConfirm: true, candidates })).toEqual({ status: 'CONFIRMED', isConfirmed: true });
    expect(chooseInitialStatus({ requested: '', canConfirm: true, candidates }).status).toBe('CONFIRMED');
  });

  it('uses the only candidate when there is just one — rule 2', () => {
    const only = STATUSES.filter((s) => s.name === 'UNCONFIRMED');
    expect(chooseInitialStatus({ canConfirm: true, candidates: only })).toEqual({ status: 'UNCONFIRMED', isConfirmed: false });
  });

  it('lets a privileged caller pick any candidate, IN_PROGRESS included — rules 2 and 6', () => {
    expect(chooseInitialStatus({ requested: 'IN_PROGRESS', canConfirm: true, candidates })).toEqual({ status: 'IN_PROGRESS', isConfirmed: true });
    expect(chooseInitialStatus({ requested: 'UNCONFIRMED', canConfirm: true, candidates })).toEqual({ status: 'UNCONFIRMED', isConfirmed: false });
  });

  it('ignores the request of a caller without editbugs/canconfirm and files UNCONFIRMED — rule 3', () => {
    expect(chooseInitialStatus({ requested: 'IN_PROGRESS', canConfirm: false, candidates })).toEqual({ status: 'UNCONFIRMED', isConfirmed: false });
    expect(chooseInitialStatus({ requested: 'RESOLVED', canConfirm: false, candidates }).status).toBe('UNCONFIRMED');
  });

  it('gives an unprivileged caller the first candidate when UNCONFIRMED is not allowed — rule 3', () => {
    const noUnconfirmed = initialStatusCandidates(STATUSES, TRANSITIONS, false);
    expect(chooseInitialStatus({ canConfirm: false, candidates: noUnconfirmed })).toEqual({ status: 'CONFIRMED', isConfirmed: true });
  });

  it('refuses a closed status with 123 naming it — rules 4 and 6', () => {
    const e = caughtError(() => chooseInitialStatus({ requested: 'RESOLVED', canConfirm: true, candidates }));
    expect(e.code).toBe(123);
    expect(e.httpStatus).toBe(400);
    expect(e.params).toEqual({ new: 'RESOLVED' });
    expect(e.message).toBe('You are not allowed to file new bugs with the RESOLVED status.');
  });

  it('refuses UNCONFIRMED with 123 in a product without it', () => {
    const noUnconfirmed = initialStatusCandidates(STATUSES, TRANSITIONS, false);
    expect(caughtError(() => chooseInitialStatus({ requested: 'UNCONFIRMED', canConfirm: true, candidates: noUnconfirmed })).code).toBe(123);
  });

  it('refuses an unknown status with 51 when the status list is given, 123 otherwise', () => {
    expect(caughtError(() => chooseInitialStatus({ requested: 'NEW', canConfirm: true, candidates, allStatuses: STATUSES })).code).toBe(51);
    expect(caughtError(() => chooseInitialStatus({ requested: 'NEW', canConfirm: true, candidates })).code).toBe(123);
  });

  it('refuses when no status is available at all', () => {
    expect(caughtError(() => chooseInitialStatus({ canConfirm: true, candidates: [] })).code).toBe(123);
  });
});

describe('allowedTransitions — the workflow list of an existing bug', () => {
  it.each([
    ['UNCONFIRMED', ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED']],
    ['CONFIRMED', ['CONFIRMED', 'IN_PROGRESS', 'RESOLVED']],
    ['IN_PROGRESS', ['CONFIRMED', 'IN_PROGRESS', 'RESOLVED']],
    ['RESOLVED', ['UNCONFIRMED', 'CONFIRMED', 'RESOLVED', 'VERIFIED']],
    ['VERIFIED', ['UNCONFIRMED', 'CONFIRMED', 'VERIFIED']],
  ])('from %s is the table row plus the bug\'s own status', (from, expected) => {
    expect(names(allowedTransitions(from, STATUSES, TRANSITIONS, true))).toEqual(expected);
  });

  it('removes UNCONFIRMED when the product disallows it, but keeps it as the bug\'s own status', () => {
    expect(names(allowedTransitions('RESOLVED', STATUSES, TRANSITIONS, false))).toEqual(['CONFIRMED', 'RESOLVED', 'VERIFIED']);
    expect(names(allowedTransitions('UNCONFIRMED', STATUSES, TRANSITIONS, false))).toEqual(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED']);
  });

  it('skips inactive targets but keeps an inactive current status', () => {
    const statuses = STATUSES.map((s) => (s.name === 'VERIFIED' || s.name === 'IN_PROGRESS' ? { ...s, isActive: false } : s));
    expect(names(allowedTransitions('RESOLVED', statuses, TRANSITIONS, true))).toEqual(['UNCONFIRMED', 'CONFIRMED', 'RESOLVED']);
    expect(names(allowedTransitions('IN_PROGRESS', statuses, TRANSITIONS, true))).toEqual(['CONFIRMED', 'IN_PROGRESS', 'RESOLVED']);
  });

  it('filters through the field-permission check', () => {
    const canSet = (s: string) => s !== 'IN_PROGRESS';
    expect(names(allowedTransitions('CONFIRMED', STATUSES, TRANSITIONS, true, canSet))).toEqual(['CONFIRMED', 'RESOLVED']);
  });
});

describe('checkTransition', () => {
  const base = { statuses: STATUSES, transitions: TRANSITIONS, productHasUnconfirmed: true };

  it('returns the table row of an allowed move and null when the status stays', () => {
    expect(checkTransition({ ...base, from: 'CONFIRMED', to: 'RESOLVED' })).toEqual(t('CONFIRMED', 'RESOLVED'));
    expect(checkTransition({ ...base, from: 'CONFIRMED', to: 'CONFIRMED' })).toBeNull();
  });

  it('refuses a move outside the table with 123 naming both statuses', () => {
    const e = caughtError(() => checkTransition({ ...base, from: 'VERIFIED', to: 'IN_PROGRESS' }));
    expect(e.code).toBe(123);
    expect(e.params).toEqual({ old: 'VERIFIED', new: 'IN_PROGRESS' });
    expect(e.message).toBe('You are not allowed to change the bug status from VERIFIED to IN_PROGRESS.');
  });

  it('refuses a status the caller may not set with 123, not 115', () => {
    expect(caughtError(() => checkTransition({ ...base, from: 'CONFIRMED', to: 'IN_PROGRESS', canSet: () => false })).code).toBe(123);
  });

  it('refuses UNCONFIRMED in a product without it with 123', () => {
    expect(caughtError(() => checkTransition({ ...base, productHasUnconfirmed: false, from: 'RESOLVED', to: 'UNCONFIRMED' })).code).toBe(123);
  });

  it('refuses an unknown status with 51 and an empty one with 50', () => {
    expect(caughtError(() => checkTransition({ ...base, from: 'CONFIRMED', to: 'NEW' })).code).toBe(51);
    expect(caughtError(() => checkTransition({ ...base, from: 'CONFIRMED', to: '  ' })).code).toBe(50);
  });

  it('requires a comment when the row says so (comment_required, 32000)', () => {
    const transitions = TRANSITIONS.map((r) => (r.from === 'CONFIRMED' && r.to === 'RESOLVED' ? { ...r, requireComment: true } : r));
    const e = caughtError(() => checkTransition({ ...base, transitions, from: 'CONFIRMED', to: 'RESOLVED' }));
    expect(e.code).toBe(32000);
    expect(e.errorName).toBe('comment_required');
    expect(checkTransition({ ...base, transitions, from: 'CONFIRMED', to: 'RESOLVED', hasComment: true })?.requireComment).toBe(true);
  });
});

/** A planStatusChange input for a CONFIRMED bug under the default workflow (the product allows UNCONFIRMED). */
const input = (bug: Partial<PlanStatusChangeInput['bug']>, request: PlanStatusChangeInput['request'], extra: Partial<PlanStatusChangeInput> = {}): PlanStatusChangeInput => ({
  bug: { id: 10, status: 'CONFIRMED', resolution: '', dupeOf: null, ...bug },
  request,
  statuses: STATUSES,
  resolutions: RESOLUTIONS,
  duplicateStatus: 'RESOLVED',
  transitions: TRANSITIONS,
  productHasUnconfirmed: true,
  ...extra,
});
const plan = (...args: Parameters<typeof input>) => planStatusChange(input(...args));
const fail = (...args: Parameters<typeof input>) => caughtError(() => planStatusChange(input(...args)));

describe('planStatusChange — status and resolution on Update Bug (workflow.md)', () => {

  it('changes nothing when the request has no status, resolution or dupe_of', () => {
    expect(plan({}, {})).toEqual({
      status: 'CONFIRMED', resolution: '', dupeOf: null, dupeOfFromRequest: false,
      zeroRemainingTime: false, statusChanged: false, resolutionChanged: false,
    });
  });

  it('closes with the given resolution and zeroes the remaining time', () => {
    expect(plan({}, { status: 'RESOLVED', resolution: 'FIXED' })).toEqual({
      status: 'RESOLVED', resolution: 'FIXED', dupeOf: null, dupeOfFromRequest: false,
      zeroRemainingTime: true, statusChanged: true, resolutionChanged: true,
    });
  });

  it('leaves is_confirmed alone when closing', () => {
    expect(plan({}, { status: 'RESOLVED', resolution: 'FIXED' }).isConfirmed).toBeUndefined();
  });

  it('refuses closing without a resolution with 121 naming the status', () => {
    const e = fail({}, { status: 'RESOLVED' });
    expect(e.code).toBe(121);
    expect(e.message).toBe('A valid resolution is required to mark bugs as RESOLVED.');
    expect(fail({}, { status: 'RESOLVED', resolution: '' }).code).toBe(121);
    expect(fail({}, { status: 'RESOLVED', resolution: null }).code).toBe(121);
  });

  it('keeps the current resolution when moving between closed statuses without one, zeroing remaining time', () => {
    const p = plan({ status: 'RESOLVED', resolution: 'FIXED' }, { status: 'VERIFIED' });
    expect(p).toMatchObject({ status: 'VERIFIED', resolution: 'FIXED', zeroRemainingTime: true, resolutionChanged: false });
  });

  it('treats a null resolution next to a closed status as "not sent" (Bugzilla tests defined)', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'FIXED' }, { status: 'VERIFIED', resolution: null }).resolution).toBe('FIXED');
  });

  it('refuses a blank resolution next to a closed status with 121', () => {
    expect(fail({ status: 'RESOLVED', resolution: 'FIXED' }, { status: 'VERIFIED', resolution: '' }).code).toBe(121);
  });

  it('changes the resolution of a closed bug without a status (FIXED → WONTFIX), without zeroing', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'FIXED' }, { resolution: 'WONTFIX' })).toMatchObject({
      status: 'RESOLVED', resolution: 'WONTFIX', zeroRemainingTime: false, resolutionChanged: true, statusChanged: false,
    });
  });

  it.each([['FIXED'], [''], [null]])('refuses resolution %p on an open bug with 122', (resolution) => {
    const e = fail({}, { resolution });
    expect(e.code).toBe(122);
    expect(e.httpStatus).toBe(400);
  });

  it('refuses blanking the resolution of a closed bug with 121', () => {
    expect(fail({ status: 'RESOLVED', resolution: 'FIXED' }, { resolution: '' }).code).toBe(121);
    expect(fail({ status: 'RESOLVED', resolution: 'FIXED' }, { resolution: null }).code).toBe(121);
  });

  it('checks an unknown resolution name (51) before the open/closed checks', () => {
    const e = fail({}, { resolution: 'MOVED' });
    expect(e.code).toBe(51);
    expect(e.message).toBe("There is no resolution named 'MOVED'.");
    expect(fail({}, { status: 'RESOLVED', resolution: 'MOVED' }).code).toBe(51);
  });

  it('reopens: clears resolution and dupe_of, sets is_confirmed true', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 5 }, { status: 'CONFIRMED' })).toEqual({
      status: 'CONFIRMED', resolution: '', dupeOf: null, dupeOfFromRequest: false, isConfirmed: true,
      zeroRemainingTime: false, statusChanged: true, resolutionChanged: true,
    });
  });

  it('reopening to UNCONFIRMED sets is_confirmed false', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'FIXED' }, { status: 'UNCONFIRMED' }).isConfirmed).toBe(false);
  });

  it('silently drops a resolution and dupe_of sent with an open status', () => {
    expect(plan({}, { status: 'IN_PROGRESS', resolution: 'FIXED', dupeOf: 7 })).toMatchObject({
      status: 'IN_PROGRESS', resolution: '', dupeOf: null, dupeOfFromRequest: false, isConfirmed: true,
    });
    // Also when the bug keeps its open status.
    expect(plan({}, { status: 'CONFIRMED', resolution: 'FIXED' })).toMatchObject({ status: 'CONFIRMED', resolution: '' });
  });

  it('refuses a status outside the workflow with 123', () => {
    expect(fail({ status: 'VERIFIED', resolution: 'FIXED' }, { status: 'IN_PROGRESS' }).code).toBe(123);
  });

  it('refuses a status the caller may not set with 123', () => {
    expect(fail({}, { status: 'IN_PROGRESS' }, { canSetStatus: () => false }).code).toBe(123);
  });

  it('refuses an unknown status with 51 and an empty one with 50', () => {
    expect(fail({}, { status: 'ASSIGNED' }).code).toBe(51);
    expect(fail({}, { status: '' }).code).toBe(50);
  });

  it('requires a comment for a workflow row that says so', () => {
    const transitions = TRANSITIONS.map((r) => (r.from === 'CONFIRMED' && r.to === 'RESOLVED' ? { ...r, requireComment: true } : r));
    expect(fail({}, { status: 'RESOLVED', resolution: 'FIXED' }, { transitions }).errorName).toBe('comment_required');
    expect(plan({}, { status: 'RESOLVED', resolution: 'FIXED' }, { transitions, hasComment: true }).status).toBe('RESOLVED');
  });

  it('requires a comment for a resolution change when commentonchange_resolution is on', () => {
    const params = { commentonchange_resolution: true };
    expect(fail({ status: 'RESOLVED', resolution: 'FIXED' }, { resolution: 'WONTFIX' }, { params }).errorName).toBe('comment_required');
    expect(plan({ status: 'RESOLVED', resolution: 'FIXED' }, { resolution: 'WONTFIX' }, { params, hasComment: true }).resolution).toBe('WONTFIX');
    // Keeping the same resolution is not a change.
    expect(plan({ status: 'RESOLVED', resolution: 'FIXED' }, { status: 'VERIFIED' }, { params }).status).toBe('VERIFIED');
  });

  it('leaving DUPLICATE by changing the resolution clears dupe_of', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 5 }, { resolution: 'FIXED' })).toMatchObject({
      resolution: 'FIXED', dupeOf: null,
    });
  });
});

describe('planStatusChange — duplicates (workflow.md "Duplicates")', () => {

  it('dupe_of alone moves an open bug to duplicate_or_move_bug_status + DUPLICATE', () => {
    expect(plan({}, { dupeOf: 42 })).toEqual({
      status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 42, dupeOfFromRequest: true,
      zeroRemainingTime: true, statusChanged: true, resolutionChanged: true,
    });
  });

  it('dupe_of alone moves a VERIFIED bug back to RESOLVED even though the table has no such row', () => {
    expect(plan({ status: 'VERIFIED', resolution: 'FIXED' }, { dupeOf: 42 })).toMatchObject({
      status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 42,
    });
  });

  it('honours another duplicate_or_move_bug_status', () => {
    expect(plan({}, { dupeOf: 42 }, { duplicateStatus: 'VERIFIED' })).toMatchObject({ status: 'VERIFIED', resolution: 'DUPLICATE' });
  });

  it('dupe_of on a bug that is already a duplicate only retargets it (status kept, even VERIFIED)', () => {
    expect(plan({ status: 'VERIFIED', resolution: 'DUPLICATE', dupeOf: 5 }, { dupeOf: 42 })).toEqual({
      status: 'VERIFIED', resolution: 'DUPLICATE', dupeOf: 42, dupeOfFromRequest: true,
      zeroRemainingTime: false, statusChanged: false, resolutionChanged: false,
    });
  });

  it('the same target again is a no-op', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 5 }, { dupeOf: '5' })).toMatchObject({ dupeOf: 5, dupeOfFromRequest: false });
  });

  it('passes an alias through for the caller to resolve', () => {
    expect(plan({}, { dupeOf: ' the-alias ' })).toMatchObject({ dupeOf: 'the-alias', dupeOfFromRequest: true, resolution: 'DUPLICATE' });
  });

  it('turns a numeric string into a number', () => {
    expect(plan({}, { dupeOf: '42' }).dupeOf).toBe(42);
  });

  it('refuses an empty dupe_of with 50', () => {
    expect(fail({}, { dupeOf: '' }).code).toBe(50);
    expect(fail({}, { dupeOf: null }).code).toBe(50);
    expect(fail({}, { dupeOf: 0 }).code).toBe(50);
  });

  it('refuses making a bug a duplicate of itself with 118', () => {
    expect(fail({}, { dupeOf: 10 }).code).toBe(118);
  });

  it('closed status + DUPLICATE without dupe_of on a bug without a target gives 119', () => {
    const e = fail({}, { status: 'RESOLVED', resolution: 'DUPLICATE' });
    expect(e.code).toBe(119);
    expect(fail({ status: 'RESOLVED', resolution: 'FIXED' }, { resolution: 'DUPLICATE' }).code).toBe(119);
    expect(fail({}, { status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: '' }).code).toBe(119);
  });

  it('closed status + DUPLICATE + dupe_of marks the duplicate without a second status move', () => {
    expect(plan({}, { status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 42 })).toMatchObject({
      status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 42, dupeOfFromRequest: true, zeroRemainingTime: true,
    });
  });

  it('a VERIFIED target status with DUPLICATE keeps VERIFIED when the client asks for it', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'FIXED' }, { status: 'VERIFIED', resolution: 'DUPLICATE', dupeOf: 42 })).toMatchObject({
      status: 'VERIFIED', resolution: 'DUPLICATE', dupeOf: 42,
    });
  });

  it('a bug that already has a target keeps it when set to DUPLICATE again', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 5 }, { status: 'VERIFIED', resolution: 'DUPLICATE' })).toMatchObject({
      status: 'VERIFIED', dupeOf: 5, dupeOfFromRequest: false,
    });
  });

  it('drops a dupe_of sent with a non-DUPLICATE resolution', () => {
    expect(plan({}, { status: 'RESOLVED', resolution: 'FIXED', dupeOf: 42 })).toMatchObject({ resolution: 'FIXED', dupeOf: null, dupeOfFromRequest: false });
  });

  it('resolution DUPLICATE + dupe_of on a closed bug (no status) marks it', () => {
    expect(plan({ status: 'RESOLVED', resolution: 'FIXED' }, { resolution: 'DUPLICATE', dupeOf: 42 })).toMatchObject({
      status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 42, zeroRemainingTime: true,
    });
  });

  it('requires a comment for a new target when commentonduplicate is on', () => {
    const params = { commentonduplicate: true };
    expect(fail({}, { dupeOf: 42 }, { params }).errorName).toBe('comment_required');
    expect(plan({}, { dupeOf: 42 }, { params, hasComment: true }).dupeOf).toBe(42);
  });
});
