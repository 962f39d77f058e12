import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql.js';
import { Caller, type ParameterSnapshot } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { FlagService, type NewBugFlag } from '../flag/flag.service.js';
import { GroupService } from '../group/group.service.js';
import type { UserRecord } from '../user/user.service.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { diffFlags, flagSummary, type FlagSnapshot } from '../bug/changes.js';
import { checkFlagPermission, resolveFlagChanges, type ApplicableFlagType, type ExistingFlag, type FlagAction, type FlagChangeInput } from './flags.js';

// What the attachment module needs of the rule's vocabulary (it reaches bug-write only through this file and BugWriteModule).
export { parseFlagChanges, type ExistingFlag, type FlagChangeInput } from './flags.js';

/** A flag change to store, checked as far as it can be without the bug: the action and the user asked. */
export interface PlannedFlag {
  action: Exclude<FlagAction, { action: 'none' }>;
  requestee: UserRecord | null;
  /** The requestee is asked by this change (a new request, or another person): they are checked and join the cc. */
  newlyAsked: boolean;
}

/** The bug (or attachment of the bug) the flags are set on, and who sets them when. */
export interface FlagTarget {
  tx: Sql;
  bugId: number;
  /** Flags of this attachment of the bug; without it, the bug's own flags. A requestee must be able to see it. */
  attachment?: { id: number; isPrivate: boolean };
  caller: Caller;
  /** The request's one timestamp, DB format. */
  at: string;
  /** The bug's cc list as it stands (requestees not on it join it). */
  ccIds: readonly number[];
}

export interface FlagOutcome {
  /** The bug's flags after the change, for the `flagtypes.name` change. */
  after: FlagSnapshot[];
  /** Requestees asked by the change who are not on the cc list yet, once each: they join it (observed on 5.0.6). */
  joinCc: UserRecord[];
}

/** The flag changes of one request on one bug or attachment, as `change` takes them. */
export interface FlagChangeRequest {
  changes: readonly FlagChangeInput[];
  /** The flags it holds now. */
  existing: readonly ExistingFlag[];
  /** The flag types of its product/component and target (bug or attachment), active or not. */
  types: readonly ApplicableFlagType[];
  /** Users named in the request, by lower-cased login (unknown requestees are 51). */
  users: ReadonlyMap<string, UserRecord>;
  /** The 5.0 function errors name (`Bug.update_attachment` …). */
  functionName: string;
}

/**
 * The flags a new bug starts with, as its mail lists them (a `flagtypes.name` entry in the `name?(requestee)` notation,
 * which is also how the mail module finds the requestees to notify).
 */
export function initialFlagsChange(planned: readonly PlannedFlag[]): Array<{ field: string; removed: string; added: string }> {
  const added = planned.flatMap(({ action, requestee }) =>
    action.action === 'create' ? [flagSummary({ name: action.type.name, status: action.status, requestee: requestee?.login ?? null })] : []);
  return added.length ? [{ field: 'flagtypes.name', removed: '', added: added.join(', ') }] : [];
}

/** The snapshot of existing flags the `flagtypes.name` change is computed from. */
export const snapshotOf = (flags: readonly ExistingFlag[]): FlagSnapshot[] =>
  flags.map((f) => ({ name: f.typeName, status: f.status, requestee: f.requesteeLogin, setter: f.setterLogin }));

/** A user named in the request, from the users loaded for it by lower-cased login; unknown is 51. */
export function userByLogin(users: ReadonlyMap<string, UserRecord>, login: string): UserRecord {
  const user = users.get(login.trim().toLowerCase());
  if (!user) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'user', name: login.trim() });
  return user;
}

/** Another user as a Caller, to ask the visibility rule whether they may see a bug (requestees, a duplicate's reporter). */
export async function callerAs(groups: GroupService, user: UserRecord, params: ParameterSnapshot, sql: Sql): Promise<Caller> {
  const memberships = await groups.membershipsOf(user.id, sql);
  return new Caller({ id: user.id, login: user.login, realName: user.realName, email: user.email }, memberships, params);
}

/**
 * Setting flags on a bug or an attachment, for Create and Update Bug and Create and Update Attachment alike
 * (updates.md "Flag change object"): the pure rules of flags.ts pick each change; `plan` checks who may set it (130)
 * and that the requestee exists (51); `apply`, inside the write once the bug's groups and cc are stored, checks that
 * each newly asked requestee can see the bug (and a private attachment) and may grant the flag
 * (flag_requestee_unauthorized[_attachment] / flag_requestee_needs_privs), then writes the rows. `change` is the
 * three in one, for a holder whose flags already exist.
 */
@Injectable()
export class BugFlagsService {
  constructor(
    private readonly flags: FlagService,
    private readonly visibility: BugVisibilityService,
    private readonly groups: GroupService,
  ) {}

