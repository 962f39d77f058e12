import { caughtError } from '../common/errors/testing.js';
import { ApplicableFlagType, ExistingFlag, FlagContext, checkFlagPermission, resolveFlagChange, resolveFlagChanges } from './flags.js';

const type = (id: number, name: string, over: Partial<ApplicableFlagType> = {}): ApplicableFlagType => ({
  id, name, isActive: true, isRequestable: true, isRequesteeble: true, isMultiplicable: false,
  grantGroupId: null, requestGroupId: null, ...over,
});
const flag = (id: number, t: ApplicableFlagType, over: Partial<ExistingFlag> = {}): ExistingFlag => ({
  id, typeId: t.id, typeName: t.name, status: '?', requesteeLogin: null, setterLogin: 'setter@x', ...over,
});

const REVIEW = type(1, 'review', { isMultiplicable: true });
const APPROVAL = type(2, 'approval');
const QA = type(3, 'qa', { isRequestable: false, isRequesteeble: false });
const OLD = type(4, 'old', { isActive: false });
const TWIN_A = type(5, 'twin');
const TWIN_B = type(6, 'twin');

const TYPES = [REVIEW, APPROVAL, QA, OLD, TWIN_A, TWIN_B];


describe('resolveFlagChange — picking the target (updates.md "Flag change object")', () => {
  const reviewFlag = flag(10, REVIEW, { requesteeLogin: 'dev@x' });
  const ctx: FlagContext = { existingFlags: [reviewFlag], applicableTypes: TYPES };

  it('id: updates that flag', () => {
    expect(resolveFlagChange({ id: 10, status: '+' }, ctx)).toEqual({
      action: 'update', flag: reviewFlag, type: REVIEW, status: '+', requestee: null, changed: true,
    });
  });

  it('id: an unknown flag is 51 (HTTP 404)', () => {
    const e = caughtError(() => resolveFlagChange({ id: 99, status: '+' }, ctx));
    expect(e.code).toBe(51);
    expect(e.httpStatus).toBe(404);
    expect(e.message).toBe("There is no flag with the id '99'.");
  });

  it('id wins over type_id and name', () => {
    expect(resolveFlagChange({ id: 10, type_id: 2, name: 'approval', status: '-' }, ctx)).toMatchObject({ action: 'update', flag: reviewFlag });
  });

  it('type_id: exactly one set flag of the type is updated', () => {
    expect(resolveFlagChange({ type_id: 1, status: '+' }, ctx)).toMatchObject({ action: 'update', flag: reviewFlag, status: '+' });
  });

  it('type_id: no flag of the type yet creates one', () => {
    expect(resolveFlagChange({ type_id: 2, status: '+' }, ctx)).toEqual({ action: 'create', type: APPROVAL, status: '+', requestee: null });
  });

  it('type_id: several set flags give 132', () => {
    const two: FlagContext = { existingFlags: [flag(10, REVIEW), flag(11, REVIEW)], applicableTypes: TYPES };
    const e = caughtError(() => resolveFlagChange({ type_id: 1, status: '+' }, two));
    expect(e.code).toBe(132);
    expect(caughtError(() => resolveFlagChange({ name: 'review', status: '+' }, two)).code).toBe(132);
  });

  it('type_id: a type that does not apply to this bug is 51', () => {
    expect(caughtError(() => resolveFlagChange({ type_id: 77, status: '+' }, ctx)).code).toBe(51);
    expect(caughtError(() => resolveFlagChange({ type_id: 'abc', status: '+' }, ctx)).code).toBe(51);
  });

  it('type_id given as a numeric string works', () => {
    expect(resolveFlagChange({ type_id: '2', status: '+' }, ctx)).toMatchObject({ action: 'create', type: APPROVAL });
  });

  it('new: true creates even when one flag of the type is set', () => {
    expect(resolveFlagChange({ type_id: 1, status: '?', new: true }, ctx)).toMatchObject({ action: 'create', type: REVIEW });
    expect(resolveFlagChange({ name: 'review', status: '?', new: true }, ctx)).toMatchObject({ action: 'create', type: REVIEW });
  });

  it('name: one set flag updates it, none creates', () => {
    expect(resolveFlagChange({ name: 'review', status: '-' }, ctx)).toMatchObject({ action: 'update', flag: reviewFlag, status: '-' });
    expect(resolveFlagChange({ name: 'approval', status: '?' }, ctx)).toMatchObject({ action: 'create', type: APPROVAL, status: '?' });
  });

  it('name: several types with that name give 133', () => {
    const e = caughtError(() => resolveFlagChange({ name: 'twin', status: '+' }, ctx));
    expect(e.code).toBe(133);
    expect(e.message).toContain("'twin'");
  });

  it('name: no type with that name is 51', () => {
    const e = caughtError(() => resolveFlagChange({ name: 'nosuch', status: '+' }, ctx));
    expect(e.code).toBe(51);
    expect(e.message).toBe("There is no flag type named 'nosuch'.");
  });

  it('neither id, type_id nor name is 50', () => {
    expect(caughtError(() => resolveFlagChange({ status: '+' }, ctx)).code).toBe(50);
  });
});

