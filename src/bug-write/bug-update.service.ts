import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { callerOnTrust, commitConditionsOf, type RequestContext } from '../common/http/request-context.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { ProductService, type ProductRecord } from '../product/product.service.js';
import { FieldService } from '../field/field.service.js';
import { UserService, type UserRecord } from '../user/user.service.js';
import { bugMailState } from '../bug/bug-events.js';
import { BugEventsService } from '../bug/bug-events.service.js';
import { BugVisibilityService, plainBugIds } from '../bug/bug-visibility.service.js';
import { visibilityKnownTo } from '../bug/store/bug-visibility.companion.js';
import { ChangeRecorderService } from '../bug/change-recorder.service.js';
import { BugLoaderService, type LockedBug, type WrittenBug } from '../bug/store/bug-loader.service.js';
import type { Sql } from '../database/sql.js';
import type { ActivityEntry } from '../bug/bug.types.js';
import { productRights } from '../bug-rules/field-permissions.js';
import { TIME_TRACKING_FIELDS } from '../bug/bug.fields.js';
import { parseUpdateRequest, type UpdateRequest } from './update/update-request.js';
import type { BugUpdateInput } from './dto/bug-update.dto.js';
import { UpdateStateLoader, type BugState, type StateNeeds } from './update/update-state.js';
import { statesAfter, stillFollowed } from './store/update-projection.js';
import { undoneAloneIfRefused } from './store/shared-update.js';
import { BugWork, type UpdateRun } from './update/bug-work.js';
import { FieldSteps } from './update/update-fields.js';
import { RelationSteps } from './update/update-relations.js';
import { WorkflowSteps } from './update/update-workflow.js';
import { CommentSteps } from './update/update-comments.js';
import { FlagSteps } from './update/update-flags.js';
import { BugEditsService } from '../bug/store/bug-edits.service.js';
import { BugStoreService } from '../bug/store/bug-store.service.js';
import { UpdateBatches, type PartOutcome } from './update/update-batches.js';
import { AppConfig } from '../config/app-config.js';

/** One element of the Update Bug response (updates.md "Update Bug: response"). */
export interface UpdatedBug {
  id: number;
  alias: string[];
  last_change_time: string;
  changes: Record<string, { removed: string; added: string }>;
}

/** Who asks (perhaps presumed: src/fast-paths.ts), and the request's one timestamp. */
export type UpdateContext = Pick<RequestContext, 'caller' | 'now' | 'companion' | 'presumed'>;

/** The body of an Update Bug request: its DTO, and its custom fields (`cf_*`, which no DTO can declare). */
export interface UpdateBody {
  input: BugUpdateInput;
  custom: ReadonlyMap<string, unknown>;
}

/** The most requests one shared transaction carries (UpdateBatches). */
const MOST_SHARING = 32;

/** One Update Bug request as it reaches its transaction: checked, its body parsed, its settings reads done. */
interface UpdatePart extends Pick<UpdateRun, 'multi' | 'at' | 'namedUsers' | 'workflow' | 'request'> {
  ctx: UpdateContext;
  ids: readonly number[];
  /** The request's bug references, when their 100/101/102 check waits for the bugs' locks (checkUnderLock). */
  unchecked?: readonly string[];
}

/** What one request did under the locks: its answer, each bug it changed with the state it changed it from. */
interface AppliedPart {
  answer: { bugs: UpdatedBug[] };
  works: Array<{ w: BugWork; basis: LockedBug }>;
  bumped: number[];
}

/**
 * Whether a request may share its transaction with other updates of its bug (UpdateBatches): it names one bug and
 * touches no other — dependencies, See Also and duplicates write the bugs on their other side, whose locks a shared
 * transaction does not take first.
 */
function sharesTransaction({ ids, request }: UpdatePart): boolean {
  return ids.length === 1 && !request.blocks && !request.dependsOn && !request.regressedBy && !request.regressions && !request.seeAlso
    && request.statusChange.dupeOf === undefined;
}

