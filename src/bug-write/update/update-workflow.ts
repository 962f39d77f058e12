import { Injectable } from '@nestjs/common';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { FieldService, type FieldCatalogue } from '../../field/field.service.js';
import { ProductService } from '../../product/product.service.js';
import { BugVisibilityService } from '../../bug/bug-visibility.service.js';
import { planStatusChange, UNCONFIRMED } from '../../bug-rules/workflow.js';
import { canChangeField } from '../../bug-rules/field-permissions.js';
import { BugWork, type UpdateRun, type Workflow } from './bug-work.js';
import { roundHours } from './update-request.js';
import { BugStoreService } from '../../bug/store/bug-store.service.js';
import { BugEditsService } from '../../bug/store/bug-edits.service.js';

/**
 * Status, resolution and dupe_of on Update Bug (rules 1–3, workflow.md), the UNCONFIRMED side of rule 5, the
 * workflow parameters (noresolveonopenblockers, musthavemilestoneonaccept) and remaining_time. The decisions are
 * the pure planStatusChange's; this adds what needs the database.
 */
@Injectable()
export class WorkflowSteps {
  constructor(
    private readonly fields: FieldService,
    private readonly products: ProductService,
    private readonly visibility: BugVisibilityService,
    private readonly updates: BugStoreService,
    private readonly edits: BugEditsService,
  ) {}

  /** Statuses, transitions and resolutions. */
  async read(fields: FieldCatalogue): Promise<Workflow> {
    const [statuses, transitions, resolutions] = await Promise.all([fields.statuses(), fields.transitions(), fields.legalValues('resolution')]);
    return { statuses, transitions, resolutions: resolutions.map((v) => v.value).filter((v) => v !== '') };
  }

  /** The request's workflow, read once per request. */
  async load(run: UpdateRun): Promise<Workflow> {
    run.workflow ??= await this.read(run.fields);
    return run.workflow;
  }

  // ---- Status, resolution, dupe_of (rules 1–3), and the UNCONFIRMED of rule 5 -----------------------------

  async applyStatus(w: BugWork, hasComment: boolean): Promise<void> {
    const { run, bug } = w;
    const request = run.request.statusChange;
    const row = bug.row;
    const sent = request.status !== undefined || request.resolution !== undefined || request.dupeOf !== undefined;
    if (!sent && !(w.productChanged && !w.product.hasUnconfirmed && row.status === UNCONFIRMED)) return;
    const workflow = await this.load(run);

    let status = row.status;
    let resolution = row.resolution;
    let dupeOf: number | null = bug.dupeOf;
    let isConfirmed: boolean | undefined;
    let zeroRemainingTime = false;
    let dupeFromRequest = false;
    if (sent) {
      const plan = planStatusChange({
        bug: { id: w.id, status: row.status, resolution: row.resolution, dupeOf: bug.dupeOf },
        request,
        statuses: workflow.statuses,
        resolutions: workflow.resolutions,
        duplicateStatus: run.params.get('duplicate_or_move_bug_status'),
        transitions: workflow.transitions,
        productHasUnconfirmed: w.product.hasUnconfirmed,
        canSetStatus: (to) => canChangeField({
          field: 'bug_status', oldValue: row.status, newValue: to, isOpen: w.isOpen, everConfirmed: row.isConfirmed,
          caller: w.fieldCaller,
          params: { useqacontact: run.params.bool('useqacontact'), letsubmitterchoosepriority: run.params.bool('letsubmitterchoosepriority') },
        }).allowed,
        hasComment,
        params: { commentonchange_resolution: run.params.bool('commentonchange_resolution'), commentonduplicate: run.params.bool('commentonduplicate') },
      });
      ({ status, resolution, isConfirmed, zeroRemainingTime } = plan);
      if (plan.dupeOfFromRequest) {
        dupeOf = await this.resolveDupeTarget(w, plan.dupeOf!);
        dupeFromRequest = dupeOf !== bug.dupeOf;
      } else {
        dupeOf = plan.dupeOf === null ? null : Number(plan.dupeOf);
      }
    }
    // Rule 5's other side: a product without UNCONFIRMED cannot hold an unconfirmed bug, so it is confirmed.
    if (w.productChanged && !w.product.hasUnconfirmed && status === UNCONFIRMED) {
      const open = workflow.statuses.filter((s) => s.isOpen && s.isActive && s.name !== UNCONFIRMED).sort((a, b) => a.sortKey - b.sortKey)[0];
      if (open) {
        status = open.name;
        isConfirmed = true;
      }
    }

    if (status !== row.status) {
      w.allow('status', row.status, status);
      w.set('status', 'status', row.status, status);
      w.status = status;
      // The bugs that list this one list the open ones first (Bugzilla's EmitDependList): their order changed.
      if (w.isOpen(status) !== w.isOpen(row.status)) {
        const partners = await this.updates.dependencyPartners(run.tx, w.id, { regressions: run.params.bool('bmo_bug_fields') });
        await this.edits.moveRevision(run.tx, partners);
        for (const id of partners) run.reordered.add(id);
      }
    }
    if (resolution !== row.resolution) {
      w.allow('resolution', row.resolution, resolution);
      if (resolution === 'FIXED' && run.params.bool('noresolveonopenblockers')) await this.refuseOpenDependencies(w);
      w.set('resolution', 'resolution', row.resolution, resolution);
    }
    if (dupeOf !== bug.dupeOf) {
      w.allow('dupe_of', bug.dupeOf ?? '', dupeOf ?? '');
      await this.updates.setDupeOf(run.tx, w.id, dupeOf);
      w.changes.record('dupe_of', bug.dupeOf ?? '', dupeOf ?? '');
      if (dupeFromRequest && dupeOf !== null) w.newDupeOf = dupeOf;
      // The former original lists its duplicates (BMO's `duplicates`, shown with bmo_bug_fields): what it shows
      // changed, though Bugzilla does not count it a change of that bug.
      if (bug.dupeOf !== null && run.params.bool('bmo_bug_fields')) await this.edits.moveRevision(run.tx, [bug.dupeOf]);
    }
    if (isConfirmed !== undefined && isConfirmed !== row.isConfirmed) {
      w.allow('is_confirmed', row.isConfirmed, isConfirmed);
      w.set('isConfirmed', 'is_confirmed', row.isConfirmed, isConfirmed);
      w.isConfirmed = isConfirmed;
    }
    w.zeroRemainingTime = zeroRemainingTime;
    if (status === 'IN_PROGRESS' && status !== row.status) await this.requireMilestoneOnAccept(w);
  }