describe('resolveFlagChange — validating the change', () => {
  const ctx: FlagContext = { existingFlags: [], applicableTypes: TYPES };

  it.each(['', 'yes', '*', undefined])('a status outside ? + - X is 129 (%p)', (status) => {
    expect(caughtError(() => resolveFlagChange({ name: 'approval', status }, ctx)).code).toBe(129);
  });

  it('? on a type that is not requestable is 129', () => {
    expect(caughtError(() => resolveFlagChange({ name: 'qa', status: '?' }, ctx)).code).toBe(129);
    expect(resolveFlagChange({ name: 'qa', status: '+' }, ctx)).toMatchObject({ action: 'create', status: '+' });
  });

  it('an existing ? flag may stay ? after its type stopped being requestable', () => {
    const ctx2: FlagContext = { existingFlags: [flag(20, QA, { status: '?' })], applicableTypes: TYPES };
    expect(resolveFlagChange({ id: 20, status: '?' }, ctx2)).toMatchObject({ action: 'update', changed: false });
  });

  it('a requestee on a type that cannot be asked of a person is 131', () => {
    const noPerson = type(8, 'sec', { isRequesteeble: false });
    const e = caughtError(() => resolveFlagChange({ name: 'sec', status: '?', requestee: 'dev@x' }, { existingFlags: [], applicableTypes: [noPerson] }));
    expect(e.code).toBe(131);
  });

  it('a requestee is kept on ? and dropped on + / -', () => {
    expect(resolveFlagChange({ name: 'approval', status: '?', requestee: ' dev@x ' }, ctx)).toMatchObject({ requestee: 'dev@x' });
    expect(resolveFlagChange({ name: 'approval', status: '+', requestee: 'dev@x' }, ctx)).toMatchObject({ requestee: null });
  });

  it('an unchanged requestee passes even when the type no longer allows one', () => {
    const noPerson = type(8, 'sec', { isRequesteeble: false });
    const existing = flag(30, noPerson, { requesteeLogin: 'dev@x' });
    expect(resolveFlagChange({ id: 30, status: '?', requestee: 'dev@x' }, { existingFlags: [existing], applicableTypes: [noPerson] })).toMatchObject({
      action: 'update', requestee: 'dev@x', changed: false,
    });
  });

  it('re-requesting ? without a requestee clears the requestee', () => {
    const existing = flag(31, REVIEW, { requesteeLogin: 'dev@x' });
    expect(resolveFlagChange({ id: 31, status: '?' }, { existingFlags: [existing], applicableTypes: TYPES })).toMatchObject({
      action: 'update', requestee: null, changed: true,
    });
  });

  it('X on an existing flag deletes it', () => {
    const existing = flag(32, APPROVAL, { status: '+' });
    expect(resolveFlagChange({ name: 'approval', status: 'X' }, { existingFlags: [existing], applicableTypes: TYPES })).toEqual({
      action: 'delete', flag: existing, type: APPROVAL,
    });
  });

  it('X on a type without a flag does nothing', () => {
    expect(resolveFlagChange({ name: 'approval', status: 'X' }, ctx)).toEqual({ action: 'none', type: APPROVAL });
  });

  it('a new flag of an inactive type is 134', () => {
    const e = caughtError(() => resolveFlagChange({ name: 'old', status: '+' }, ctx));
    expect(e.code).toBe(134);
    expect(e.message).toContain("'old'");
  });

  it('an existing flag of an inactive type may still be changed', () => {
    const existing = flag(33, OLD, { status: '?' });
    expect(resolveFlagChange({ id: 33, status: '+' }, { existingFlags: [existing], applicableTypes: TYPES })).toMatchObject({ action: 'update', status: '+' });
  });

  it('a second flag of a type that is not multiplicable is flag_type_not_multiplicable (32000)', () => {
    const existing = flag(34, APPROVAL, { status: '+' });
    const e = caughtError(() => resolveFlagChange({ type_id: 2, status: '?', new: true }, { existingFlags: [existing], applicableTypes: TYPES }));
    expect(e.code).toBe(32000);
    expect(e.errorName).toBe('flag_type_not_multiplicable');
  });

  it('a flag whose type no longer applies (product moved) is ignored', () => {
    const stray = type(50, 'stray');
    const existing = flag(35, stray);
    expect(resolveFlagChange({ id: 35, status: '+' }, { existingFlags: [existing], applicableTypes: TYPES })).toEqual({ action: 'none', flag: existing });
  });
});

