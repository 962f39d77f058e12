import { TrackerError } from '../common/errors/index.js';
import { FieldCaller, FieldChangeContext, assertCanChangeField, canChangeField, changesEverConfirmed, isUnchanged, productRights } from './field-permissions.js';

const OPEN = new Set(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']);
const isOpen = (s: string) => OPEN.has(s);

const NOBODY: FieldCaller = {
  inEditbugs: false, inCanconfirm: false, isTimeTracker: false, isAssignee: false, isQaContact: false, isReporter: false,
};

function ctx(field: string, oldValue: unknown, newValue: unknown, caller: Partial<FieldCaller> = {}, extra: Partial<FieldChangeContext> = {}): FieldChangeContext {
  return {
    field, oldValue, newValue, isOpen,
    caller: { ...NOBODY, ...caller },
    params: { useqacontact: true, letsubmitterchoosepriority: true },
    ...extra,
  };
}

describe('canChangeField — workflow.md "Who may change what", first matching rule wins', () => {
  describe('rule 1: an unchanged value is always fine', () => {
    it('compares text after trimming', () => {
      expect(canChangeField(ctx('short_desc', 'Crash', ' Crash  '))).toEqual({ allowed: true, rule: 1 });
    });

    it('compares time fields numerically, even for a non-time-tracker', () => {
      expect(canChangeField(ctx('remaining_time', '10.50', 10.5))).toEqual({ allowed: true, rule: 1 });
      expect(canChangeField(ctx('estimated_time', '0.00', ''))).toEqual({ allowed: true, rule: 1 });
    });

    it('compares lists as sets', () => {
      expect(canChangeField(ctx('keywords', ['a', 'b'], ['b', 'a'])).rule).toBe(1);
      expect(isUnchanged('cc', ['x'], ['x', 'y'])).toBe(false);
    });

    it('treats null and empty as the same', () => {
      expect(isUnchanged('qa_contact', null, '')).toBe(true);
      expect(isUnchanged('cclist_accessible', true, '1')).toBe(true);
    });
  });

  it('rule 2: comments and flags are allowed for anybody who can edit the bug', () => {
    expect(canChangeField(ctx('longdesc', '', 'hello'))).toEqual({ allowed: true, rule: 2 });
    expect(canChangeField(ctx('longdescs.isprivate', 0, 1)).rule).toBe(2);
    expect(canChangeField(ctx('flagtypes.name', '', 'review?'))).toEqual({ allowed: true, rule: 2 });
    expect(canChangeField(ctx('flags', '', 'review?')).rule).toBe(2);
  });

  describe('rule 3: time-tracking fields need the time-tracking group', () => {
    it.each(['estimated_time', 'remaining_time', 'work_time', 'deadline'])('denies %s to a non-time-tracker, even an editbugs reporter', (field) => {
      expect(canChangeField(ctx(field, '0', '5', { inEditbugs: true, isReporter: true, isAssignee: true }))).toEqual({
        allowed: false, privs: 'time_tracking', rule: 3,
      });
    });

    it('lets a time-tracker on to the next rules', () => {
      expect(canChangeField(ctx('deadline', '', '2024-01-01', { isTimeTracker: true, inEditbugs: true }))).toEqual({ allowed: true, rule: 4 });
      expect(canChangeField(ctx('deadline', '', '2024-01-01', { isTimeTracker: true, isReporter: true }))).toEqual({ allowed: true, rule: 12 });
      expect(canChangeField(ctx('deadline', '', '2024-01-01', { isTimeTracker: true })).allowed).toBe(false);
    });
  });

  it('rule 4: editbugs may change anything else, confirming included', () => {
    expect(canChangeField(ctx('assigned_to', 'a@x', 'b@x', { inEditbugs: true }))).toEqual({ allowed: true, rule: 4 });
    expect(canChangeField(ctx('bug_status', 'UNCONFIRMED', 'CONFIRMED', { inEditbugs: true })).rule).toBe(4);
  });

  describe('rule 5: confirming and unconfirming need canconfirm', () => {
    it('confirming (UNCONFIRMED → another open status) by the assignee or reporter alone is denied', () => {
      expect(canChangeField(ctx('bug_status', 'UNCONFIRMED', 'CONFIRMED', { isAssignee: true, isReporter: true, isQaContact: true }))).toEqual({
        allowed: false, privs: 'editbugs', rule: 5,
      });
    });

    it('canconfirm may confirm', () => {
      expect(canChangeField(ctx('status', 'UNCONFIRMED', 'IN_PROGRESS', { inCanconfirm: true }))).toEqual({ allowed: true, rule: 5 });
    });

    it('unconfirming (a confirmed bug → UNCONFIRMED) is the same rule', () => {
      expect(canChangeField(ctx('bug_status', 'CONFIRMED', 'UNCONFIRMED', { isAssignee: true })).rule).toBe(5);
      expect(canChangeField(ctx('bug_status', 'RESOLVED', 'UNCONFIRMED', { isReporter: true }, { everConfirmed: true })).rule).toBe(5);
      expect(canChangeField(ctx('bug_status', 'CONFIRMED', 'UNCONFIRMED', { inCanconfirm: true })).allowed).toBe(true);
    });

    it('reopening a never-confirmed closed bug to an open status confirms it', () => {
      expect(canChangeField(ctx('bug_status', 'RESOLVED', 'CONFIRMED', { isReporter: true }, { everConfirmed: false })).rule).toBe(5);
      // … but back to UNCONFIRMED it does not, so the reporter may reopen it (rule 12).
      expect(canChangeField(ctx('bug_status', 'RESOLVED', 'UNCONFIRMED', { isReporter: true }, { everConfirmed: false }))).toEqual({ allowed: true, rule: 12 });
    });

    it('closing does not confirm', () => {
      expect(changesEverConfirmed(ctx('bug_status', 'UNCONFIRMED', 'RESOLVED'))).toBe(false);
      expect(canChangeField(ctx('bug_status', 'UNCONFIRMED', 'RESOLVED', { isReporter: true }))).toEqual({ allowed: true, rule: 12 });
    });

    it('a change of everconfirmed / is_confirmed itself is a confirmation change', () => {
      expect(canChangeField(ctx('everconfirmed', 0, 1, { isAssignee: true })).rule).toBe(5);
      expect(canChangeField(ctx('is_confirmed', false, true, { inCanconfirm: true }))).toEqual({ allowed: true, rule: 5 });
    });
  });

  it('rule 6: the assignee (current or just replaced) may change the rest', () => {
    expect(canChangeField(ctx('target_milestone', '---', '2.0', { isAssignee: true }))).toEqual({ allowed: true, rule: 6 });
    expect(canChangeField(ctx('bug_status', 'CONFIRMED', 'IN_PROGRESS', { isAssignee: true })).rule).toBe(6);
  });

  it('rule 7: the QA contact may, only while useqacontact is on', () => {
    expect(canChangeField(ctx('priority', 'P3', 'P1', { isQaContact: true }))).toEqual({ allowed: true, rule: 7 });
    const off = { params: { useqacontact: false, letsubmitterchoosepriority: true } };
    expect(canChangeField(ctx('assigned_to', 'a@x', 'b@x', { isQaContact: true }, off))).toEqual({ allowed: false, privs: 'editbugs', rule: 8 });
  });

  it.each(['assigned_to', 'qa_contact', 'target_milestone'])('rule 8: the reporter may not change %s', (field) => {
    expect(canChangeField(ctx(field, 'old', 'new', { isReporter: true }))).toEqual({ allowed: false, privs: 'editbugs', rule: 8 });
  });

  it('rule 9: priority is denied to the reporter when letsubmitterchoosepriority is off', () => {
    const off = { params: { useqacontact: true, letsubmitterchoosepriority: false } };
    expect(canChangeField(ctx('priority', 'P3', 'P1', { isReporter: true }, off))).toEqual({ allowed: false, privs: 'editbugs', rule: 9 });
    expect(canChangeField(ctx('priority', 'P3', 'P1', { isReporter: true }))).toEqual({ allowed: true, rule: 12 });
  });

  it('rule 11: the reporter may not move between open statuses', () => {
    expect(canChangeField(ctx('bug_status', 'CONFIRMED', 'IN_PROGRESS', { isReporter: true }))).toEqual({ allowed: false, privs: 'editbugs', rule: 11 });
  });

  it('rule 12: the reporter may close and reopen their bug and change summary, keywords, cc …', () => {
    expect(canChangeField(ctx('bug_status', 'CONFIRMED', 'RESOLVED', { isReporter: true }))).toEqual({ allowed: true, rule: 12 });
    expect(canChangeField(ctx('bug_status', 'RESOLVED', 'CONFIRMED', { isReporter: true }, { everConfirmed: true })).rule).toBe(12);
    expect(canChangeField(ctx('short_desc', 'a', 'b', { isReporter: true })).rule).toBe(12);
    expect(canChangeField(ctx('keywords', [], ['crash'], { isReporter: true })).rule).toBe(12);
  });

  it('rule 13: anybody else is denied', () => {
    expect(canChangeField(ctx('short_desc', 'a', 'b'))).toEqual({ allowed: false, privs: 'editbugs', rule: 13 });
    expect(canChangeField(ctx('cc', [], ['me@x'])).rule).toBe(13);
  });
});

describe('assertCanChangeField', () => {
  it('passes silently when allowed', () => {
    expect(() => assertCanChangeField(ctx('short_desc', 'a', 'b', { isReporter: true }))).not.toThrow();
  });

  it('throws 115 (HTTP 401) with the field and both values', () => {
    try {
      assertCanChangeField(ctx('assigned_to', 'a@x', 'b@x', { isReporter: true }));
      throw new Error('expected a throw');
    } catch (e) {
      const err = e as TrackerError;
      expect(err.code).toBe(115);
      expect(err.httpStatus).toBe(401);
      expect(err.params).toEqual({ field: 'assigned_to', oldvalue: 'a@x', newvalue: 'b@x', privs: 'editbugs' });
      expect(err.message).toContain("from 'a@x'");
    }
  });

  it('reports time_tracking privileges for rule 3 and joins list values', () => {
    try {
      assertCanChangeField(ctx('estimated_time', 0, 5));
      throw new Error('expected a throw');
    } catch (e) {
      expect((e as TrackerError).params).toMatchObject({ privs: 'time_tracking', oldvalue: '0', newvalue: '5' });
    }
    try {
      assertCanChangeField(ctx('keywords', ['a'], ['a', 'b']));
      throw new Error('expected a throw');
    } catch (e) {
      expect((e as TrackerError).params).toMatchObject({ oldvalue: 'a', newvalue: 'a, b' });
    }
  });
});

describe('productRights — in_group(group, product_id), for Create and Update Bug', () => {
  const caller = (groups: string[], groupIds: number[] = []) => ({
    inGroup: (name: string) => groups.includes(name),
    inGroupId: (id: number) => groupIds.includes(id),
  });
  const control = (groupId: number, rights: { editbugs?: boolean; canconfirm?: boolean }) => ({ groupId, editbugs: false, canconfirm: false, ...rights });

  it('the global groups grant the rights in every product; editbugs implies canconfirm', () => {
    expect(productRights(caller(['editbugs']), [])).toEqual({ inEditbugs: true, inCanconfirm: true });
    expect(productRights(caller(['canconfirm']), [])).toEqual({ inEditbugs: false, inCanconfirm: true });
    expect(productRights(caller([]), [])).toEqual({ inEditbugs: false, inCanconfirm: false });
  });

  it('a control row grants its rights to the members of its group only', () => {
    const controls = [control(7, { editbugs: true }), control(8, { canconfirm: true })];
    expect(productRights(caller([], [7]), controls)).toEqual({ inEditbugs: true, inCanconfirm: true });
    expect(productRights(caller([], [8]), controls)).toEqual({ inEditbugs: false, inCanconfirm: true });
    expect(productRights(caller([], [9]), controls)).toEqual({ inEditbugs: false, inCanconfirm: false });
  });
});
