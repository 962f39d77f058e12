import { Injectable } from '@nestjs/common';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { FlagTypeService } from '../../flag/flag-type.service.js';
import { GroupService } from '../../group/group.service.js';
import type { UserRecord } from '../../user/user.service.js';
import { BugVisibilityService } from '../bug-visibility.service.js';
import { diffFlags, type FlagSnapshot } from '../rules/changes.js';
import { checkFlagPermission, resolveFlagChanges, type ApplicableFlagType, type ExistingFlag } from '../rules/flags.js';
import { BugWork, callerFor, userNamed } from './bug-work.js';

/**
 * Flags on bugs on Update Bug (updates.md "Flag change object"): the pure rules of rules/flags.ts pick and check
 * each change; this adds the flag types of the bug's product and component, the requestee checks that need other
 * users, the rows, the `flagtypes.name` change and the requestee's cc.
 */
@Injectable()
export class FlagSteps {
  constructor(
    private readonly flagTypes: FlagTypeService,
    private readonly visibility: BugVisibilityService,
    private readonly groups: GroupService,
  ) {}

  // ---- Flags ----------------------------------------------------------------------------------------------

  async applyFlags(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const changes = run.request.flags;
    const moved = w.productChanged || w.componentId !== bug.row.componentId;
    if (!changes && !moved) return;
    const { tx, caller } = run;
    const types = (await this.flagTypes.applicableTypes(w.product.id, w.componentId, 'bug', tx)) as ApplicableFlagType[];
    const before: FlagSnapshot[] = bug.flags.map((f) => ({ name: f.name, status: f.status, requestee: f.requestee, setter: f.setter }));

    // A bug moved where a flag's type no longer applies loses the flag (Bugzilla's flag clean-up).
    const obsolete = moved ? bug.flags.filter((f) => !types.some((t) => t.id === f.typeId)) : [];
    if (obsolete.length) await tx.run(`DELETE FROM flags WHERE id IN ${tx.in(obsolete)}`, obsolete.map((f) => f.id));
    const existing: ExistingFlag[] = bug.flags
      .filter((f) => !obsolete.includes(f))
      .map((f) => ({ id: f.id, typeId: f.typeId, typeName: f.name, status: f.status as ExistingFlag['status'], requesteeLogin: f.requestee, setterLogin: f.setter }));

    const after = new Map<number | string, FlagSnapshot>(existing.map((f) => [f.id, { name: f.typeName, status: f.status, requestee: f.requesteeLogin, setter: f.setterLogin }]));
    const actions = changes ? resolveFlagChanges(changes, { existingFlags: existing, applicableTypes: types }) : [];
    const requested: UserRecord[] = [];
    let created = 0;
    for (const action of actions) {
      if (action.action === 'none') continue;
      const flag = action.action === 'create' ? undefined : action.flag;
      const isMine = (login: string | null | undefined) => !!login && login.toLowerCase() === caller.user!.login.toLowerCase();
      checkFlagPermission({
        status: action.action === 'delete' ? 'X' : action.status,
        oldStatus: flag?.status ?? '',
        type: action.type,
        callerGroupIds: caller.groupIds,
        isSetter: isMine(flag?.setterLogin),
        isRequestee: isMine(flag?.requesteeLogin),
      });
      if (action.action === 'delete') {
        await tx.run('DELETE FROM flags WHERE id = ?', [action.flag.id]);
        after.delete(action.flag.id);
        continue;
      }
      const requestee = action.requestee ? userNamed(run, action.requestee) : null;
      const newlyAsked = requestee && (action.action === 'create' || (action.flag.requesteeLogin ?? '').toLowerCase() !== requestee.login.toLowerCase());
      if (requestee && newlyAsked) {
        await this.checkRequestee(w, requestee, action.type);
        requested.push(requestee);
      }
      if (action.action === 'create') {
        await tx.insert('flags', {
          type_id: action.type.id, status: action.status, bug_id: w.id, attachment_id: null,
          creation_date: run.at, modification_date: run.at, setter_id: caller.id, requestee_id: requestee?.id ?? null,
        });
        after.set(`new${created++}`, { name: action.type.name, status: action.status, requestee: requestee?.login ?? null, setter: caller.user!.login });
      } else if (action.changed) {
        // A request that stays a request keeps its setter; any other change is the caller's.
        const keepsSetter = action.flag.status === '?' && action.status === '?';
        const setter = keepsSetter ? action.flag.setterLogin : caller.user!.login;
        await tx.run(
          `UPDATE flags SET status = ?, requestee_id = ?, modification_date = ?${keepsSetter ? '' : ', setter_id = ?'} WHERE id = ?`,
          [action.status, requestee?.id ?? null, run.at, ...(keepsSetter ? [] : [caller.id]), action.flag.id],
        );
        after.set(action.flag.id, { name: action.type.name, status: action.status, requestee: requestee?.login ?? null, setter });
      }
    }
    const diff = diffFlags(before, [...after.values()]);
    if (diff) w.changes.record('flagtypes.name', diff.removed, diff.added);
    // Observed on 5.0.6: asking someone who is not on the cc list adds them to it in the same change.
    const newCc = requested.filter((u, i) => !w.ccIds.includes(u.id) && requested.findIndex((x) => x.id === u.id) === i);
    if (newCc.length) await w.changeCc(newCc.map((u) => ({ id: u.id, login: u.login })), []);
  }

  /** A requestee must be able to see the bug, and to grant the flag when its type has a grant group. */
  private async checkRequestee(w: BugWork, requestee: UserRecord, type: ApplicableFlagType): Promise<void> {
    const asCaller = await callerFor(this.groups, w.run, requestee);
    const visible = await this.visibility.visibleIds(asCaller, [w.id], w.run.tx);
    if (!visible.has(w.id)) throw TrackerError.of(Errors.FLAG_REQUESTEE_UNAUTHORIZED, { requestee: requestee.login, flag: type.name, bug_id: w.id });
    if (type.grantGroupId !== null && !asCaller.inGroupId(type.grantGroupId)) {
      throw TrackerError.of(Errors.FLAG_REQUESTEE_NEEDS_PRIVS, { requestee: requestee.login, flag: type.name });
    }
  }
}