  /**
   * The whole rule for one bug or attachment (Update Bug, Create and Update Attachment): picks each change (flags.ts),
   * checks the caller's rights and the requestees, writes the flags and answers the `flagtypes.name` change (null
   * when nothing shows) with the requestees who join the cc list.
   */
  async change(target: FlagTarget, request: FlagChangeRequest): Promise<FlagOutcome & { diff: { removed: string; added: string } | null }> {
    const actions = resolveFlagChanges(request.changes, { existingFlags: request.existing, applicableTypes: request.types, functionName: request.functionName });
    const planned = this.plan(target.caller, actions, request.users);
    const outcome = await this.apply(target, planned, request.existing);
    return { ...outcome, diff: diffFlags(snapshotOf(request.existing), outcome.after) };
  }

  /** The actions to store, in order, with their requestees; refuses what the caller may not do. */
  plan(caller: Caller, actions: readonly FlagAction[], users: ReadonlyMap<string, UserRecord>): PlannedFlag[] {
    const isMine = (login: string | null | undefined) => !!login && login.toLowerCase() === caller.user!.login.toLowerCase();
    const planned: PlannedFlag[] = [];
    for (const action of actions) {
      if (action.action === 'none') continue;
      const flag = action.action === 'create' ? undefined : action.flag;
      checkFlagPermission({
        status: action.action === 'delete' ? 'X' : action.status,
        oldStatus: flag?.status ?? '',
        type: action.type,
        callerGroupIds: caller.groupIds,
        isSetter: isMine(flag?.setterLogin),
        isRequestee: isMine(flag?.requesteeLogin),
      });
      const requestee = action.action !== 'delete' && action.requestee ? userByLogin(users, action.requestee) : null;
      const newlyAsked = !!requestee && (action.action === 'create' || (action.flag.requesteeLogin ?? '').toLowerCase() !== requestee.login.toLowerCase());
      planned.push({ action, requestee, newlyAsked });
    }
    return planned;
  }

  /** Checks the requestees against the stored bug, then writes the flags; `existing` are the bug's flags before. */
  async apply(target: FlagTarget, planned: readonly PlannedFlag[], existing: readonly ExistingFlag[]): Promise<FlagOutcome> {
    const { tx, caller, at } = target;
    for (const p of planned) if (p.newlyAsked) await this.checkRequestee(target, p.requestee!, p.action.type);

    const before = snapshotOf(existing);
    const after = new Map<number | string, FlagSnapshot>(existing.map((f, i) => [f.id, before[i]]));
    const created: NewBugFlag[] = [];
    for (const { action, requestee } of planned) {
      if (action.action === 'delete') {
        await this.flags.deleteFlags(tx, [action.flag.id]);
        after.delete(action.flag.id);
      } else if (action.action === 'create') {
        created.push({ typeId: action.type.id, status: action.status, requesteeId: requestee?.id ?? null });
        after.set(`new${created.length}`, { name: action.type.name, status: action.status, requestee: requestee?.login ?? null, setter: caller.user!.login });
      } else if (action.changed) {
        // A request that stays a request keeps its setter; any other change is the caller's.
        const keepsSetter = action.flag.status === '?' && action.status === '?';
        await this.flags.changeFlag(tx, action.flag.id, {
          status: action.status, requesteeId: requestee?.id ?? null, at, ...(keepsSetter ? {} : { setterId: caller.id }),
        });
        after.set(action.flag.id, {
          name: action.type.name, status: action.status, requestee: requestee?.login ?? null, setter: keepsSetter ? action.flag.setterLogin : caller.user!.login,
        });
      }
    }
    await this.flags.addBugFlags(tx, { bugId: target.bugId, attachmentId: target.attachment?.id ?? null }, created, caller.id, at);

    const asked = planned.filter((p) => p.newlyAsked).map((p) => p.requestee!);
    const joinCc = asked.filter((u, i) => !target.ccIds.includes(u.id) && asked.findIndex((x) => x.id === u.id) === i);
    return { after: [...after.values()], joinCc };
  }

  /**
   * A requestee must be able to see the bug (and a private attachment: be an insider), and to grant the flag when
   * its type has a grant group.
   */
  private async checkRequestee(target: FlagTarget, requestee: UserRecord, type: ApplicableFlagType): Promise<void> {
    const asCaller = await callerAs(this.groups, requestee, target.caller.parameters, target.tx);
    const visible = await this.visibility.visibleIds(asCaller, [target.bugId], target.tx);
    if (!visible.has(target.bugId)) {
      throw TrackerError.of(Errors.FLAG_REQUESTEE_UNAUTHORIZED, { requestee: requestee.login, flag: type.name, bug_id: target.bugId });
    }
    if (target.attachment?.isPrivate && !asCaller.isInsider) {
      throw TrackerError.of(Errors.FLAG_REQUESTEE_UNAUTHORIZED_ATTACHMENT, { requestee: requestee.login, flag: type.name, attach_id: target.attachment.id });
    }
    if (type.grantGroupId !== null && !asCaller.inGroupId(type.grantGroupId)) {
      throw TrackerError.of(Errors.FLAG_REQUESTEE_NEEDS_PRIVS, { requestee: requestee.login, flag: type.name });
    }
  }
}