/** The relations the requests need loaded (the rest are never queried). */
function needsOf(...requests: UpdateRequest[]): StateNeeds {
  const needs: StateNeeds = {};
  for (const r of requests) {
    needs.dependencies ||= !!r.blocks || !!r.dependsOn;
    needs.regressions ||= !!r.regressedBy || !!r.regressions;
    needs.seeAlso ||= !!r.seeAlso;
    needs.flags ||= !!r.flags || r.product !== undefined || r.component !== undefined;
    needs.custom ||= r.custom.size > 0;
  }
  return needs;
}

/**
 * The bug `written` describes, as the next request of a shared transaction starts from it; its stamp stays the one
 * read under the lock (stateAfter asks it only for the settings mark its names were read under).
 */
function lockedAfter(written: WrittenBug, before: LockedBug): LockedBug {
  return {
    bug: { ...written.detail, visible: before.bug.visible, ...written.relations },
    stamp: before.stamp,
    relations: written.wanted,
    customFields: written.customFields,
    movedElsewhere: written.movedElsewhere,
  };
}

/** What the parts' callers commit under: the transaction carrying them commits only under all. */
function conditionsOf(parts: readonly UpdatePart[]): ReturnType<typeof commitConditionsOf> {
  return parts.flatMap(({ ctx }) => commitConditionsOf(ctx));
}

function outcomeOf<T>(work: Promise<T>): Promise<PartOutcome<T>> {
  return work.then((answer) => ({ answer }), (error: unknown) => ({ error }));
}

/** A failure after which the transaction may have committed: the connection went while its COMMIT was on the way. */
function connectionLost(err: unknown): boolean {
  const driver = (err as { driverError?: { fatal?: boolean } })?.driverError ?? (err as { fatal?: boolean });
  return driver?.fatal === true;
}

/**
 * Update Bug (`PUT /rest/bug/(id_or_alias)`, `ids` for several): every body field of the spec, the workflow and its
 * rules 1–5, who may change what, duplicates, dependencies, groups, flags, custom fields and time tracking. One
 * transaction for the whole request, so a multi-bug update is all or nothing. Every change goes through the change
 * recorder (history + audit) and to the mailer, inside the transaction.
 *
 * The steps run in Bugzilla 5.0's order (workflow.md): product (with component, version, milestone), groups,
 * dependencies, keywords, comment, the plain fields (status before resolution before dupe_of), see also, custom
 * fields, cc, aliases, flags, comment privacy — so the first error of a request is the one Bugzilla gives.
 */
@Injectable()
export class BugUpdateService {
  constructor(
    private readonly db: Db,
    private readonly visibility: BugVisibilityService,
    private readonly recorder: ChangeRecorderService,
    private readonly loader: BugLoaderService,
    private readonly states: UpdateStateLoader,
    private readonly products: ProductService,
    private readonly fields: FieldService,
    private readonly users: UserService,
    private readonly fieldSteps: FieldSteps,
    private readonly relationSteps: RelationSteps,
    private readonly workflowSteps: WorkflowSteps,
    private readonly commentSteps: CommentSteps,
    private readonly flagSteps: FlagSteps,
    private readonly edits: BugEditsService,
    private readonly updates: BugStoreService,
    private readonly bugEvents: BugEventsService,
    config: AppConfig,
  ) {
    this.sharesTransactions = config.fastPaths;
  }

  /** AppConfig.fastPaths: off, every request has a transaction of its own (no UpdateBatches). */
  private readonly sharesTransactions: boolean;
  private readonly batches = new UpdateBatches<UpdatePart, { bugs: UpdatedBug[] }>((parts, locked) => this.updateTogether(parts, locked), MOST_SHARING);

