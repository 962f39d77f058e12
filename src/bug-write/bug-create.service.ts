import { Inject, Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import type { Caller } from '../common/caller.js';
import { commitConditionsOf, type RequestContext } from '../common/http/request-context.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { checkTextLimit, freeText } from '../common/text-limits.js';
import { parseDeadline, toDbDateTime } from '../common/time/datetime.js';
import { FieldType } from '../field/field-type.js';
import { ProductService, type ComponentRecord, type GroupControlDetail, type ProductRecord } from '../product/product.service.js';
import { FieldService, type CustomFieldRecord, type FieldValueRecord } from '../field/field.service.js';
import { SELECT_TYPES } from '../field/custom-field-input.js';
import { FlagTypeService } from '../flag/flag-type.service.js';
import { UserService } from '../user/user.service.js';
import { BUG_COMMENTS, normaliseCommentText, type BugComments } from '../bug/bug-comments.js';
import { bugMailState, type IdToAsk } from '../bug/bug-events.js';
import { BugEventsService } from '../bug/bug-events.service.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { ChangeRecorderService } from '../bug/change-recorder.service.js';
import { BugStoreService, bugIdToAsk, bugNumber, type NewBugId } from '../bug/store/bug-store.service.js';
import { BugEditsService } from '../bug/store/bug-edits.service.js';
import { isCustomFieldName } from '../bug/bug.fields.js';
import { validateAliases } from '../bug-rules/alias.js';
import { productRights } from '../bug-rules/field-permissions.js';
import { chooseInitialStatus, initialStatusCandidates, DUPLICATE } from '../bug-rules/workflow.js';
import { resolveFlagChanges, type FlagChangeInput } from '../bug-rules/flags.js';
import { BugFlagsService, initialFlagsChange, type PlannedFlag } from '../bug-rules/bug-flags.service.js';
import { initialGroups } from '../bug-rules/group-controls.js';
import { validateSeeAlso } from '../bug-rules/see-also.js';
import { checkStoredDependencyLoops } from '../bug-rules/dependency-loops.js';
import { filedVia, newBugType } from './bmo-fields.js';
import { DEPENDENCIES, REGRESSIONS, type BugGraph } from '../bug/bug.types.js';
import { mirroredDependencyChanges } from '../bug/changes.js';
import { parseTimeValue } from './update/update-request.js';
import { customFieldValues } from './custom-values.js';
import { BMO_CREATE_KEYS, CREATE_KEYS, type BugCreateInput, type CreateFields } from './dto/bug-create.dto.js';

/** Longest summary (defaults.md). */
const MAX_FREETEXT = 255;

/** The fields whose value is one text. */
type TextField = { [K in keyof CreateFields]-?: CreateFields[K] extends string | undefined ? K : never }[keyof CreateFields];

/** The select fields a new bug always has, with the parameter giving the default and the internal field name. */
const DEFAULTED_SELECTS = [
  { key: 'op_sys', field: 'op_sys', parameter: 'defaultopsys' },
  { key: 'platform', field: 'rep_platform', parameter: 'defaultplatform' },
  { key: 'priority', field: 'priority', parameter: 'defaultpriority' },
  { key: 'severity', field: 'bug_severity', parameter: 'defaultseverity' },
] as const;

/** Who asks, and the request's one timestamp; the bug commits under what the request's caller commits under. */
export type CreateContext = Pick<RequestContext, 'caller' | 'now' | 'presumed'>;

/** Everything validated, ready to write. */
interface NewBug {
  product: ProductRecord;
  component: ComponentRecord;
  summary: string;
  version: string;
  description: string;
  descriptionIsPrivate: boolean;
  selects: { op_sys: string; platform: string; priority: string; severity: string };
  status: string;
  resolution: string;
  isConfirmed: boolean;
  targetMilestone: string;
  assigneeId: number;
  qaContactId: number | null;
  ccIds: number[];
  aliases: string[];
  groupIds: number[];
  keywords: Array<{ id: number; name: string }>;
  seeAlso: string[];
  blocks: number[];
  dependsOn: number[];
  /** BMO's fields, with the bmo_bug_fields parameter on. */
  bmo?: { type: string; filedVia: string; regressedBy: number[]; regressions: number[] };
  flags: PlannedFlag[];
  custom: Array<{ fieldId: number; values: string[] }>;
  url: string;
  whiteboard: string;
  deadline: string | null;
  estimatedTime: number;
  remainingTime: number;
  isCcAccessible: boolean;
  isCreatorAccessible: boolean;
}

const isGiven = (value: unknown) => value !== undefined && value !== null;

/** A unique-index violation, as MySQL/MariaDB (ER_DUP_ENTRY) and SQLite (SQLITE_CONSTRAINT_UNIQUE) report it. */
function isUniqueViolation(err: unknown): boolean {
  const driver = (err as { driverError?: { code?: string } })?.driverError ?? (err as { code?: string });
  return driver?.code === 'ER_DUP_ENTRY' || driver?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Aliases of a new bug that another request took between the check before the transaction and their insert. */
class AliasTakenMeanwhile extends Error {
  constructor(readonly aliases: readonly string[]) {
    super('an alias was taken meanwhile');
  }
}

/** Runs of Create Bug whose alias was taken and freed again before the refusal could name its bug. */
const MAX_ALIAS_RACES = 3;

/**
 * Like Promise.all, but when several fail the error of the first in the list wins, whatever finished first: the
 * client sees the same error for the same request every time.
 */
async function allInOrder<T extends readonly unknown[]>(work: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const settled = await Promise.allSettled(work as ReadonlyArray<Promise<unknown>>);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** Create Bug (`POST /rest/bug`): validates every field as Bugzilla 5.0 does, then writes the bug in one transaction. */
@Injectable()
export class BugCreateService {
  constructor(
    private readonly db: Db,
    private readonly products: ProductService,
    private readonly fields: FieldService,
    private readonly flagTypes: FlagTypeService,
    private readonly users: UserService,
    @Inject(BUG_COMMENTS) private readonly comments: BugComments,
    private readonly visibility: BugVisibilityService,
    private readonly recorder: ChangeRecorderService,
    private readonly bugs: BugStoreService,
    private readonly edits: BugEditsService,
    private readonly bugFlags: BugFlagsService,
    private readonly bugEvents: BugEventsService,
  ) {}

  /**
   * `input` is the typed body; `data` is the request's data as sent, for what a class cannot declare: which keys were
   * sent, in which order (a key that is not a bug field is 53; of two spellings of one field the first wins), and
   * the custom fields (`cf_*`, named by the administrator).
   */
  async create(ctx: CreateContext, input: BugCreateInput, data: Readonly<Record<string, unknown>>): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.createOnce(ctx, input, data);
      } catch (error) {
        if (!(error instanceof AliasTakenMeanwhile)) throw error;
        // The bug that took it committed before the insert failed: read on the primary (a transaction of its own).
        const taken = await this.db.transaction((tx) => this.visibility.idsOfAliases(error.aliases, tx));
        const alias = error.aliases.find((a) => taken.has(a.toLowerCase()));
        if (alias !== undefined) throw TrackerError.of(Errors.ALIAS_IN_USE, { alias, bug_id: taken.get(alias.toLowerCase()) });
        // Taken and given up again meanwhile: the request runs again, as a lock conflict would.
        if (attempt >= MAX_ALIAS_RACES) throw TrackerError.of(Errors.DATABASE_UNAVAILABLE);
      }
    }
  }

  private async createOnce(ctx: CreateContext, input: BugCreateInput, data: Readonly<Record<string, unknown>>): Promise<number> {
    const customFields = await this.fields.catalogueAt(ctx.caller.settingsMark).customFields();
    const { fields, custom } = this.fold(input, data, customFields, ctx.caller.parameters.bool('bmo_bug_fields'));
    const bug = await this.validate(ctx.caller, fields, custom, customFields);
    const at = toDbDateTime(ctx.now);
    const id = await this.db.transaction(async (tx) => {
      const { id, commentId } = await this.insert(tx, ctx.caller, bug, at);
      // The outbox rows need no answer: they go with the mail's reads and the COMMIT.
      await this.edits.recordChange(tx, () => this.notify(tx, ctx.caller, { id, commentId }, bug, at));
      return id;
    }, commitConditionsOf(ctx));
    // Answered with the COMMIT, when nothing in the transaction needed the number first.
    return bugNumber(id);
  }

  /**
   * The typed fields under their API names, and the custom fields' raw values. Every key sent is checked: unknown
   * keys are 53 unless they are fields the caller cannot set (ignored).
   */
  private fold(input: BugCreateInput, data: Readonly<Record<string, unknown>>, customFields: readonly CustomFieldRecord[], bmoFields: boolean) {
    const fields: Partial<Record<keyof CreateFields, unknown>> = {};
    const custom = new Map<string, unknown>();
    const customNames = new Set(customFields.map((f) => f.name));
    for (const [key, value] of Object.entries(data)) {
      if (value === undefined) continue;
      if (isCustomFieldName(key) && customNames.has(key)) {
        custom.set(key, value);
        continue;
      }
      const name = CREATE_KEYS[key] ?? (bmoFields ? BMO_CREATE_KEYS[key] : undefined);
      if (name === undefined) throw TrackerError.of(Errors.PARAM_INVALID, { param: key, function: 'Bug.create' });
      if (name !== '' && !(name in fields)) fields[name] = input[key as keyof BugCreateInput];
    }
    return { fields: fields as CreateFields, custom };
  }

  private async validate(caller: Caller, input: CreateFields, customInput: ReadonlyMap<string, unknown>, customFields: readonly CustomFieldRecord[]): Promise<NewBug> {
    const text = (key: TextField) => (input[key] ?? '').trim();
    const parameters = caller.parameters;
    // Settings reads are kept under the caller's settings mark: filing bugs does not move it (KeptReads).
    const [products, fields] = [this.products.catalogueAt(caller.settingsMark), this.fields.catalogueAt(caller.settingsMark)];
    const { product, controls } = await this.enterableProduct(caller, text('product'));
    const { inEditbugs: editbugs, inCanconfirm: canConfirm } = productRights(caller, controls);
    const component = await this.activeComponent(caller, product, text('component'));
    const summary = text('summary');
    if (summary === '') throw TrackerError.of(Errors.REQUIRE_SUMMARY);
    checkTextLimit(summary, freeText(MAX_FREETEXT), 'summary');
    const version = await this.activeNamedValue('version', text('version'), product, (v) => products.versionByName(product.id, v));
    const milestoneName = text('target_milestone') || product.defaultMilestone;
    const targetMilestone = await this.activeNamedValue('milestone', milestoneName, product, (v) => products.milestoneByName(product.id, v));
    const description = normaliseCommentText(input.description ?? '');

    const [legal, transitions] = await Promise.all([
      fields.legalValuesOfFields(['bug_status', 'resolution', ...DEFAULTED_SELECTS.map((s) => s.field)]),
      fields.transitions(),
    ]);
    const statuses = legal.get('bug_status')!.map((v) => ({ name: v.value, isOpen: v.isOpen !== false, isActive: v.isActive, sortKey: v.sortKey }));
    const resolutions = legal.get('resolution')!;
    const selectValues = DEFAULTED_SELECTS.map((s) => legal.get(s.field)!);
    const selects = {} as NewBug['selects'];
    DEFAULTED_SELECTS.forEach((s, i) => {
      // priority is forced to its default for everybody while letsubmitterchoosepriority is off (_check_priority).
      const forced = s.key === 'priority' && !parameters.bool('letsubmitterchoosepriority');
      const value = (forced ? '' : text(s.key)) || parameters.get(s.parameter).trim();
      selects[s.key] = this.legalValue(s.key, value, selectValues[i]);
    });

    const { status, isConfirmed } = chooseInitialStatus({
      requested: text('status'),
      canConfirm,
      candidates: initialStatusCandidates(statuses, transitions, product.hasUnconfirmed),
      allStatuses: statuses,
    });
    const resolution = this.initialResolution(text('resolution'), status, statuses.find((s) => s.name === status)?.isOpen !== false, resolutions);

    const timeTracker = caller.isTimeTracker;
    const estimatedTime = timeTracker && input.estimated_time !== undefined ? parseTimeValue('estimated_time', input.estimated_time).hours : 0;
    const remainingTime = timeTracker && input.remaining_time !== undefined ? parseTimeValue('remaining_time', input.remaining_time).hours : estimatedTime;
    const deadline = timeTracker && input.deadline !== undefined ? parseDeadline(input.deadline) : null;

    const [people, aliases, groupIds, keywords, dependencies, flags, custom, bmo] = await allInOrder([
      this.people(caller, editbugs, input, component),
      this.freeAliases(input.alias),
      (async () => initialGroups({ product: product.name, controls, names: input.groups, isMember: (id) => caller.inGroupId(id) }).map((g) => g.id))(),
      this.keywords(caller, input.keywords ?? []),
      this.dependencies(caller, input.blocks ?? [], input.depends_on ?? []),
      this.flags(caller, product, component, input.flags),
      this.customValues(caller, customInput, customFields),
      this.bmoFields(caller, input, component),
    ]);

    return {
      product, component, summary, version, description,
      descriptionIsPrivate: caller.isInsider && input.comment_is_private === true,
      selects, status, resolution, isConfirmed, targetMilestone,
      ...people,
      aliases, groupIds, keywords, ...dependencies, flags, custom, ...(bmo ? { bmo } : {}),
      seeAlso: this.seeAlso(caller, input.see_also ?? []),
      url: text('url'),
      whiteboard: text('whiteboard'),
      deadline, estimatedTime, remainingTime,
      // Sent as null: false, as Bugzilla reads it; not sent: true.
      isCcAccessible: input.is_cc_accessible !== undefined ? input.is_cc_accessible === true : true,
      isCreatorAccessible: input.is_creator_accessible !== undefined ? input.is_creator_accessible === true : true,
    };
  }

  /**
   * The product must exist, be open to the caller for new bugs (its `entry` groups) and be active: 106 otherwise;
   * and have an active component (missing_component, 32000).
   */
  private async enterableProduct(caller: Caller, name: string): Promise<{ product: Readonly<ProductRecord>; controls: readonly GroupControlDetail[] }> {
    const products = this.products.catalogueAt(caller.settingsMark);
    if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind: 'product' });
    const product = await products.findByName(name);
    if (!product) throw TrackerError.of(Errors.ENTRY_ACCESS_DENIED, { product: name });
    const controls = await products.groupControls([product.id]);
    if (!controls.every((c) => !c.entry || caller.inGroupId(c.groupId))) throw TrackerError.of(Errors.ENTRY_ACCESS_DENIED, { product: name });
    if (!product.isActive) throw TrackerError.of(Errors.PRODUCT_DISABLED, { product: product.name });
    // Before any component is named (Bugzilla 5.0's order): a product without an active component takes no bugs.
    if (!(await products.componentsOfProducts([product.id])).some((component) => component.isActive)) {
      throw TrackerError.of(Errors.MISSING_COMPONENT, { product: product.name });
    }
    return { product, controls };
  }

  private async activeComponent(caller: Caller, product: Readonly<ProductRecord>, name: string): Promise<Readonly<ComponentRecord>> {
    if (name === '') throw TrackerError.of(Errors.REQUIRE_COMPONENT);
    const component = await this.products.catalogueAt(caller.settingsMark).componentByName(product.id, name);
    if (!component) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'component', name, product: product.name });
    if (!component.isActive) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'component', value: component.name });
    return component;
  }

  /** A version or milestone of the product: empty 50, unknown 51, inactive value_inactive. */
  private async activeNamedValue(
    kind: 'version' | 'milestone',
    name: string,
    product: ProductRecord,
    find: (value: string) => Promise<{ value: string; isActive: boolean } | undefined>,
  ): Promise<string> {
    if (name === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind });
    const found = await find(name);
    if (!found) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind, name, product: product.name });
    if (!found.isActive) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: kind, value: found.value });
    return found.value;
  }

  /** A select-field value: empty 50, unknown 51, inactive value_inactive. Returns the stored spelling. */
  private legalValue(kind: string, value: string, legal: readonly FieldValueRecord[]): string {
    if (value === '') throw TrackerError.of(Errors.OBJECT_NOT_SPECIFIED, { kind });
    const found = legal.find((v) => v.value === value) ?? legal.find((v) => v.value.toLowerCase() === value.toLowerCase());
    if (!found) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind, name: value });
    if (!found.isActive) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: kind, value: found.value });
    return found.value;
  }

  /** Rule 4: a closed initial status needs a legal resolution (never DUPLICATE); an open one takes none. */
  private initialResolution(resolution: string, status: string, statusIsOpen: boolean, legal: readonly FieldValueRecord[]): string {
    if (statusIsOpen) {
      if (resolution !== '') throw TrackerError.of(Errors.RESOLUTION_NOT_ALLOWED);
      return '';
    }
    if (resolution === '') throw TrackerError.of(Errors.MISSING_RESOLUTION, { status });
    const value = this.legalValue('resolution', resolution, legal);
    if (value === DUPLICATE) throw TrackerError.of(Errors.DUPE_ID_REQUIRED);
    return value;
  }

  /**
   * Assignee, QA contact and cc (workflow.md "Create Bug"): `assigned_to`/`qa_contact` count only for editbugs
   * members, else the component's defaults; the QA contact only while `useqacontact` is on. Unknown assignee or QA
   * contact is 51; an unknown cc login is 504. The component's default cc join the list.
   */
  private async people(caller: Caller, editbugs: boolean, input: CreateFields, component: ComponentRecord) {
    const assigneeLogin = editbugs ? (input.assigned_to ?? '').trim() : '';
    const useQa = caller.parameters.bool('useqacontact');
    const qaGiven = useQa && editbugs && input.qa_contact !== undefined;
    const qaLogin = qaGiven ? (input.qa_contact ?? '').trim() : '';
    const ccLogins = input.cc ?? [];
    const found = await this.users.findByLoginsAt(caller.settingsMark, [...ccLogins, ...(assigneeLogin ? [assigneeLogin] : []), ...(qaLogin ? [qaLogin] : [])]);
    const user = (login: string) => found.get(login.toLowerCase());
    const known = (login: string) => {
      const u = user(login);
      if (!u) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'user', name: login });
      return u.id;
    };
    const assigneeId = assigneeLogin ? known(assigneeLogin) : component.defaultAssigneeId;
    const qaContactId = !useQa ? null : qaGiven ? (qaLogin ? known(qaLogin) : null) : component.defaultQaContactId;
    const ccIds = ccLogins.map((login) => {
      const u = user(login);
      if (!u) throw TrackerError.of(Errors.INVALID_USERNAME, { name: login });
      return u.id;
    });
    return { assigneeId, qaContactId, ccIds: [...new Set([...ccIds, ...component.defaultCcIds])] };
  }

  /** Aliases: the syntax of alias.ts (103), and not taken by another bug (103 alias_in_use). */
  private async freeAliases(value: unknown): Promise<string[]> {
    const aliases = validateAliases(Array.isArray(value) ? value : isGiven(value) ? [value] : []);
    const taken = await this.visibility.idsOfAliases(aliases);
    for (const alias of aliases) {
      const owner = taken.get(alias.toLowerCase());
      if (owner !== undefined) throw TrackerError.of(Errors.ALIAS_IN_USE, { alias, bug_id: owner });
    }
    return aliases;
  }

  /** The keywords named, once each, as the catalogue spells them. */
  private async keywords(caller: Caller, names: string[]): Promise<Array<{ id: number; name: string }>> {
    const found = await this.fields.catalogueAt(caller.settingsMark).keywordsByNames(names);
    const byId = new Map<number, { id: number; name: string }>();
    for (const name of names) {
      const keyword = found.get(name.toLowerCase());
      if (!keyword) throw TrackerError.of(Errors.OBJECT_DOES_NOT_EXIST, { kind: 'keyword', name });
      if (!keyword.isActive) throw TrackerError.of(Errors.VALUE_INACTIVE, { class: 'keyword', value: keyword.name });
      byId.set(keyword.id, { id: keyword.id, name: keyword.name });
    }
    return [...byId.values()];
  }

  /**
   * BMO's fields, with the bmo_bug_fields parameter on: the type (newBugType), how the bug was filed (BMO's
   * _check_filed_via: one of its methods, `api` when not said, else `unknown`), regressed_by / regressions as
   * dependencies.
   */
  private async bmoFields(caller: Caller, input: CreateFields, component: ComponentRecord): Promise<NewBug['bmo']> {
    if (!caller.parameters.bool('bmo_bug_fields')) return undefined;
    const type = newBugType(input.type, component.defaultBugType, caller.parameters.get('default_bug_type'));
    const { blocks: regressions, dependsOn: regressedBy } = await this.dependencies(caller, input.regressions ?? [], input.regressed_by ?? []);
    return { type, filedVia: filedVia(input.filed_via), regressedBy, regressions };
  }

  /** blocks / depends_on: visible bugs (100/101/102); loops (116) are refused when the edges are written. */
  private async dependencies(caller: Caller, blocksRefs: string[], dependsOnRefs: string[]): Promise<{ blocks: number[]; dependsOn: number[] }> {
    const [blocks, dependsOn] = await allInOrder([
      blocksRefs.length ? this.visibility.resolveVisible(caller, blocksRefs) : Promise.resolve([]),
      dependsOnRefs.length ? this.visibility.resolveVisible(caller, dependsOnRefs) : Promise.resolve([]),
    ]);
    return { blocks, dependsOn };
  }

  /** See Also URLs (112), ignored while `use_see_also` is off. */
  private seeAlso(caller: Caller, values: readonly string[]): string[] {
    if (!caller.parameters.bool('use_see_also')) return [];
    const urlBase = caller.parameters.get('urlbase');
    const urls: string[] = [];
    for (const raw of values) {
      const link = validateSeeAlso(raw, { urlBase });
      if (link && !urls.some((u) => u.toLowerCase() === link.url.toLowerCase())) urls.push(link.url);
    }
    return urls;
  }

  /**
   * Flags on create: name or type_id, status, requestee (updates.md); the flag rules decide, permissions 130, an
   * unknown requestee 51. The requestee's own checks need the stored bug: they run when the flags are written.
   */
  private async flags(caller: Caller, product: ProductRecord, component: ComponentRecord, value: unknown[] | undefined): Promise<NewBug['flags']> {
    if (!value) return [];
    // The DTO checked that it is a list; each element must be an object.
    if (value.some((f) => f === null || typeof f !== 'object')) {
      throw TrackerError.of(Errors.PARAM_INVALID, { param: 'flags', function: 'Bug.create' });
    }
    if (!value.length) return [];
    const types = await this.flagTypes.applicableTypes(product.id, component.id, 'bug');
    const changes = (value as FlagChangeInput[]).map((f) => ({ name: f.name, type_id: f.type_id, status: f.status, requestee: f.requestee, new: true }));
    for (const change of changes) {
      if (!isGiven(change.status) || String(change.status).trim() === '') throw TrackerError.of(Errors.PARAM_REQUIRED, { function: 'Bug.create', param: 'flags.status' });
    }
    const actions = resolveFlagChanges(changes, { existingFlags: [], applicableTypes: types });
    const requestees = await this.users.findByLogins(actions.flatMap((a) => (a.action === 'create' && a.requestee ? [a.requestee] : [])));
    return this.bugFlags.plan(caller, actions, requestees);
  }

  /**
   * Custom fields by name, typed per field as on Update Bug (customFieldValues: free text 104, selects 51, dates 56,
   * integers 52, mandatory ones required_field); bug IDs must be visible (100/101/102). A mandatory field not sent
   * is required_field before any value is checked.
   */
  private async customValues(caller: Caller, input: ReadonlyMap<string, unknown>, definitions: readonly CustomFieldRecord[]): Promise<NewBug['custom']> {
    const missing = definitions.find((field) => field.isMandatory && !isGiven(input.get(field.name)));
    if (missing) throw TrackerError.of(Errors.REQUIRED_FIELD, { field: missing.name });
    const custom: NewBug['custom'] = [];
    for (const field of definitions) {
      if (!input.has(field.name)) continue;
      const legal = SELECT_TYPES.has(field.type) ? await this.fields.catalogueAt(caller.settingsMark).legalValues(field.name) : undefined;
      let values = customFieldValues({ field, legal, current: [] }, input.get(field.name));
      if (field.type === FieldType.BUG_ID && values.length) values = (await this.visibility.resolveVisible(caller, values)).map(String);
      if (values.length) custom.push({ fieldId: field.id, values });
    }
    return custom;
  }

  /**
   * Writes the bug. Its id stays in the database (NewBugId) while no step needs the number: the description, cc,
   * keywords, groups and See Also name it there, and go with the bug's INSERT and the COMMIT in one round trip
   * (issue 13). Flags and dependencies read the stored bug: they ask for it.
   */
  private async insert(tx: Sql, caller: Caller, bug: NewBug, at: string): Promise<{ id: NewBugId; commentId: IdToAsk }> {
    const id = await this.bugs.insertBug(tx, {
      summary: bug.summary,
      status: bug.status,
      resolution: bug.resolution,
      productId: bug.product.id,
      componentId: bug.component.id,
      version: bug.version,
      targetMilestone: bug.targetMilestone,
      opSys: bug.selects.op_sys,
      platform: bug.selects.platform,
      priority: bug.selects.priority,
      severity: bug.selects.severity,
      reporterId: caller.id,
      assignedToId: bug.assigneeId,
      qaContactId: bug.qaContactId,
      url: bug.url,
      whiteboard: bug.whiteboard,
      isConfirmed: bug.isConfirmed,
      isCreatorAccessible: bug.isCreatorAccessible,
      isCcAccessible: bug.isCcAccessible,
      estimatedTime: bug.estimatedTime,
      remainingTime: bug.remainingTime,
      deadline: bug.deadline,
      creationTime: at,
      lastChangeTime: at,
      ...(bug.bmo ? { type: bug.bmo.type, filedVia: bug.bmo.filedVia } : {}),
    });
    try {
      await this.bugs.addAliases(tx, id, bug.aliases);
    } catch (err) {
      // Another request took the alias between validation and this insert (the unique index says so, not by whom).
      if (isUniqueViolation(err)) throw new AliasTakenMeanwhile(bug.aliases);
      throw err;
    }
    await this.bugs.addNewBugLists(tx, id, {
      ccIds: bug.ccIds, keywordIds: bug.keywords.map((k) => k.id), groupIds: bug.groupIds, seeAlso: bug.seeAlso, custom: bug.custom,
    });
    await this.setFlags(tx, caller, id, bug, at);
    await this.linkDependencies(tx, caller, id, bug, at);
    // Only a webhook needs the description's id: the row goes with the COMMIT unless one asks for it first.
    const commentId = await this.comments.addLater(tx, { bugId: id, userId: caller.id, text: bug.description, isPrivate: bug.descriptionIsPrivate, at });
    return { id, commentId };
  }

  /**
   * The new bug's flags, once its row, groups and cc are stored: the rule Update Bug applies (a requestee must see
   * the bug and may grant the flag), and a requestee not on the cc list joins it.
   */
  private async setFlags(tx: Sql, caller: Caller, id: NewBugId, bug: NewBug, at: string): Promise<void> {
    if (!bug.flags.length) return;
    const { joinCc } = await this.bugFlags.apply({ tx, bugId: await bugNumber(id), caller, at, ccIds: bug.ccIds }, bug.flags, []);
    await this.bugs.addCc(tx, id, joinCc.map((u) => u.id));
    bug.ccIds.push(...joinCc.map((u) => u.id));
  }

  /**
   * Dependencies of the new bug (and BMO's regressions alike). The new bug's own creation is not history, but each
   * bug it blocks or depends on changes: it gets a history row (`depends_on` / `blocks` added) and a new
   * last_change_time (updates.md).
   */
  private async linkDependencies(tx: Sql, caller: Caller, newId: NewBugId, bug: NewBug, at: string): Promise<void> {
    await this.linkGraph(tx, caller, newId, DEPENDENCIES, { down: bug.dependsOn, up: bug.blocks }, at);
    if (bug.bmo) await this.linkGraph(tx, caller, newId, REGRESSIONS, { down: bug.bmo.regressedBy, up: bug.bmo.regressions }, at);
  }

  private async linkGraph(tx: Sql, caller: Caller, newId: NewBugId, graph: BugGraph, lists: { down: number[]; up: number[] }, at: string): Promise<void> {
    if (!lists.down.length && !lists.up.length) return;
    const id = await bugNumber(newId);
    await checkStoredDependencyLoops(tx, this.bugs, id, lists.down, lists.up, graph);
    await this.bugs.addEdges(tx, graph.name, [
      ...lists.down.map((other) => ({ upperId: id, lowerId: other })),
      ...lists.up.map((other) => ({ upperId: other, lowerId: id })),
    ]);
    const mirrored = mirroredDependencyChanges(id, { added: lists.down, removed: [] }, { added: lists.up, removed: [] }, graph);
    await this.recorder.record(tx, mirrored.map((e) => ({ ...e, userId: caller.id, at })));
    await this.edits.touch(tx, [...new Set([...lists.down, ...lists.up])], at);
  }

  /**
   * Queues the new-bug mail in the same transaction (the outbox); delivery happens after commit. The bugs it blocks or
   * depends on changed too: the change feed numbers them.
   */
  private async notify(tx: Sql, caller: Caller, { id, commentId }: { id: NewBugId; commentId: IdToAsk }, bug: NewBug, at: string): Promise<void> {
    await this.bugEvents.publish(tx, {
      bugId: bugIdToAsk(id),
      newBugId: id,
      summary: bug.summary,
      product: bug.product.name,
      component: bug.component.name,
      productId: bug.product.id,
      componentId: bug.component.id,
      changerId: caller.id,
      action: 'create',
      state: bugMailState({ ...bug, ...bug.selects }, bug.product.classification, bug.keywords.map((k) => k.name)),
      // The initial flags: listed in the mail, and how a requestee gets their request mail.
      changes: initialFlagsChange(bug.flags),
      comment: { id: commentId, text: bug.description, isPrivate: bug.descriptionIsPrivate },
      participants: { reporterId: caller.id, assigneeId: bug.assigneeId, qaContactId: bug.qaContactId, ccIds: bug.ccIds, formerIds: [] },
      at,
      settingsMark: caller.settingsMark,
      canSee: async (userIds) => this.visibility.usersWhoCanSee(await bugNumber(id), userIds, caller, tx, !bug.groupIds.length),
    });
    const linked = [...bug.dependsOn, ...bug.blocks, ...(bug.bmo ? [...bug.bmo.regressedBy, ...bug.bmo.regressions] : [])];
    await this.bugEvents.touched(tx, [...new Set(linked)], at);
  }
}
