/**
 * The working state of one Update Bug request (`UpdateRun`) and of one bug within it (`BugWork`): what the steps
 * of BugUpdateService read and write. Writes go to the database as each step is validated — the request runs in
 * one transaction, so a later error still rolls everything back — while the bug's own columns, its change set and
 * its history are collected here and written once at the end of the bug.
 */
import type { Sql } from '../../database/sql.js';
import type { BugChangeEvent } from '../../bug/bug-events.js';
import type { Caller } from '../../common/caller.js';
import type { ParameterSnapshot } from '../../common/caller.js';
import type { ProductRecord, ComponentRecord, ProductCatalogue } from '../../product/product.service.js';
import type { CustomFieldRecord, FieldCatalogue } from '../../field/field.service.js';
import type { UserRecord } from '../../user/user.service.js';
import type { StatusDef, Transition } from '../../field/field.types.js';
import { ChangeSet, type ChangeEntry } from '../../bug/changes.js';
import { assertCanChangeField, type FieldCaller } from '../../bug-rules/field-permissions.js';
import { userByLogin } from '../../bug-rules/bug-flags.service.js';
import type { UpdateRequest } from './update-request.js';
import type { BugState } from './update-state.js';
import type { BugColumns } from '../../bug/store/bug-store.service.js';

export interface Workflow {
  statuses: readonly StatusDef[];
  transitions: readonly Transition[];
  resolutions: string[];
}

/** A history row of the bug that `changes` does not show (work_time, comment privacy). */
export interface QuietEntry extends ChangeEntry {
  commentId?: number;
}

/** What one request shares between its bugs. */
export interface UpdateRun {
  tx: Sql;
  caller: Caller;
  params: ParameterSnapshot;
  /** The request's one timestamp, DB format. */
  at: string;
  request: UpdateRequest;
  /** More than one bug is updated (alias and dupe_of are then refused). */
  multi: boolean;
  /** The settings reads of the request, kept under the caller's settings mark (KeptReads). */
  products: ProductCatalogue;
  fields: FieldCatalogue;
  /** Loaded on first use, then shared by the bugs of the request. */
  workflow?: Workflow;
  customFields?: readonly CustomFieldRecord[];
  /** Users named in the request (assigned_to, qa_contact, cc, requestees), by lower-cased login. */
  namedUsers: Map<string, UserRecord>;
  /** History of bugs changed as a side effect (the other side of a dependency or See Also link, a duplicate's target). */
  others: Map<number, ChangeEntry[]>;
  /** Bugs whose last_change_time moves because of another bug's change. */
  bumped: Set<number>;
  /** Bugs whose dependency lists another bug's change of open state reordered: not kept as projected. */
  reordered: Set<number>;
  /** Comments added to such bugs (the "has duplicate" comment of a duplicate's target), for their mail. */
  otherComments: Map<number, { id: number; text: string; isPrivate: boolean }>;
}

export class BugWork {
  readonly changes = new ChangeSet();
  readonly quiet: QuietEntry[] = [];
  /** Columns of the bugs row to write. */
  readonly columns: BugColumns = {};
  /** Anything stored for this bug at all (a comment or a privacy flip counts, though `changes` does not show it). */
  changed = false;
  product: ProductRecord;
  productChanged = false;
  componentId: number;
  componentName: string;
  component?: ComponentRecord;
  /** Values after the steps so far (ids and names the later steps need). */
  assigneeId: number;
  qaContactId: number | null;
  status: string;
  isConfirmed: boolean;
  /** Closing, moving between closed statuses or becoming a duplicate zeroes remaining_time. */
  zeroRemainingTime = false;
  targetMilestone: string;
  aliases: string[];
  keywords: string[];
  ccIds: number[];
  /** cc logins added and removed by any step (the cc key itself, flag requestees); one `cc` change at the end. */
  readonly ccAdded: string[] = [];
  readonly ccRemoved: string[] = [];
  /** People the change removed from the bug (former assignee, QA contact, cc): they are told too. */
  readonly formerIds: number[] = [];
  /** The comment this update adds to the bug, for the mail. */
  comment?: BugChangeEvent['comment'];
  /** The duplicate target set by this update (its side effects run after the comment is written). */
  newDupeOf?: number;

  constructor(
    readonly run: UpdateRun,
    readonly bug: BugState,
    readonly fieldCaller: FieldCaller,
    product: ProductRecord,
  ) {
    this.product = product;
    this.componentId = bug.row.componentId;
    this.componentName = bug.component;
    this.assigneeId = bug.row.assignedToId;
    this.qaContactId = bug.row.qaContactId;
    this.status = bug.row.status;
    this.isConfirmed = bug.row.isConfirmed;
    this.targetMilestone = bug.row.targetMilestone;
    this.aliases = [...bug.aliases];
    this.keywords = [...bug.keywords];
    this.ccIds = bug.cc.map((u) => u.id);
  }

  /** Whether the bug's groups stay as loaded: the request names none and the product stays (applyGroups). */
  get keepsGroups(): boolean {
    return !this.run.request.groups && !this.productChanged;
  }

  get id(): number {
    return this.bug.row.id;
  }

  isOpen = (status: string): boolean => {
    const def = this.run.workflow?.statuses.find((s) => s.name === status);
    return def ? def.isOpen : true;
  };

  /** "Who may change what" for one changed value (115 when refused). */
  allow(field: string, oldValue: unknown, newValue: unknown): void {
    assertCanChangeField({
      field,
      oldValue,
      newValue,
      isOpen: this.isOpen,
      everConfirmed: this.bug.row.isConfirmed,
      caller: this.fieldCaller,
      params: {
        useqacontact: this.run.params.bool('useqacontact'),
        letsubmitterchoosepriority: this.run.params.bool('letsubmitterchoosepriority'),
      },
    });
  }

  /** Sets a column of the bugs row and records the change under its API name. */
  set<K extends keyof BugColumns>(column: K, field: string, removed: unknown, added: unknown, stored: BugColumns[K] = added as BugColumns[K]): void {
    this.columns[column] = stored;
    this.changes.record(field, removed, added);
  }

  /** Notes cc rows added and removed; the one `cc` change of the bug is recorded from all of them at the end. */
  noteCcChange(added: ReadonlyArray<{ id: number; login: string }>, removed: ReadonlyArray<{ id: number; login: string }>): void {
    this.ccIds = [...this.ccIds.filter((id) => !removed.some((u) => u.id === id)), ...added.map((u) => u.id)];
    this.ccAdded.push(...added.map((u) => u.login));
    this.ccRemoved.push(...removed.map((u) => u.login));
    this.formerIds.push(...removed.map((u) => u.id));
  }

  /** History on another bug (and a bump of its last_change_time). */
  other(bugId: number, field: string, removed: string, added: string): void {
    const list = this.run.others.get(bugId) ?? [];
    list.push({ field, removed, added });
    this.run.others.set(bugId, list);
    this.run.bumped.add(bugId);
  }
}

/** A user the request names by login (loaded with the others in one query); unknown is 51. */
export function userNamed(run: UpdateRun, login: string): UserRecord {
  return userByLogin(run.namedUsers, login);
}