  /** dupe_of: the target must exist and be visible (101/100/102), and the duplicate chain may not come back (118). */
  private async resolveDupeTarget(w: BugWork, reference: number | string): Promise<number> {
    const { run } = w;
    const [target] = await this.visibility.resolveVisible(run.caller, [String(reference)], run.tx);
    if (target === w.id) throw TrackerError.of(Errors.DUPE_LOOP_DETECTED, { bug_id: w.id, dupe_of: target });
    // Locking reads (dupeOfLocked), as the dependency walk: a concurrent update cannot close the chain meanwhile.
    const seen = new Set<number>([target]);
    for (let next: number | undefined = target; next !== undefined; ) {
      next = await this.updates.dupeOfLocked(run.tx, next);
      if (next === w.id) throw TrackerError.of(Errors.DUPE_LOOP_DETECTED, { bug_id: w.id, dupe_of: target });
      if (next !== undefined && seen.has(next)) break;
      if (next !== undefined) seen.add(next);
    }
    return target;
  }

  /** noresolveonopenblockers: FIXED while a bug this one depends on is still open. */
  private async refuseOpenDependencies(w: BugWork): Promise<void> {
    const { run } = w;
    const ids = await this.updates.dependsOnIds(run.tx, w.id);
    if (!ids.length) return;
    const open = (await this.updates.statusesOf(run.tx, ids)).filter((status) => w.isOpen(status)).length;
    if (open) throw TrackerError.of(Errors.STILL_UNRESOLVED_BUGS, { bug_id: w.id, count: open });
  }

  /** musthavemilestoneonaccept: IN_PROGRESS needs a milestone other than the default where there is a choice. */
  private async requireMilestoneOnAccept(w: BugWork): Promise<void> {
    const { run } = w;
    if (!run.params.bool('musthavemilestoneonaccept') || !run.params.bool('usetargetmilestone')) return;
    if (w.targetMilestone !== w.product.defaultMilestone) return;
    if ((await run.products.milestoneCount(w.product.id)) >= 2) throw TrackerError.of(Errors.MILESTONE_REQUIRED);
  }

  // ---- Time tracking --------------------------------------------------------------------------------------

  /**
   * remaining_time: reduced by work_time (not below 0), then zeroed by closing, then replaced by an explicit value —
   * the order in which Bugzilla applies the three.
   */
  applyRemainingTime(w: BugWork, workTime: number): void {
    const { run, bug } = w;
    const explicit = run.request.remainingTime;
    if (explicit !== undefined) {
      if (roundHours(explicit.hours) === bug.row.remainingTime) return;
      w.allow('remaining_time', bug.row.remainingTime, explicit.asSent);
      w.set('remainingTime', 'remaining_time', bug.row.remainingTime, explicit.asSent, roundHours(explicit.hours));
      return;
    }
    // Implicit changes need no right of their own: work_time was checked, and closing zeroes it for anyone.
    let remaining = bug.row.remainingTime;
    if (workTime !== 0) remaining = Math.max(roundHours(remaining - workTime), 0);
    if (w.zeroRemainingTime) remaining = 0;
    if (remaining !== bug.row.remainingTime) w.set('remainingTime', 'remaining_time', bug.row.remainingTime, remaining);
  }
}