  /**
   * Updates the bugs named by `idsOrAliases` (the path's first) with the request's body. `readBody` reads it, and is
   * called once the bugs are checked: Bugzilla answers 100/101/102 before any error of the body. A transaction that
   * MySQL chose as a deadlock victim (two updates touching each other's bugs) changed nothing, and Db.transaction
   * runs it again.
   */
  async update(ctx: UpdateContext, idsOrAliases: readonly string[], readBody: () => UpdateBody): Promise<{ bugs: UpdatedBug[] }> {
    const at = toDbDateTime(ctx.now);
    // What does not depend on the bugs' state is read before the transaction. Inside it, the row locks come first,
    // so that everything read afterwards (MySQL takes the snapshot at the first plain read) includes what earlier
    // updates of these bugs committed.
    // As Bugzilla: the bugs are checked (100/101/102) before the body is read; the companion read of the caller's
    // credential statement (BugVisibilityCompanion) has usually found them already. For a presumed caller there was
    // none: bugs named by id are checked under their locks (checkUnderLock), and before a body error is answered.
    const presumedIds = callerOnTrust(ctx) && plainBugIds(idsOrAliases);
    const ids = presumedIds
      ? [...new Set(presumedIds)]
      : await this.visibility.resolveVisible(ctx.caller, idsOrAliases, undefined, visibilityKnownTo(ctx));
    let request: UpdateRequest;
    try {
      request = this.parsedBody(readBody(), ids.length > 1, ctx.caller.parameters.bool('bmo_bug_fields'));
    } catch (error) {
      if (presumedIds) await this.visibility.resolveVisible(ctx.caller, idsOrAliases);
      throw error;
    }
    const namedUsers = await this.namedUsers(ctx.caller.settingsMark, request);
    const workflow = this.touchesWorkflow(request) ? await this.workflowSteps.read(this.fields.catalogueAt(ctx.caller.settingsMark)) : undefined;

    const part: UpdatePart = { ctx, ids, request, multi: ids.length > 1, at, namedUsers, workflow, ...(presumedIds ? { unchecked: idsOrAliases } : {}) };
    return this.sharesTransactions && sharesTransaction(part) ? this.batches.run(ids[0], part) : this.updateAlone(part);
  }

  /** The request's body as the steps take it; what no multi-bug request may carry refused. */
  private parsedBody({ input, custom }: UpdateBody, multi: boolean, bmoFields: boolean): UpdateRequest {
    const request = parseUpdateRequest(input, custom, bmoFields);
    if (multi && request.alias) throw TrackerError.of(Errors.MULTIPLE_ALIAS_NOT_ALLOWED);
    if (multi && request.statusChange.dupeOf !== undefined) throw TrackerError.of(Errors.DUPE_NOT_ALLOWED);
    return request;
  }

  /**
   * The 100/101/102 check of a presumed caller's request, on the bugs as read under their locks: visible to everyone
   * when in no group, else read in the transaction (BugVisibilityService.resolveVisibleLocked).
   */
  private async checkUnderLock(tx: Sql, part: UpdatePart, locked: ReadonlyMap<number, LockedBug>): Promise<void> {
    if (!part.unchecked) return;
    const groupsOf = new Map([...locked].map(([id, state]) => [id, state.bug.groups]));
    await this.visibility.resolveVisibleLocked(part.ctx.caller, part.unchecked, groupsOf, tx);
  }

  /** One request in its own transaction; `onLocked` is called once it holds its bugs' locks. */
  private async updateAlone(part: UpdatePart, onLocked?: () => void): Promise<{ bugs: UpdatedBug[] }> {
    let kept: Promise<void> | undefined;
    const result = await this.db.transaction(async (tx) => {
      // A run that lost a lock conflict kept nothing (its commit never came): only the last run's counts.
      kept = undefined;
      await this.states.lock(tx, part.ids);
      const locked = await this.states.load(tx, part.ids, needsOf(part.request));
      onLocked?.();
      await this.checkUnderLock(tx, part, locked);
      const { answer, works, bumped } = await this.apply(tx, part, locked);
      const changed = [...new Set([...works.map(({ w }) => w.id), ...bumped])];
      if (changed.length) kept = this.loader.keepAsWritten(tx, changed, statesAfter(tx, works));
      return answer;
    }, conditionsOf([part]));
    // Kept before the answer leaves: a read of the bug that follows it costs no load.
    await kept;
    return result;
  }

