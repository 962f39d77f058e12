import { Inject, Injectable } from '@nestjs/common';
import { Db } from '../../database/db.service.js';
import type { Sql } from '../../database/sql.js';
import { Caller } from '../../common/caller.js';
import { Errors, TrackerError } from '../../common/errors/index.js';
import type { RequestContext } from '../../common/http/request-context.js';
import { toApiDateTime, toDbDateTime } from '../../common/time/datetime.js';
import { ProductService, type ProductRecord } from '../../product/product.service.js';
import { FieldService } from '../../field/field.service.js';
import { FlagTypeService } from '../../flag/flag-type.service.js';
import { UserService, type UserRecord } from '../../user/user.service.js';
import { GroupService } from '../../group/group.service.js';
import { CommentService, CommentType } from '../../comment/comment.service.js';
import { BUG_MAILER, type BugMailer } from '../../mail/bug-mail.types.js';
import { FieldType } from '../../database/install/install-data.js';
import { BugVisibilityService, parseBugReference } from '../bug-visibility.service.js';
import { ChangeRecorderService } from '../change-recorder.service.js';
import { BugLoaderService } from '../bug-loader.service.js';
import type { ActivityEntry } from '../bug.types.js';
import { applyAddRemoveSet, mapAddRemoveSet, sameIgnoringCase, type AddRemoveSet } from '../rules/update-objects.js';
import { validateAlias } from '../rules/alias.js';
import { planStatusChange, UNCONFIRMED } from '../rules/workflow.js';
import { canChangeField } from '../rules/field-permissions.js';
import { formatList, formatWorkTime, diffFlags, type FlagSnapshot } from '../rules/changes.js';
import { validateSeeAlso, sameSeeAlso } from '../rules/see-also.js';
import { checkFlagPermission, resolveFlagChanges, type ApplicableFlagType, type ExistingFlag } from '../rules/flags.js';
import { parseUpdateRequest, type UpdateRequest } from './update-request.js';
import { UpdateStateLoader, type BugState, type StateNeeds } from './update-state.js';
import { BugWork, type UpdateRun, type Workflow } from './bug-work.js';
import { applyGroupChanges } from './group-rules.js';
import { checkDependencyLoops, type Direction } from './dependency-loops.js';
import { normaliseCustomValue, NO_SELECTION } from './custom-values.js';

/** One element of the Update Bug response (updates.md "Update Bug: response"). */
export interface UpdatedBug {
  id: number;
  alias: string[];
  last_change_time: string;
  changes: Record<string, { removed: string; added: string }>;
}

const MAX_SUMMARY = 255;

/** The select fields of the bugs row: API name → internal field name (FieldService) and column. */
const SELECT_FIELDS = [
  { key: 'opSys', field: 'op_sys', legal: 'op_sys', column: 'op_sys' },
  { key: 'platform', field: 'platform', legal: 'rep_platform', column: 'platform' },
  { key: 'priority', field: 'priority', legal: 'priority', column: 'priority' },
  { key: 'severity', field: 'severity', legal: 'bug_severity', column: 'severity' },
] as const;

const TEXT_FIELDS = [
  { key: 'url', column: 'url' },
  { key: 'whiteboard', column: 'whiteboard' },
] as const;

