import { Injectable } from '@nestjs/common';
import { FlagTypeService } from '../../flag/flag-type.service.js';
import { FlagService } from '../../flag/flag.service.js';
import { diffFlags } from '../../bug/changes.js';
import type { ApplicableFlagType, ExistingFlag } from '../../bug-rules/flags.js';
import { BugFlagsService, snapshotOf } from '../../bug-rules/bug-flags.service.js';
import { BugWork } from './bug-work.js';
import { RelationSteps } from './update-relations.js';

/**
 * Flags on bugs on Update Bug (updates.md "Flag change object"): the flag types of the bug's product and component,
 * the clean-up of flags a move leaves without a type, and the `flagtypes.name` change. Setting the flags, with the
 * requestee checks and the requestee's cc, is the rule Create Bug shares (BugFlagsService).
 */
@Injectable()
export class FlagSteps {
  constructor(
    private readonly flagTypes: FlagTypeService,
    private readonly flags: FlagService,
    private readonly bugFlags: BugFlagsService,
    private readonly relationSteps: RelationSteps,
  ) {}

  async applyFlags(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const changes = run.request.flags;
    const moved = w.productChanged || w.componentId !== bug.row.componentId;
    if (!changes && !moved) return;
    const { tx, caller } = run;
    const types = (await this.flagTypes.applicableTypes(w.product.id, w.componentId, 'bug', tx)) as ApplicableFlagType[];
    const all: ExistingFlag[] = bug.flags.map((f) => ({
      id: f.id, typeId: f.typeId, typeName: f.name, status: f.status as ExistingFlag['status'], requesteeLogin: f.requestee, setterLogin: f.setter,
    }));

    // A bug moved where a flag's type no longer applies loses the flag (Bugzilla's flag clean-up).
    const obsolete = moved ? all.filter((f) => !types.some((t) => t.id === f.typeId)) : [];
    await this.flags.deleteFlags(tx, obsolete.map((f) => f.id));
    const existing = all.filter((f) => !obsolete.includes(f));

    const { after, joinCc } = await this.bugFlags.change(
      { tx, bugId: w.id, caller, at: run.at, ccIds: w.ccIds },
      { changes: changes ?? [], existing, types, users: run.namedUsers, functionName: 'Bug.update' },
    );
    // Against every flag the bug had: the flags a move removed show in the same `flagtypes.name` change.
    const diff = diffFlags(snapshotOf(all), after);
    if (diff) w.changes.record('flagtypes.name', diff.removed, diff.added);
    if (joinCc.length) await this.relationSteps.changeCc(w, joinCc.map((u) => ({ id: u.id, login: u.login })), []);
  }
}