  /**
   * Requests that update the same one bug, in one transaction (UpdateBatches), each on the bug as the ones before it
   * left it, and each undone alone if it is refused (undoneAloneIfRefused), so that each comes to what it would have alone.
   * A transaction that lost a lock conflict runs again whole (Db.transaction), each part from the start. If it fails
   * otherwise, nothing of it committed, and each request runs again in its own — unless the connection was lost, when it may have
   * committed: then they all fail with that error, as a lone request would. `onLocked` is called once the bug's lock
   * is held: UpdateBatches then starts the next transaction of the bug, whose lock waits behind this one's.
   */
  private async updateTogether(parts: UpdatePart[], onLocked: () => void): Promise<Array<PartOutcome<{ bugs: UpdatedBug[] }>>> {
    if (parts.length === 1) return [await outcomeOf(this.updateAlone(parts[0], onLocked))];
    // In the order the requests came in: the bug's last_change_time is the last one's.
    const ordered = parts.map((part, i) => ({ part, i })).sort((a, b) => a.part.at.localeCompare(b.part.at) || a.i - b.i);
    const outcomes = new Array<PartOutcome<{ bugs: UpdatedBug[] }>>(parts.length);
    let kept: Promise<void> | undefined;
    try {
      await this.db.transaction(async (tx) => {
        kept = undefined;
        const id = parts[0].ids[0];
        const needs = needsOf(...parts.map((part) => part.request));
        await this.states.lock(tx, [id]);
        let basis: LockedBug | undefined = (await this.states.load(tx, [id], needs)).get(id);
        onLocked();
        // The bug as the last request that changed it left it, when its changes could be followed (stateAfter).
        let written: WrittenBug | undefined;
        let changed = false;
        for (const { part, i } of ordered) {
          try {
            if (!basis) throw TrackerError.of(Errors.BUG_NOT_FOUND, { id });
            const current = new Map([[id, basis]]);
            const { answer, works } = await undoneAloneIfRefused(tx, async () => {
              await this.checkUnderLock(tx, part, current);
              return this.apply(tx, part, current);
            });
            outcomes[i] = { answer };
            if (!works.length) continue;
            changed = true;
            [written] = statesAfter(tx, [{ w: works[0].w, basis }]);
            basis = written ? lockedAfter(written, basis) : await this.states.reload(tx, basis, needs);
          } catch (error) {
            if (!(error instanceof TrackerError)) throw error;
            outcomes[i] = { error };
          }
        }
        if (changed) kept = this.loader.keepAsWritten(tx, [id], stillFollowed(tx, written));
      }, conditionsOf(parts));
    } catch (error) {
      if (connectionLost(error)) throw error;
      return Promise.all(parts.map((part) => outcomeOf(this.updateAlone(part))));
    }
    await kept;
    return outcomes;
  }

  /**
   * One request's work under its bugs' locks, on their states as `locked`: the answer, and each changed bug with the
   * state it was changed from.
   */
  private async apply(tx: Sql, part: UpdatePart, locked: ReadonlyMap<number, LockedBug>): Promise<AppliedPart> {
    const { ctx, ids, request, multi, at, namedUsers, workflow } = part;
    // Settings not kept yet are read on this transaction's connection: through the pool, this update would wait,
    // holding the bugs' locks, for a connection that concurrent updates of the same bugs hold while they wait for
    // those locks (MariaDB then ends them all with a lock wait timeout).
    const [products, fields] = [this.products.catalogueAt(ctx.caller.settingsMark, tx), this.fields.catalogueAt(ctx.caller.settingsMark, tx)];
    const run: UpdateRun = {
      tx, caller: ctx.caller, params: ctx.caller.parameters, at, request, multi, workflow, products, fields,
      namedUsers, others: new Map(), bumped: new Set(), reordered: new Set(), otherComments: new Map(),
    };
    const needs = needsOf(request);
    const productsOfBugs = await products.findByIds([...locked.values()].map((s) => s.bug.row.productId));

    const results: UpdatedBug[] = [];
    const works: AppliedPart['works'] = [];
    for (const id of ids) {
      // A bug changed as a side effect of an earlier bug of this request is read again.
      const basis = locked.get(id)!;
      const state = run.bumped.has(id) ? (await this.states.reload(tx, basis, needs)).bug : basis.bug;
      const w = await this.updateOne(run, state, productsOfBugs.get(state.row.productId)!);
      if (w.changed) works.push({ w, basis });
      results.push(this.answerOf(w));
    }
    await this.finishOthers(run);
    // A bug of the request that a later bug touched changed at this time too.
    const now = toApiDateTime(at)!;
    for (const result of results) if (run.bumped.has(result.id)) result.last_change_time = now;
    return { answer: { bugs: results }, works, bumped: [...run.bumped] };
  }

  // ---- Request-wide loading ---------------------------------------------------------------------------------