const byNumber = (a: number, b: number) => a - b;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const rounded = (hours: number) => Math.round(hours * 100) / 100;

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
    private readonly comments: CommentService,
    private readonly products: ProductService,
    private readonly fields: FieldService,
    private readonly flagTypes: FlagTypeService,
    private readonly users: UserService,
    private readonly groups: GroupService,
    @Inject(BUG_MAILER) private readonly mailer: BugMailer,
  ) {}

  /** Updates the bugs named by `idsOrAliases` (the path's first) with the request's data. */
  async update(ctx: RequestContext, idsOrAliases: readonly string[]): Promise<{ bugs: UpdatedBug[] }> {
    const request = parseUpdateRequest(ctx.params.data());
    const at = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const ids = await this.visibility.resolveVisible(ctx.caller, idsOrAliases, tx);
      const multi = ids.length > 1;
      if (multi && request.alias) throw TrackerError.of(Errors.MULTIPLE_ALIAS_NOT_ALLOWED);
      if (multi && request.statusChange.dupeOf !== undefined) throw TrackerError.of(Errors.DUPE_NOT_ALLOWED);

      await this.states.lock(tx, ids);
      const run: UpdateRun = {
        tx, caller: ctx.caller, params: ctx.caller.parameters, at, request, multi,
        namedUsers: await this.namedUsers(tx, request), others: new Map(), bumped: new Set(), otherComments: new Map(),
      };
      const needs = this.needs(run);
      const states = await this.states.load(tx, ids, needs);
      const products = await this.products.findByIds([...states.values()].map((s) => s.row.productId), tx);

      const results: UpdatedBug[] = [];
      for (const id of ids) {
        // A bug changed as a side effect of an earlier bug of this request is read again.
        const state = run.bumped.has(id) ? (await this.states.load(tx, [id], needs)).get(id)! : states.get(id)!;
        results.push(await this.updateOne(run, state, products.get(state.row.productId)!));
      }
      await this.finishOthers(run);
      // A bug of the request that a later bug touched changed at this time too.
      const now = toApiDateTime(at)!;
      for (const result of results) if (run.bumped.has(result.id)) result.last_change_time = now;
      return { bugs: results };
    });
  }

  // ---- Request-wide loading ---------------------------------------------------------------------------------

  /** The relations this request needs loaded (the rest are never queried). */
  private needs(run: UpdateRun): StateNeeds {
    const r = run.request;
    const productMoves = r.product !== undefined || r.component !== undefined;
    return {
      keywords: !!r.keywords,
      groups: !!r.groups || r.product !== undefined,
      dependencies: !!r.blocks || !!r.dependsOn,
      seeAlso: !!r.seeAlso,
      flags: !!r.flags || productMoves,
      custom: r.custom.size > 0,
    };
  }

  /** Every user the request names by login, in one query; unknown logins fail where they are used (51). */
  private async namedUsers(tx: Sql, r: UpdateRequest): Promise<Map<string, UserRecord>> {
    const logins = [
      r.assignedTo, r.qaContact,
      ...(r.cc?.steps.flatMap((s) => s.values) ?? []),
      ...(r.flags ?? []).map((f) => f.requestee),
    ].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    return this.users.findByLogins(logins.map((l) => l.trim()), tx);
  }

  private userNamed(run: UpdateRun, login: string): UserRecord {
    const user = run.namedUsers.get(login.trim().toLowerCase());
    if (!user) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'user', name: login.trim() });
    return user;
  }

  private async workflow(run: UpdateRun): Promise<Workflow> {
    if (!run.workflow) {
      const [statuses, transitions, resolutions] = await Promise.all([
        this.fields.statuses(run.tx),
        this.fields.transitions(run.tx),
        this.fields.legalValues('resolution', run.tx),
      ]);
      run.workflow = { statuses, transitions, resolutions: resolutions.map((v) => v.value).filter((v) => v !== '') };
    }
    return run.workflow;
  }

  /** Another user as a Caller, to ask the visibility rule whether they may see a bug. */
  private async callerFor(run: UpdateRun, user: UserRecord): Promise<Caller> {
    const groups = await this.groups.membershipsOf(user.id, run.tx);
    return new Caller({ id: user.id, login: user.login, realName: user.realName, email: user.email }, groups, run.params);
  }

  // ---- One bug --------------------------------------------------------------------------------------------

  private async updateOne(run: UpdateRun, bug: BugState, product: ProductRecord): Promise<UpdatedBug> {
    const { caller } = run;
    if (!(await this.products.canEdit(caller, bug.row.productId))) {
      throw TrackerError.of(Errors.PRODUCT_EDIT_DENIED, { product: product.name });
    }
    const w = new BugWork(run, bug, {
      inEditbugs: caller.inGroup('editbugs'),
      inCanconfirm: caller.inGroup('canconfirm'),
      isTimeTracker: caller.isTimeTracker,
      isAssignee: caller.id === bug.row.assignedToId,
      isQaContact: bug.row.qaContactId !== null && caller.id === bug.row.qaContactId,
      isReporter: caller.id === bug.row.reporterId,
    }, product);
    const r = run.request;
    if (r.statusChange.status !== undefined || r.statusChange.resolution !== undefined || r.statusChange.dupeOf !== undefined || r.product !== undefined) {
      await this.workflow(run);
    }

    await this.applyProduct(w);
    await this.applyGroups(w);
    await this.applyDependencies(w);
    await this.applyKeywords(w);
    const comment = this.prepareComment(w);
    await this.applyPeople(w);
    await this.applyPlainFields(w);
    await this.applyStatus(w, comment.hasComment);
    this.applyRemainingTime(w, comment.workTime);
    await this.applySeeAlso(w);
    await this.applyCustomFields(w);
    await this.applyCc(w);
    await this.applyAliases(w);
    await this.applyFlags(w);
    await this.applyCommentPrivacy(w);
    await this.writeComment(w, comment.workTime);
    if (w.newDupeOf !== undefined) await this.markDuplicateTarget(w, w.newDupeOf);
    if (w.ccAdded.length || w.ccRemoved.length) w.changes.record('cc', w.ccRemoved.join(', '), w.ccAdded.join(', '));

    return this.finish(w);
  }

  /** Writes the row, the history and the mail of one bug, and answers its element of the response. */
  private async finish(w: BugWork): Promise<UpdatedBug> {
    const { run } = w;
    if (!w.changes.isEmpty) w.changed = true;
    if (w.changed) {
      w.columns.last_change_time = run.at;
      await run.tx.update('bugs', w.columns, { id: w.id });
      const history: ActivityEntry[] = [
        ...w.changes.entries().map((e) => ({ bugId: w.id, userId: run.caller.id, at: run.at, field: e.field, removed: e.removed, added: e.added })),
        ...w.quiet.map((e) => ({ bugId: w.id, userId: run.caller.id, at: run.at, field: e.field, removed: e.removed, added: e.added, commentId: e.commentId ?? null })),
      ];
      await this.recorder.record(run.tx, history);
      await this.mailer.notify(run.tx, {
        bugId: w.id,
        summary: String(w.columns.summary ?? w.bug.row.summary),
        product: w.product.name,
        component: w.componentName,
        changerId: run.caller.id,
        isNew: false,
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
      });
    }
    return {
      id: w.id,
      alias: w.aliases,
      last_change_time: toApiDateTime(w.changed ? run.at : w.bug.row.lastChangeTime)!,
      changes: w.changes.toChanges(),
    };
  }

  // ---- Product, component, version, milestone (rule 5) ----------------------------------------------------

  private async applyProduct(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const { tx, request: r } = run;
    const oldProduct = w.product;

    if (r.product !== undefined) {
      const name = r.product.trim();
      if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'product' });
      if (name.toLowerCase() !== oldProduct.name.toLowerCase()) {
        const product = await this.products.findByName(name, tx);
        // Rule 5: the caller must be able to file bugs in the new product; an unknown one gives the same error.
        if (!product || !(await this.products.canEnter(run.caller, product))) {
          throw TrackerError.of(Errors.ENTRY_ACCESS_DENIED, { product: name });
        }
        w.allow('product', oldProduct.name, product.name);
        w.product = product;
        w.productChanged = true;
        w.set('product_id', 'product', oldProduct.name, product.name, product.id);
      }
    }
    const product = w.product;

    // On a product change, component and version keep their names and must exist in the new product.
    const componentName = r.component ?? (w.productChanged ? bug.component : undefined);
    if (componentName !== undefined) {
      const name = componentName.trim();
      if (name === '') throw TrackerError.of(Errors.REQUIRE_COMPONENT);
      if (w.productChanged || name.toLowerCase() !== bug.component.toLowerCase()) {
        const component = await this.products.componentByName(product.id, name, tx);
        if (!component) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'component', name, product: product.name });
        if (!component.isActive && component.id !== bug.row.componentId) {
          throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'component', value: component.name });
        }
        w.component = component;
        if (component.id !== bug.row.componentId) {
          w.allow('component', bug.component, component.name);
          w.componentId = component.id;
          w.componentName = component.name;
          w.set('component_id', 'component', bug.component, component.name, component.id);
        }
      }
    }

    const versionName = r.version ?? (w.productChanged ? bug.row.version : undefined);
    if (versionName !== undefined) {
      const name = versionName.trim();
      if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'version' });
      if (w.productChanged || name !== bug.row.version) {
        const version = await this.products.versionByName(product.id, name, tx);
        if (!version) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'version', name, product: product.name });
        if (!version.isActive && version.value !== bug.row.version) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'version', value: version.value });
        if (version.value !== bug.row.version) {
          w.allow('version', bug.row.version, version.value);
          w.set('version', 'version', bug.row.version, version.value);
        }
      }
    }

    let milestoneName = r.targetMilestone;
    let fallBackToDefault = false;
    if (milestoneName === undefined && w.productChanged) {
      // Without usetargetmilestone the field is not shown, so the bug takes the new product's default;
      // with it, the bug keeps its milestone when the new product has one of that name.
      fallBackToDefault = true;
      milestoneName = run.params.bool('usetargetmilestone') ? bug.row.targetMilestone : product.defaultMilestone;
    }
    if (milestoneName !== undefined) {
      const name = milestoneName.trim();
      if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'milestone' });
      if (w.productChanged || name !== bug.row.targetMilestone) {
        let milestone = await this.products.milestoneByName(product.id, name, tx);
        if (!milestone && fallBackToDefault) milestone = await this.products.milestoneByName(product.id, product.defaultMilestone, tx);
        if (!milestone) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'milestone', name, product: product.name });
        if (!milestone.isActive && milestone.value !== bug.row.targetMilestone && !fallBackToDefault) {
          throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'milestone', value: milestone.value });
        }
        if (milestone.value !== bug.row.targetMilestone) {
          w.allow('target_milestone', bug.row.targetMilestone, milestone.value);
          w.targetMilestone = milestone.value;
          w.set('target_milestone', 'target_milestone', bug.row.targetMilestone, milestone.value);
        }
      }
    }
  }

  // ---- Groups ---------------------------------------------------------------------------------------------

  private async applyGroups(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const r = run.request;
    if (!r.groups && !w.productChanged) return;
    const add = r.groups?.steps.filter((s) => s.action === 'add').flatMap((s) => s.values.map(String)) ?? [];
    const remove = r.groups?.steps.filter((s) => s.action === 'remove').flatMap((s) => s.values.map(String)) ?? [];
    const [controls, current] = await Promise.all([
      this.products.groupControls([w.product.id], run.tx),
      this.groups.findByNames(bug.groups, run.tx),
    ]);
    const before = bug.groups.map((name) => ({ id: current.get(name.toLowerCase())!.id, name }));
    const after = applyGroupChanges({
      bugId: w.id, product: w.product.name, controls, current: before, productChanged: w.productChanged,
      add, remove, isMember: (id) => run.caller.inGroupId(id),
    });
    const added = after.filter((g) => !before.some((b) => b.id === g.id));
    const removed = before.filter((b) => !after.some((g) => g.id === b.id));
    if (!added.length && !removed.length) return;
    if (removed.length) {
      await run.tx.run(`DELETE FROM bug_groups WHERE bug_id = ? AND group_id IN ${run.tx.in(removed)}`, [w.id, ...removed.map((g) => g.id)]);
    }
    await run.tx.insertMany('bug_groups', added.map((g) => ({ bug_id: w.id, group_id: g.id })));
    w.changes.record('groups', removed.map((g) => g.name).sort(byText), added.map((g) => g.name).sort(byText));
  }

  // ---- Dependencies ---------------------------------------------------------------------------------------

  private async applyDependencies(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const r = run.request;
    if (!r.dependsOn && !r.blocks) return;
    const dependsOn = r.dependsOn ? await this.resolveBugList(w, bug.dependsOn, r.dependsOn) : bug.dependsOn;
    const blocks = r.blocks ? await this.resolveBugList(w, bug.blocks, r.blocks) : bug.blocks;
    const diff = (before: number[], after: number[]) => ({
      added: after.filter((id) => !before.includes(id)).sort(byNumber),
      removed: before.filter((id) => !after.includes(id)).sort(byNumber),
    });
    const down = diff(bug.dependsOn, dependsOn);
    const up = diff(bug.blocks, blocks);
    if (!down.added.length && !down.removed.length && !up.added.length && !up.removed.length) return;
    if (down.added.length || down.removed.length) w.allow('depends_on', bug.dependsOn, dependsOn);
    if (up.added.length || up.removed.length) w.allow('blocks', bug.blocks, blocks);

    await checkDependencyLoops(w.id, dependsOn, blocks, (ids, direction) => this.neighbours(run.tx, ids, direction));

    const { tx } = run;
    for (const other of down.removed) await tx.run('DELETE FROM bug_dependencies WHERE blocked_id = ? AND depends_on_id = ?', [w.id, other]);
    for (const other of up.removed) await tx.run('DELETE FROM bug_dependencies WHERE blocked_id = ? AND depends_on_id = ?', [other, w.id]);
    await tx.insertMany('bug_dependencies', [
      ...down.added.map((other) => ({ blocked_id: w.id, depends_on_id: other })),
      ...up.added.map((other) => ({ blocked_id: other, depends_on_id: w.id })),
    ]);
    w.changes.record('depends_on', formatList(down.removed), formatList(down.added));
    w.changes.record('blocks', formatList(up.removed), formatList(up.added));
    // The lists stay mirror images: the other bug's opposite list changed too, with its own history.
    const self = String(w.id);
    for (const other of down.added) w.other(other, 'blocks', '', self);
    for (const other of down.removed) w.other(other, 'blocks', self, '');
    for (const other of up.added) w.other(other, 'depends_on', '', self);
    for (const other of up.removed) w.other(other, 'depends_on', self, '');
  }

  /**
   * Applies an add/remove/set of bug references (ids or aliases) to a list of ids. Added bugs must exist and be
   * visible (100/101/102); removing one the list does not hold is a no-op, removing one the caller cannot see is
   * refused as Bugzilla checks every bug whose list changes.
   */
  private async resolveBugList(w: BugWork, current: readonly number[], op: AddRemoveSet<unknown>): Promise<number[]> {
    const refs = op.steps.flatMap((s) => s.values);
    const lookups = await this.visibility.lookup(w.run.caller, refs, w.run.tx);
    const byInput = new Map(refs.map((ref, i) => [ref, lookups[i]]));
    const resolved = mapAddRemoveSet(op, (ref, action): number | null => {
      const lookup = byInput.get(ref)!;
      if (lookup.id !== undefined) return lookup.id;
      const reference = parseBugReference(ref);
      if (action === 'remove') {
        // Not there: nothing to remove. There but hidden: the caller may not touch it.
        if ('id' in reference && current.includes(reference.id)) throw lookup.error!;
        return null;
      }
      throw lookup.error!;
    });
    const cleaned = { steps: resolved.steps.map((s) => ({ action: s.action, values: s.values.filter((v): v is number => v !== null) })) };
    return applyAddRemoveSet([...current], cleaned).result;
  }

  /** The stored neighbours of bugs in one direction (one query per level of the loop walk). */
  private async neighbours(tx: Sql, ids: readonly number[], direction: Direction): Promise<Map<number, number[]>> {
    const [from, to] = direction === 'depends_on' ? ['blocked_id', 'depends_on_id'] : ['depends_on_id', 'blocked_id'];
    const rows = await tx.all(`SELECT ${from} AS a, ${to} AS b FROM bug_dependencies WHERE ${from} IN ${tx.in(ids)}`, [...ids]);
    const map = new Map<number, number[]>();
    for (const row of rows) map.set(Number(row.a), [...(map.get(Number(row.a)) ?? []), Number(row.b)]);
    return map;
  }

  // ---- Keywords -------------------------------------------------------------------------------------------

  private async applyKeywords(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const op = run.request.keywords;
    if (!op) return;
    const named = op.steps.flatMap((s) => s.values.map((v) => String(v).trim())).filter((v) => v !== '');
    const known = await this.fields.keywordsByNames([...named, ...bug.keywords], run.tx);
    // Every keyword named, to add or to remove, must exist (Bugzilla checks the whole list).
    const canonical = mapAddRemoveSet(op, (value) => {
      const keyword = known.get(String(value).trim().toLowerCase());
      if (!keyword) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'keyword', name: String(value).trim() });
      return keyword.name;
    });
    const { result, added, removed } = applyAddRemoveSet(bug.keywords, canonical, sameIgnoringCase as (a: string, b: string) => boolean);
    if (!added.length && !removed.length) return;
    for (const name of added) {
      const keyword = known.get(name.toLowerCase())!;
      if (!keyword.isActive) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'keyword', value: keyword.name });
    }
    w.allow('keywords', bug.keywords, result);
    const ids = (names: string[]) => names.map((n) => known.get(n.toLowerCase())!.id);
    if (removed.length) {
      await run.tx.run(`DELETE FROM bug_keywords WHERE bug_id = ? AND keyword_id IN ${run.tx.in(removed)}`, [w.id, ...ids(removed)]);
    }
    await run.tx.insertMany('bug_keywords', ids(added).map((id) => ({ bug_id: w.id, keyword_id: id })));
    w.changes.record('keywords', removed, added);
  }

  // ---- Comment (validated early, written after the workflow decided its type) ----------------------------

  private prepareComment(w: BugWork): { hasComment: boolean; workTime: number } {
    const { run } = w;
    const { comment, workTime } = run.request;
    if (comment?.isPrivate && !run.caller.isInsider) throw TrackerError.of(Errors.USER_NOT_INSIDER);
    const hours = workTime?.hours ?? 0;
    if (hours !== 0) w.allow('work_time', 0, workTime!.asSent);
    return { hasComment: (comment?.body ?? '') !== '' || hours !== 0, workTime: rounded(hours) };
  }

  private async writeComment(w: BugWork, workTime: number): Promise<void> {
    const { run } = w;
    const comment = run.request.comment;
    const text = comment?.body ?? '';
    const isPrivate = comment?.isPrivate ?? false;
    // Marking a duplicate turns this request's comment into the "duplicate of" comment, or adds an empty one.
    const isDupeComment = w.newDupeOf !== undefined;
    if (!isDupeComment && text === '' && workTime === 0) return;
    const id = await this.comments.add(run.tx, {
      bugId: w.id,
      userId: run.caller.id,
      text,
      isPrivate,
      at: run.at,
      workTime,
      ...(isDupeComment ? { type: CommentType.DUPE_OF, extraData: String(w.newDupeOf) } : {}),
    });
    if (workTime !== 0) w.quiet.push({ field: 'work_time', removed: '', added: formatWorkTime(workTime), commentId: id });
    // The mail shows the comment as Bugzilla renders it, with the duplicate notice after the text.
    const notice = isDupeComment ? `*** This bug has been marked as a duplicate of bug ${w.newDupeOf} ***` : '';
    w.comment = { text: [text, notice].filter((part) => part !== '').join('\n\n'), isPrivate };
    w.changed = true;
  }

  // ---- Assignee and QA contact ----------------------------------------------------------------------------

  private async applyPeople(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const r = run.request;
    const component = async () => w.component ?? (await this.products.componentsByIds([w.componentId], run.tx)).get(w.componentId)!;

    let assignee: { id: number; login: string } | undefined;
    if (r.resetAssignedTo) {
      const id = (await component()).defaultAssigneeId;
      assignee = { id, login: (await this.users.findById(id, run.tx))?.login ?? '' };
    } else if (r.assignedTo !== undefined) {
      if (r.assignedTo.trim() === '') throw TrackerError.of(Errors.REASSIGN_TO_EMPTY);
      assignee = this.userNamed(run, r.assignedTo);
    }
    if (assignee && assignee.id !== bug.row.assignedToId) {
      w.allow('assigned_to', bug.assignee.login, assignee.login);
      w.set('assigned_to_id', 'assigned_to', bug.assignee.login, assignee.login, assignee.id);
      w.formerIds.push(bug.row.assignedToId);
      w.assigneeId = assignee.id;
      // The assignee being replaced keeps the assignee's rights for the rest of this update (rule 6).
      w.fieldCaller.isAssignee ||= run.caller.id === assignee.id;
    }

    let qa: { id: number; login: string } | null | undefined;
    if (r.resetQaContact) {
      const id = (await component()).defaultQaContactId;
      qa = id === null ? null : { id, login: (await this.users.findById(id, run.tx))?.login ?? '' };
    } else if (r.qaContact !== undefined) {
      qa = r.qaContact.trim() === '' ? null : this.userNamed(run, r.qaContact);
    }
    if (qa !== undefined && (qa?.id ?? null) !== bug.row.qaContactId) {
      const oldLogin = bug.qaContact?.login ?? '';
      w.allow('qa_contact', oldLogin, qa?.login ?? '');
      w.set('qa_contact_id', 'qa_contact', oldLogin, qa?.login ?? '', qa?.id ?? null);
      if (bug.row.qaContactId !== null) w.formerIds.push(bug.row.qaContactId);
      w.qaContactId = qa?.id ?? null;
      w.fieldCaller.isQaContact ||= qa !== null && run.caller.id === qa.id;
    }
  }

  // ---- The plain fields -----------------------------------------------------------------------------------

  private async applyPlainFields(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const r = run.request;
    const row = bug.row;

    for (const f of SELECT_FIELDS) {
      const value = r[f.key];
      if (value === undefined) continue;
      const name = value.trim();
      if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: f.field });
      const current = row[f.key];
      if (name === current) continue;
      const legal = (await this.fields.legalValues(f.legal, run.tx)).find((v) => v.value.toLowerCase() === name.toLowerCase());
      if (!legal) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: f.field, name });
      if (legal.value === current) continue;
      if (!legal.isActive) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: f.field, value: legal.value });
      w.allow(f.field, current, legal.value);
      w.set(f.column, f.field, current, legal.value);
    }

    if (r.summary !== undefined) {
      const summary = r.summary.trim();
      if (summary === '') throw TrackerError.of(Errors.REQUIRE_SUMMARY);
      if ([...summary].length > MAX_SUMMARY) throw TrackerError.of(Errors.FREETEXT_TOO_LONG, { field: 'summary', length: [...summary].length, max: MAX_SUMMARY });
      if (summary !== row.summary) {
        w.allow('summary', row.summary, summary);
        w.set('summary', 'summary', row.summary, summary);
      }
    }
    for (const f of TEXT_FIELDS) {
      const value = r[f.key];
      if (value === undefined) continue;
      const text = value.trim();
      if (text === row[f.key]) continue;
      w.allow(f.key, row[f.key], text);
      w.set(f.column, f.key, row[f.key], text);
    }

    if (r.deadline !== undefined && (r.deadline ?? '') !== (row.deadline ?? '')) {
      w.allow('deadline', row.deadline ?? '', r.deadline ?? '');
      w.set('deadline', 'deadline', row.deadline ?? '', r.deadline ?? '', r.deadline);
    }
    if (r.estimatedTime !== undefined && rounded(r.estimatedTime.hours) !== row.estimatedTime) {
      w.allow('estimated_time', row.estimatedTime, r.estimatedTime.asSent);
      w.set('estimated_time', 'estimated_time', row.estimatedTime, r.estimatedTime.asSent, rounded(r.estimatedTime.hours));
    }
    if (r.isCcAccessible !== undefined && r.isCcAccessible !== row.isCcAccessible) {
      w.allow('is_cc_accessible', row.isCcAccessible, r.isCcAccessible);
      w.set('is_cc_accessible', 'is_cc_accessible', row.isCcAccessible, r.isCcAccessible, r.isCcAccessible ? 1 : 0);
    }
    if (r.isCreatorAccessible !== undefined && r.isCreatorAccessible !== row.isCreatorAccessible) {
      w.allow('is_creator_accessible', row.isCreatorAccessible, r.isCreatorAccessible);
      w.set('is_creator_accessible', 'is_creator_accessible', row.isCreatorAccessible, r.isCreatorAccessible, r.isCreatorAccessible ? 1 : 0);
    }
  }

  // ---- Status, resolution, dupe_of (rules 1–3), and the UNCONFIRMED of rule 5 -----------------------------

  private async applyStatus(w: BugWork, hasComment: boolean): Promise<void> {
    const { run, bug } = w;
    const request = run.request.statusChange;
    const row = bug.row;
    const sent = request.status !== undefined || request.resolution !== undefined || request.dupeOf !== undefined;
    if (!sent && !(w.productChanged && !w.product.hasUnconfirmed && row.status === UNCONFIRMED)) return;
    const workflow = await this.workflow(run);

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
    }
    if (resolution !== row.resolution) {
      w.allow('resolution', row.resolution, resolution);
      if (resolution === 'FIXED' && run.params.bool('noresolveonopenblockers')) await this.refuseOpenDependencies(w);
      w.set('resolution', 'resolution', row.resolution, resolution);
    }
    if (dupeOf !== bug.dupeOf) {
      w.allow('dupe_of', bug.dupeOf ?? '', dupeOf ?? '');
      await run.tx.run('DELETE FROM bug_duplicates WHERE dupe_id = ?', [w.id]);
      if (dupeOf !== null) await run.tx.insert('bug_duplicates', { dupe_id: w.id, dupe_of_id: dupeOf });
      w.changes.record('dupe_of', bug.dupeOf ?? '', dupeOf ?? '');
      if (dupeFromRequest && dupeOf !== null) w.newDupeOf = dupeOf;
    }
    if (isConfirmed !== undefined && isConfirmed !== row.isConfirmed) {
      w.allow('is_confirmed', row.isConfirmed, isConfirmed);
      w.set('is_confirmed', 'is_confirmed', row.isConfirmed, isConfirmed, isConfirmed ? 1 : 0);
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
    const seen = new Set<number>([target]);
    for (let next: number | undefined = target; next !== undefined; ) {
      const row: { dupe_of_id: number } | undefined = await run.tx.one('SELECT dupe_of_id FROM bug_duplicates WHERE dupe_id = ?', [next]);
      next = row ? Number(row.dupe_of_id) : undefined;
      if (next === w.id) throw TrackerError.of(Errors.DUPE_LOOP_DETECTED, { bug_id: w.id, dupe_of: target });
      if (next !== undefined && seen.has(next)) break;
      if (next !== undefined) seen.add(next);
    }
    return target;
  }

  /** noresolveonopenblockers: FIXED while a bug this one depends on is still open. */
  private async refuseOpenDependencies(w: BugWork): Promise<void> {
    const { run } = w;
    const ids = (await run.tx.all('SELECT depends_on_id FROM bug_dependencies WHERE blocked_id = ?', [w.id])).map((r) => Number(r.depends_on_id));
    if (!ids.length) return;
    const statuses = await run.tx.all<{ status: string }>(`SELECT status FROM bugs WHERE id IN ${run.tx.in(ids)}`, ids);
    const open = statuses.filter((s) => w.isOpen(s.status)).length;
    if (open) throw TrackerError.of(Errors.STILL_UNRESOLVED_BUGS, { bug_id: w.id, count: open });
  }

  /** musthavemilestoneonaccept: IN_PROGRESS needs a milestone other than the default where there is a choice. */
  private async requireMilestoneOnAccept(w: BugWork): Promise<void> {
    const { run } = w;
    if (!run.params.bool('musthavemilestoneonaccept') || !run.params.bool('usetargetmilestone')) return;
    if (w.targetMilestone !== w.product.defaultMilestone) return;
    // Read here rather than through ProductService, which has no count of milestones (the product module's owner is
    // active; see the report).
    const row = await run.tx.one<{ n: number }>('SELECT COUNT(*) AS n FROM milestones WHERE product_id = ?', [w.product.id]);
    if (Number(row?.n ?? 0) >= 2) throw TrackerError.of(Errors.MILESTONE_REQUIRED);
  }

  // ---- Time tracking --------------------------------------------------------------------------------------

  /**
   * remaining_time: reduced by work_time (not below 0), then zeroed by closing, then replaced by an explicit value —
   * the order in which Bugzilla applies the three.
   */
  private applyRemainingTime(w: BugWork, workTime: number): void {
    const { run, bug } = w;
    const explicit = run.request.remainingTime;
    if (explicit !== undefined) {
      if (rounded(explicit.hours) === bug.row.remainingTime) return;
      w.allow('remaining_time', bug.row.remainingTime, explicit.asSent);
      w.set('remaining_time', 'remaining_time', bug.row.remainingTime, explicit.asSent, rounded(explicit.hours));
      return;
    }
    // Implicit changes need no right of their own: work_time was checked, and closing zeroes it for anyone.
    let remaining = bug.row.remainingTime;
    if (workTime !== 0) remaining = Math.max(rounded(remaining - workTime), 0);
    if (w.zeroRemainingTime) remaining = 0;
    if (remaining !== bug.row.remainingTime) w.set('remaining_time', 'remaining_time', bug.row.remainingTime, remaining, remaining);
  }

  // ---- See Also -------------------------------------------------------------------------------------------

  private async applySeeAlso(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const op = run.request.seeAlso;
    if (!op) return;
    const urlBase = run.params.get('urlbase');
    const links = new Map<string, number>();
    const validated = mapAddRemoveSet(op, (value, action): string | null => {
      if (action === 'remove') return value === null || value === undefined ? null : String(value).trim();
      const link = validateSeeAlso(value, { urlBase });
      if (!link) return null;
      if (link.localBugId === w.id) throw TrackerError.of(Errors.BUG_URL_INVALID, { url: link.url, reason: 'a bug cannot link to itself' });
      if (link.localBugId !== undefined) links.set(link.url, link.localBugId);
      return link.url;
    });
    const cleaned = { steps: validated.steps.map((s) => ({ action: s.action, values: s.values.filter((v): v is string => !!v) })) };
    const { result, added, removed } = applyAddRemoveSet(bug.seeAlso, cleaned, sameSeeAlso);
    if (!added.length && !removed.length) return;
    w.allow('see_also', bug.seeAlso, result);
    // Links to bugs of this installation: the other bug must be visible, and gets the reverse link.
    const localAdded = added.filter((url) => links.has(url)).map((url) => links.get(url)!);
    if (localAdded.length) await this.visibility.resolveVisible(run.caller, localAdded.map(String), run.tx);

    const { tx } = run;
    for (const url of removed) await tx.run('DELETE FROM bug_see_also WHERE bug_id = ? AND url = ?', [w.id, url]);
    await tx.insertMany('bug_see_also', added.map((url) => ({ bug_id: w.id, url })));
    w.changes.record('see_also', removed, added);

    const selfUrl = `${urlBase.replace(/\/?$/, '/')}show_bug.cgi?id=${w.id}`;
    for (const other of localAdded) {
      const exists = await tx.one('SELECT id FROM bug_see_also WHERE bug_id = ? AND url = ?', [other, selfUrl]);
      if (exists) continue;
      await tx.insert('bug_see_also', { bug_id: other, url: selfUrl });
      w.other(other, 'see_also', '', selfUrl);
    }
    for (const url of removed) {
      let local: number | undefined;
      try {
        local = validateSeeAlso(url, { urlBase })?.localBugId;
      } catch {
        local = undefined;
      }
      if (local === undefined || local === w.id) continue;
      const gone = await tx.run('DELETE FROM bug_see_also WHERE bug_id = ? AND url = ?', [local, selfUrl]);
      if (gone.affected) w.other(local, 'see_also', selfUrl, '');
    }
  }

  // ---- Custom fields --------------------------------------------------------------------------------------

  private async applyCustomFields(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const custom = run.request.custom;
    if (!custom.size) return;
    run.customFields ??= await this.fields.customFields(run.tx);
    for (const [name, raw] of custom) {
      // An unknown cf_ key is ignored, like any key that is not a field (clients.md).
      const field = run.customFields.find((f) => f.name === name);
      if (!field) continue;
      const isSelect = field.type === FieldType.SINGLE_SELECT || field.type === FieldType.MULTI_SELECT;
      const legal = isSelect ? await this.fields.legalValues(name, run.tx) : undefined;
      const current = bug.custom.get(field.id) ?? [];
      let values = normaliseCustomValue({ field, legal, current }, raw);
      if (field.type === FieldType.BUG_ID && values.length) {
        values = (await this.visibility.resolveVisible(run.caller, values, run.tx)).map(String);
      }
      const same = values.length === current.length && values.every((v) => current.includes(v));
      if (same) continue;
      const shown = (list: string[]) => (field.type === FieldType.SINGLE_SELECT ? list[0] ?? NO_SELECTION : formatList(list));
      w.allow(name, field.type === FieldType.MULTI_SELECT ? current : shown(current), field.type === FieldType.MULTI_SELECT ? values : shown(values));
      await run.tx.run('DELETE FROM bug_custom_values WHERE bug_id = ? AND field_id = ?', [w.id, field.id]);
      await run.tx.insertMany('bug_custom_values', values.map((value) => ({ bug_id: w.id, field_id: field.id, value })));
      w.changes.record(name, shown(current), shown(values));
    }
  }

  // ---- CC -------------------------------------------------------------------------------------------------

  private async applyCc(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const op = run.request.cc;
    if (!op) return;
    const users = mapAddRemoveSet(op, (login) => this.userNamed(run, String(login)));
    const current = bug.cc.map((u) => ({ id: u.id, login: u.login }));
    const { added, removed } = applyAddRemoveSet<{ id: number; login: string }>(current, users, (a, b) => a.id === b.id);
    // Bugzilla's remove_cc: only those who may edit every field (editbugs, assignee, QA contact) remove others.
    const canEditAll = w.fieldCaller.inEditbugs || w.fieldCaller.isAssignee || (run.params.bool('useqacontact') && w.fieldCaller.isQaContact);
    const other = removed.find((u) => u.id !== run.caller.id);
    if (other && !canEditAll) throw TrackerError.of(Errors.CC_REMOVE_DENIED, { login: other.login, bug_id: w.id });
    await this.changeCc(w, added, removed);
  }

  private async changeCc(w: BugWork, added: Array<{ id: number; login: string }>, removed: Array<{ id: number; login: string }>): Promise<void> {
    const { tx } = w.run;
    if (removed.length) await tx.run(`DELETE FROM bug_cc WHERE bug_id = ? AND user_id IN ${tx.in(removed)}`, [w.id, ...removed.map((u) => u.id)]);
    await tx.insertMany('bug_cc', added.map((u) => ({ bug_id: w.id, user_id: u.id })));
    w.ccIds = [...w.ccIds.filter((id) => !removed.some((u) => u.id === id)), ...added.map((u) => u.id)];
    w.ccAdded.push(...added.map((u) => u.login));
    w.ccRemoved.push(...removed.map((u) => u.login));
    w.formerIds.push(...removed.map((u) => u.id));
  }

  // ---- Aliases --------------------------------------------------------------------------------------------

  private async applyAliases(w: BugWork): Promise<void> {
    const { run, bug } = w;
    const op = run.request.alias;
    if (!op) return;
    const validated = mapAddRemoveSet(op, (value, action) => (action === 'remove' ? (value === null || value === undefined ? null : String(value).trim()) : validateAlias(value)));
    const cleaned = { steps: validated.steps.map((s) => ({ action: s.action, values: s.values.filter((v): v is string => !!v) })) };
    const { result, added, removed } = applyAddRemoveSet(bug.aliases, cleaned, sameIgnoringCase as (a: string, b: string) => boolean);
    if (!added.length && !removed.length) return;
    const taken = await this.visibility.idsOfAliases(added, run.tx);
    for (const alias of added) {
      const owner = taken.get(alias.toLowerCase());
      if (owner !== undefined && owner !== w.id) throw TrackerError.of(Errors.ALIAS_IN_USE, { alias, bug_id: owner });
    }
    w.allow('alias', bug.aliases, result);
    for (const alias of removed) await run.tx.run('DELETE FROM bug_aliases WHERE bug_id = ? AND alias = ?', [w.id, alias]);
    await run.tx.insertMany('bug_aliases', added.map((alias) => ({ alias, bug_id: w.id })));
    w.changes.record('alias', removed, added);
    w.aliases = result;
  }

  // ---- Flags ----------------------------------------------------------------------------------------------

  private async applyFlags(w: BugWork): Promise<void> {
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
      const requestee = action.requestee ? this.userNamed(run, action.requestee) : null;
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
    if (newCc.length) await this.changeCc(w, newCc.map((u) => ({ id: u.id, login: u.login })), []);
  }

  /** A requestee must be able to see the bug, and to grant the flag when its type has a grant group. */
  private async checkRequestee(w: BugWork, requestee: UserRecord, type: ApplicableFlagType): Promise<void> {
    const asCaller = await this.callerFor(w.run, requestee);
    const visible = await this.visibility.visibleIds(asCaller, [w.id], w.run.tx);
    if (!visible.has(w.id)) throw TrackerError.of(Errors.FLAG_REQUESTEE_UNAUTHORIZED, { requestee: requestee.login, flag: type.name, bug_id: w.id });
    if (type.grantGroupId !== null && !asCaller.inGroupId(type.grantGroupId)) {
      throw TrackerError.of(Errors.FLAG_REQUESTEE_NEEDS_PRIVS, { requestee: requestee.login, flag: type.name });
    }
  }

  // ---- Comment privacy ------------------------------------------------------------------------------------

  private async applyCommentPrivacy(w: BugWork): Promise<void> {
    const { run } = w;
    const wanted = run.request.commentIsPrivate;
    if (!wanted?.length) return;
    const ids = wanted.map((c) => (/^\d+$/.test(c.id.trim()) ? Number(c.id) : NaN));
    const numeric = ids.filter((id) => !Number.isNaN(id));
    // The comments table belongs to the comment module; its service has no privacy setter yet (see the report).
    const rows = numeric.length
      ? await run.tx.all(`SELECT id, is_private FROM comments WHERE bug_id = ? AND id IN ${run.tx.in(numeric)}`, [w.id, ...numeric])
      : [];
    const current = new Map(rows.map((r) => [Number(r.id), Number(r.is_private) === 1]));
    wanted.forEach((c, i) => {
      if (!current.has(ids[i])) throw TrackerError.of(Errors.COMMENT_INVALID_ISPRIVATE, { id: c.id });
    });
    for (const [i, c] of wanted.entries()) {
      const id = ids[i];
      if (current.get(id) === c.isPrivate) continue;
      if (!run.caller.isInsider) throw TrackerError.of(Errors.USER_NOT_INSIDER);
      await run.tx.run('UPDATE comments SET is_private = ? WHERE id = ?', [c.isPrivate ? 1 : 0, id]);
      w.quiet.push({ field: 'longdescs.isprivate', removed: current.get(id) ? '1' : '0', added: c.isPrivate ? '1' : '0', commentId: id });
      current.set(id, c.isPrivate);
      w.changed = true;
    }
  }

  // ---- Duplicates: the target's side ----------------------------------------------------------------------

  /**
   * The other half of marking a duplicate (workflow.md "Duplicates"): a "has duplicate" comment on the target,
   * and the duplicate's reporter on the target's cc when they can see it and are not its reporter.
   */
  private async markDuplicateTarget(w: BugWork, targetId: number): Promise<void> {
    const { run, bug } = w;
    await this.comments.add(run.tx, {
      bugId: targetId, userId: run.caller.id, text: '', isPrivate: false, at: run.at,
      type: CommentType.HAS_DUPE, extraData: String(w.id),
    });
    run.bumped.add(targetId);
    run.otherComments.set(targetId, { text: `*** Bug ${w.id} has been marked as a duplicate of this bug. ***`, isPrivate: false });
    const [target] = [...(await this.loader.details([targetId], { sql: run.tx })).values()];
    const reporterId = bug.row.reporterId;
    if (!target || target.row.reporterId === reporterId) return;
    const onCc = await run.tx.one('SELECT 1 AS x FROM bug_cc WHERE bug_id = ? AND user_id = ?', [targetId, reporterId]);
    if (onCc) return;
    const reporter = await this.users.findById(reporterId, run.tx);
    if (!reporter) return;
    const sees = await this.visibility.visibleIds(await this.callerFor(run, reporter), [targetId], run.tx);
    if (!sees.has(targetId)) return;
    await run.tx.insert('bug_cc', { bug_id: targetId, user_id: reporterId });
    w.other(targetId, 'cc', '', reporter.login);
  }

  // ---- Bugs changed as a side effect ----------------------------------------------------------------------

  /** History, last_change_time and mail of the bugs changed through others (dependencies, See Also, duplicates). */
  private async finishOthers(run: UpdateRun): Promise<void> {
    const ids = [...run.bumped];
    if (!ids.length) return;
    const { tx } = run;
    await tx.run(`UPDATE bugs SET last_change_time = ? WHERE id IN ${tx.in(ids)}`, [run.at, ...ids]);
    const entries = [...run.others].flatMap(([bugId, list]) =>
      list.map((e) => ({ bugId, userId: run.caller.id, at: run.at, field: e.field, removed: e.removed, added: e.added })));
    await this.recorder.record(tx, entries);
    const details = await this.loader.details(ids, { sql: tx });
    const { byBug } = await this.loader.relations(ids, new Set(['cc']), { sql: tx });
    for (const id of ids) {
      const bug = details.get(id);
      if (!bug) continue;
      await this.mailer.notify(tx, {
        bugId: id,
        summary: bug.row.summary,
        product: bug.product,
        component: bug.component,
        changerId: run.caller.id,
        isNew: false,
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
      });
    }
  }
}
