import { Caller, type CallerGroups, type ParameterSnapshot } from '../common/caller.js';
import { caughtError } from '../common/errors/testing.js';
import type { Sql } from '../database/sql.js';
import type { FlagHolder, FlagService, NewBugFlag } from '../flag/flag.service.js';
import type { GroupService } from '../group/group.service.js';
import type { UserRecord } from '../user/user.service.js';
import type { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { BugFlagsService, initialFlagsChange, type FlagTarget } from './bug-flags.service.js';
import { resolveFlagChanges, type ApplicableFlagType, type ExistingFlag } from './flags.js';

const GRANTERS = 50;
const params = { get: () => '', bool: () => false, int: () => 0, all: () => ({}) } as ParameterSnapshot;
const groups = (ids: number[]): CallerGroups => ({ memberOf: new Map(ids.map((id) => [id, `g${id}`])), canBless: new Set(), canSee: new Set() });
const user = (id: number, login: string): UserRecord =>
  ({ id, login, email: login, realName: '', cryptpassword: null, loginDeniedText: '', emailEnabled: true });

const admin = new Caller({ id: 1, login: 'admin@example.com', realName: '', email: 'admin@example.com' }, groups([GRANTERS]), params);
const granter = user(2, 'granter@example.com');
const outsider = user(3, 'outsider@example.com');
const blind = user(4, 'blind@example.com');
const users = new Map([granter, outsider, blind].map((u) => [u.login, u]));

const type = (id: number, name: string, grantGroupId: number | null): ApplicableFlagType =>
  ({ id, name, isActive: true, isRequestable: true, isRequesteeble: true, isMultiplicable: false, grantGroupId, requestGroupId: null });
const review = type(10, 'review', null);
const approval = type(11, 'approval', GRANTERS);

/** The service over fakes: flags written are kept; `blind` cannot see the bug; only `granter` is in the grant group. */
function setup() {
  const written: { added: NewBugFlag[][]; changed: number[]; deleted: number[][] } = { added: [], changed: [], deleted: [] };
  const flags = {
    addBugFlags: async (_tx: Sql, _holder: FlagHolder, rows: readonly NewBugFlag[]) => void (rows.length && written.added.push([...rows])),
    changeFlag: async (_tx: Sql, id: number) => void written.changed.push(id),
    deleteFlags: async (_tx: Sql, ids: readonly number[]) => void written.deleted.push([...ids]),
  } as unknown as FlagService;
  const visibility = {
    visibleIds: async (caller: Caller, ids: readonly number[]) => new Set(caller.id === blind.id ? [] : ids),
  } as unknown as BugVisibilityService;
  const groupService = { membershipsOf: async (id: number) => groups(id === granter.id ? [GRANTERS] : []) } as unknown as GroupService;
  return { service: new BugFlagsService(flags, visibility, groupService), written };
}

const target = (ccIds: number[] = []): FlagTarget => ({ tx: {} as Sql, bugId: 7, caller: admin, at: '2026-01-01 00:00:00', ccIds });
const actions = (changes: object[], existing: ExistingFlag[] = []) =>
  resolveFlagChanges(changes, { existingFlags: existing, applicableTypes: [review, approval] });

/** A TrackerError of this code and name. */
const refused = (code: number, errorName: string) => expect.objectContaining({ code, errorName }) as unknown;

describe('BugFlagsService — flags on Create and Update Bug', () => {
  it('plan: refuses a flag the caller may not set (130) and an unknown requestee (51)', async () => {
    const { service } = setup();
    const plain = new Caller({ id: 9, login: 'plain@example.com', realName: '', email: '' }, groups([]), params);
    expect(caughtError(() => service.plan(plain, actions([{ name: 'approval', status: '+' }]), users))).toEqual(refused(130, 'flag_update_denied'));
    expect(caughtError(() => service.plan(admin, actions([{ name: 'review', status: '?', requestee: 'ghost@example.com' }]), users)))
      .toEqual(refused(51, 'object_does_not_exist'));
  });

  it('a requestee who cannot see the bug is refused — flag_requestee_unauthorized', async () => {
    const { service, written } = setup();
    const planned = service.plan(admin, actions([{ name: 'review', status: '?', requestee: blind.login }]), users);
    await expect(service.apply(target(), planned, [])).rejects.toEqual(refused(32000, 'flag_requestee_unauthorized'));
    expect(written.added).toEqual([]);
  });

  it('a requestee outside the grant group is refused — flag_requestee_needs_privs', async () => {
    const { service } = setup();
    const planned = service.plan(admin, actions([{ name: 'approval', status: '?', requestee: outsider.login }]), users);
    await expect(service.apply(target(), planned, [])).rejects.toEqual(refused(32000, 'flag_requestee_needs_privs'));
  });

  it('new flags go in one write; requestees not on the cc list join it, once each', async () => {
    const { service, written } = setup();
    const planned = service.plan(admin, actions([
      { name: 'review', status: '?', requestee: granter.login },
      { name: 'approval', status: '?', requestee: granter.login },
    ]), users);
    const outcome = await service.apply(target(), planned, []);
    expect(written.added).toEqual([[
      { typeId: review.id, status: '?', requesteeId: granter.id },
      { typeId: approval.id, status: '?', requesteeId: granter.id },
    ]]);
    expect(outcome.joinCc.map((u) => u.id)).toEqual([granter.id]);
    expect(outcome.after.map((f) => `${f.name}${f.status}(${f.requestee})`)).toEqual([`review?(${granter.login})`, `approval?(${granter.login})`]);
    expect((await service.apply(target([granter.id]), planned, [])).joinCc).toEqual([]);
  });

  it('an existing request asked of the same person again is not checked again', async () => {
    const { service, written } = setup();
    // blind was asked before they lost sight of the bug: re-stating the request does not refuse it.
    const existing: ExistingFlag[] = [{ id: 5, typeId: review.id, typeName: 'review', status: '?', requesteeLogin: blind.login, setterLogin: admin.user!.login }];
    const planned = service.plan(admin, actions([{ id: 5, status: '?', requestee: blind.login }], existing), users);
    expect(planned.map((p) => p.newlyAsked)).toEqual([false]);
    await expect(service.apply(target(), planned, existing)).resolves.toMatchObject({ joinCc: [] });
    expect(written.changed).toEqual([]);
  });

  it('change: the whole rule for one holder, answering the flagtypes.name change; a private attachment needs an insider requestee', async () => {
    const { service, written } = setup();
    const existing: ExistingFlag[] = [{ id: 5, typeId: 10, typeName: 'review', status: '?', requesteeLogin: granter.login, setterLogin: admin.user!.login }];
    const request = { existing, types: [review, approval], users, functionName: 'Bug.update_attachment' };
    const granted = await service.change(target(), { ...request, changes: [{ id: 5, status: '+' }] });
    expect(granted.diff).toEqual({ removed: `review?(${granter.login})`, added: 'review+' });
    expect(written.changed).toEqual([5]);
    const onPrivate = { ...target(), attachment: { id: 3, isPrivate: true } };
    await expect(service.change(onPrivate, { ...request, changes: [{ name: 'approval', status: '?', requestee: granter.login }] }))
      .rejects.toEqual(refused(32000, 'flag_requestee_unauthorized_attachment'));
  });

  it('initialFlagsChange: the flags a new bug starts with, in the name?(requestee) notation', () => {
    const { service } = setup();
    const planned = service.plan(admin, actions([{ name: 'review', status: '?', requestee: granter.login }, { name: 'approval', status: '+' }]), users);
    expect(initialFlagsChange(planned)).toEqual([{ field: 'flagtypes.name', removed: '', added: `review?(${granter.login}), approval+` }]);
    expect(initialFlagsChange([])).toEqual([]);
  });
});