  /** Status, resolution, dupe_of, or a product change (which may confirm an UNCONFIRMED bug) need the workflow. */
  private touchesWorkflow(r: UpdateRequest): boolean {
    const { status, resolution, dupeOf } = r.statusChange;
    return status !== undefined || resolution !== undefined || dupeOf !== undefined || r.product !== undefined;
  }

  /** Every user the request names by login, kept or in one query; unknown logins fail where they are used (51). */
  private async namedUsers(settingsMark: number | undefined, r: UpdateRequest): Promise<Map<string, UserRecord>> {
    const logins = [
      r.assignedTo, r.qaContact,
      ...(r.cc?.steps.flatMap((s) => s.values) ?? []),
      ...(r.flags ?? []).map((f) => f.requestee),
    ].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    return this.users.findByLoginsAt(settingsMark, logins);
  }

  // ---- One bug --------------------------------------------------------------------------------------------

  private async updateOne(run: UpdateRun, bug: BugState, product: ProductRecord): Promise<BugWork> {
    const { caller } = run;
    if (!(await run.products.canEdit(caller, bug.row.productId))) {
      throw TrackerError.of(Errors.PRODUCT_EDIT_DENIED, { product: product.name });
    }
    const w = new BugWork(run, bug, {
      ...(await this.productRights(run, bug.row.productId)),
      isTimeTracker: caller.isTimeTracker,
      isAssignee: caller.id === bug.row.assignedToId,
      isQaContact: bug.row.qaContactId !== null && caller.id === bug.row.qaContactId,
      isReporter: caller.id === bug.row.reporterId,
    }, product);

    // Bugzilla 5.0's order (workflow.md), so that the first error of a request is the one Bugzilla gives.
    await this.fieldSteps.applyProduct(w);
    await this.relationSteps.applyGroups(w);
    await this.relationSteps.applyDependencies(w);
    await this.relationSteps.applyRegressions(w);
    await this.relationSteps.applyKeywords(w);
    const comment = this.commentSteps.prepareComment(w);
    await this.fieldSteps.applyPeople(w);
    await this.fieldSteps.applyPlainFields(w);
    await this.workflowSteps.applyStatus(w, comment.hasComment);
    this.workflowSteps.applyRemainingTime(w, comment.workTime);
    await this.relationSteps.applySeeAlso(w);
    await this.relationSteps.applyCustomFields(w);
    await this.relationSteps.applyCc(w);
    await this.relationSteps.applyAliases(w);
    await this.flagSteps.applyFlags(w);
    await this.commentSteps.applyCommentPrivacy(w);
    await this.commentSteps.writeComment(w, comment.workTime);
    if (w.newDupeOf !== undefined) await this.commentSteps.markDuplicateTarget(w, w.newDupeOf);
    if (w.ccAdded.length || w.ccRemoved.length) w.changes.record('cc', w.ccRemoved.join(', '), w.ccAdded.join(', '));

    await this.finish(w);
    return w;
  }

  /** editbugs and canconfirm for the bug's product; its control rows are read only when the global editbugs does not decide. */
  private async productRights(run: UpdateRun, productId: number): Promise<{ inEditbugs: boolean; inCanconfirm: boolean }> {
    const { caller } = run;
    const controls = caller.inGroup('editbugs') ? [] : await run.products.groupControls([productId]);
    return productRights(caller, controls);
  }

  /** Writes the change of one bug, if any. */
  private async finish(w: BugWork): Promise<void> {
    if (!w.changes.isEmpty) w.changed = true;
    // The row, the history and the outbox rows need no answer: they go with the mail's visibility read and the
    // COMMIT, so that the bug's lock is held for two round trips here instead of six.
    if (w.changed) await this.edits.recordChange(w.run.tx, () => this.writeChange(w));
  }

  /** The bug's element of the response. */
  private answerOf(w: BugWork): UpdatedBug {
    return {
      id: w.id,
      alias: w.aliases,
      last_change_time: toApiDateTime(w.changed ? w.run.at : w.bug.row.lastChangeTime)!,
      changes: this.visibleChanges(w),
    };
  }