describe('resolveFlagChanges — one request with several changes', () => {
  it('returns results in input order', () => {
    const existing = flag(40, REVIEW);
    const out = resolveFlagChanges(
      [{ name: 'approval', status: '?' }, { id: 40, status: '+' }],
      { existingFlags: [existing], applicableTypes: TYPES },
    );
    expect(out.map((r) => r.action)).toEqual(['create', 'update']);
  });

  it('two new flags of a non-multiplicable type in one request: the second is refused', () => {
    const e = caughtError(() => resolveFlagChanges([{ name: 'approval', status: '?' }, { name: 'approval', status: '+' }], { existingFlags: [], applicableTypes: TYPES }));
    expect(e.errorName).toBe('flag_type_not_multiplicable');
  });

  it('clearing the only flag frees a non-multiplicable type for a new one, whatever the input order', () => {
    const existing = flag(41, APPROVAL, { status: '-' });
    const out = resolveFlagChanges(
      [{ type_id: 2, status: '?', new: true }, { id: 41, status: 'X' }],
      { existingFlags: [existing], applicableTypes: TYPES },
    );
    expect(out.map((r) => r.action)).toEqual(['create', 'delete']);
  });

  it('several new flags of a multiplicable type are fine', () => {
    const out = resolveFlagChanges(
      [{ name: 'review', status: '?', requestee: 'a@x', new: true }, { name: 'review', status: '?', requestee: 'b@x', new: true }],
      { existingFlags: [], applicableTypes: TYPES },
    );
    expect(out).toHaveLength(2);
  });

  it('targets are picked against the flags as they were before the request', () => {
    // The first change creates a review flag; the second, by name, still finds none and creates too.
    const out = resolveFlagChanges([{ name: 'review', status: '?' }, { name: 'review', status: '+' }], { existingFlags: [], applicableTypes: TYPES });
    expect(out.map((r) => r.action)).toEqual(['create', 'create']);
  });
});

describe('checkFlagPermission — defaults.md grant_group / request_group (130)', () => {
  const GRANT = 100;
  const REQUEST = 200;
  const guarded = { name: 'approval', grantGroupId: GRANT, requestGroupId: REQUEST };
  const deny = (fn: () => void) => {
    const e = caughtError(fn);
    expect(e.code).toBe(130);
    expect(e.httpStatus).toBe(400);
    return e;
  };

  it('types without groups let everybody set any status', () => {
    for (const status of ['?', '+', '-', 'X']) {
      expect(() => checkFlagPermission({ status, type: { name: 'review', grantGroupId: null, requestGroupId: null }, callerGroupIds: [] })).not.toThrow();
    }
  });

  it('+ and - need the grant group', () => {
    expect(() => checkFlagPermission({ status: '+', type: guarded, callerGroupIds: [GRANT] })).not.toThrow();
    const e = deny(() => checkFlagPermission({ status: '+', type: guarded, callerGroupIds: [REQUEST] }));
    expect(e.message).toBe("You tried to grant the 'approval' flag, but only a user with the required permissions may make this change.");
    deny(() => checkFlagPermission({ status: '-', type: guarded, callerGroupIds: new Set([REQUEST]) }));
  });

  it('? needs the request group, or the grant group', () => {
    expect(() => checkFlagPermission({ status: '?', type: guarded, callerGroupIds: [REQUEST] })).not.toThrow();
    expect(() => checkFlagPermission({ status: '?', type: guarded, callerGroupIds: [GRANT] })).not.toThrow();
    deny(() => checkFlagPermission({ status: '?', type: guarded, callerGroupIds: [] }));
  });

  it('a request group alone does not restrict granting when there is no grant group', () => {
    const requestOnly = { name: 'x', grantGroupId: null, requestGroupId: REQUEST };
    expect(() => checkFlagPermission({ status: '?', type: requestOnly, callerGroupIds: [] })).not.toThrow();
  });

  it('an unchanged status is always fine (e.g. only the requestee changes)', () => {
    expect(() => checkFlagPermission({ status: '?', oldStatus: '?', type: guarded, callerGroupIds: [] })).not.toThrow();
  });

  it('the requestee may grant, deny or clear the flag addressed to them', () => {
    for (const status of ['+', '-', 'X']) {
      expect(() => checkFlagPermission({ status, oldStatus: '?', type: guarded, callerGroupIds: [], isRequestee: true })).not.toThrow();
    }
  });

  it('the setter may clear or re-request their own flag but not grant it without the grant group', () => {
    expect(() => checkFlagPermission({ status: 'X', oldStatus: '+', type: guarded, callerGroupIds: [], isSetter: true })).not.toThrow();
    expect(() => checkFlagPermission({ status: '?', oldStatus: '-', type: guarded, callerGroupIds: [], isSetter: true })).not.toThrow();
    deny(() => checkFlagPermission({ status: '+', oldStatus: '?', type: guarded, callerGroupIds: [], isSetter: true }));
  });

  it('anybody else clearing a guarded flag is refused', () => {
    const e = deny(() => checkFlagPermission({ status: 'X', oldStatus: '+', type: guarded, callerGroupIds: [] }));
    expect(e.message).toContain('clear');
  });
});