  /** The bug's row, its history and its mail: a change of one bug written. */
  private async writeChange(w: BugWork): Promise<void> {
    const { run } = w;
    w.columns.lastChangeTime = run.at;
    await this.updates.updateBug(run.tx, w.id, w.columns);
    const history: ActivityEntry[] = [
      ...w.changes.entries().map((e) => ({ bugId: w.id, userId: run.caller.id, at: run.at, field: e.field, removed: e.removed, added: e.added })),
      ...w.quiet.map((e) => ({ bugId: w.id, userId: run.caller.id, at: run.at, field: e.field, removed: e.removed, added: e.added, commentId: e.commentId ?? null })),
    ];
    await this.recorder.record(run.tx, history);
    await this.bugEvents.publish(run.tx, {
      bugId: w.id,
      summary: w.columns.summary ?? w.bug.row.summary,
      product: w.product.name,
      component: w.componentName,
      productId: w.product.id,
      componentId: w.componentId,
      changerId: run.caller.id,
      action: 'modify',
      state: bugMailState({ ...w.bug.row, ...w.columns }, w.product.classification, w.keywords),
      changes: w.changes.entries().map((e) => ({ field: e.field, removed: e.removed, added: e.added })),
      ...(w.comment ? { comment: w.comment } : {}),
      participants: {
        reporterId: w.bug.row.reporterId,
        assigneeId: w.assigneeId,
        qaContactId: w.qaContactId,
        ccIds: w.ccIds,
        formerIds: [...new Set(w.formerIds)],
      },
      at: run.at,
      settingsMark: run.caller.settingsMark,
      // Its groups were read under its lock (UpdateStateLoader): in none, it needs no visibility read, and the row,
      // history and outbox rows all go with the COMMIT.
      canSee: (userIds) => this.visibility.usersWhoCanSee(w.id, userIds, run.caller, run.tx, w.keepsGroups && !w.bug.groups.length),
    });
  }

  /** The `changes` of the response: time-tracking fields only for time trackers (Get Bug hides them too). */
  private visibleChanges(w: BugWork): UpdatedBug['changes'] {
    const changes = w.changes.toChanges();
    if (w.run.caller.isTimeTracker) return changes;
    return Object.fromEntries(Object.entries(changes).filter(([field]) => !TIME_TRACKING_FIELDS.has(field)));
  }

  // ---- Bugs changed as a side effect ----------------------------------------------------------------------

  /** History, last_change_time and mail of the bugs changed through others (dependencies, See Also, duplicates). */
  private async finishOthers(run: UpdateRun): Promise<void> {
    const ids = [...run.bumped];
    if (!ids.length) return;
    await this.edits.recordChange(run.tx, () => this.writeOthers(run, ids));
  }

  private async writeOthers(run: UpdateRun, ids: readonly number[]): Promise<void> {
    const { tx } = run;
    await this.edits.touch(tx, ids, run.at);
    const entries = [...run.others].flatMap(([bugId, list]) =>
      list.map((e) => ({ bugId, userId: run.caller.id, at: run.at, field: e.field, removed: e.removed, added: e.added })));
    await this.recorder.record(tx, entries);
    const details = await this.loader.details(ids, { sql: tx });
    const { byBug } = await this.loader.relations(ids, new Set(['cc', 'keywords']), { sql: tx });
    for (const id of ids) {
      const bug = details.get(id);
      if (!bug) continue;
      await this.bugEvents.publish(tx, {
        bugId: id,
        summary: bug.row.summary,
        product: bug.product,
        component: bug.component,
        productId: bug.row.productId,
        componentId: bug.row.componentId,
        changerId: run.caller.id,
        action: 'modify',
        state: bugMailState(bug.row, bug.classification, byBug.get(id)?.keywords ?? []),
        changes: run.others.get(id) ?? [],
        ...(run.otherComments.has(id) ? { comment: run.otherComments.get(id)! } : {}),
        participants: {
          reporterId: bug.row.reporterId,
          assigneeId: bug.row.assignedToId,
          qaContactId: bug.row.qaContactId,
          ccIds: byBug.get(id)?.cc.map((u) => u.id) ?? [],
          formerIds: [],
        },
        at: run.at,
        settingsMark: run.caller.settingsMark,
        canSee: (userIds) => this.visibility.usersWhoCanSee(id, userIds, run.caller, tx),
      });
    }
  }
}
