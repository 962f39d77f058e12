import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { RequestContext } from '../common/http/request-context.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { Db } from '../database/db.service.js';
import type { Sql, ReadSql } from '../database/sql.js';
import type { BugAttachments } from '../bug/bug-attachments.js';
import { BUG_COMMENTS, CommentType, type BugComments } from '../bug/bug-comments.js';
import { bugMailState, type NewRowId } from '../bug/bug-events.js';
import { BugEventsService } from '../bug/bug-events.service.js';
import type { ActivityEntry } from '../bug/bug.types.js';
import { BugLoaderService, type KnownStamps } from '../bug/store/bug-loader.service.js';
import { stampsKnownTo, visibilityOfStamps } from '../bug/store/bug-stamps.companion.js';
import { BugEditsService } from '../bug/store/bug-edits.service.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { ChangeRecorderService } from '../bug/change-recorder.service.js';
import { BugFlagsService, parseFlagChanges, type ExistingFlag, type FlagChangeInput } from '../bug-rules/bug-flags.service.js';
import { FlagTypeService } from '../flag/flag-type.service.js';
import { ProductService } from '../product/product.service.js';
import { UserService, type UserRecord } from '../user/user.service.js';
import { ATTACHMENT_STORAGE, type AttachmentStorage } from './attachment-storage.js';
import { AttachmentViewService } from './attachment-view.service.js';
import type { AttachmentFlag } from './attachment.presenter.js';
import { AttachmentRepository, type AttachmentChanges } from './attachment.repository.js';
import {
  checkContentType, checkFileName, checkPrivacyRight, checkSummary, decodeAttachmentData, maxAttachmentBytes,
} from './attachment.rules.js';
import type { AttachmentCreateInput, AttachmentUpdateInput } from './dto/attachment.dto.js';
import type { Attachment } from './entities/attachment.entity.js';

const CREATE = 'Bug.add_attachment';
const UPDATE = 'Bug.update_attachment';

/** Update Attachment's fields: API name (in `changes`), property, history field (Bugzilla's attachments.* names). */
const UPDATABLE = [
  ['summary', 'summary', 'attachments.description'],
  ['file_name', 'fileName', 'attachments.filename'],
  ['content_type', 'contentType', 'attachments.mimetype'],
  ['is_patch', 'isPatch', 'attachments.ispatch'],
  ['is_obsolete', 'isObsolete', 'attachments.isobsolete'],
  ['is_private', 'isPrivate', 'attachments.isprivate'],
] as const;

const changeText = (value: string | boolean) => (typeof value === 'boolean' ? (value ? '1' : '0') : value);

/** The flag changes of a request on one attachment, with where it hangs. */
interface FlagRequest {
  bug: { bugId: number; productId: number; componentId: number };
  attachment: { id: number; isPrivate: boolean };
  changes: readonly FlagChangeInput[];
  existing: readonly AttachmentFlag[];
  /** The 5.0 function errors name. */
  functionName: string;
}

/** What one bug's write changed, for its history and its mail. */
interface BugChange {
  bugId: number;
  attachment: { id: number; isNew: boolean };
  entries: ActivityEntry[];
  comment?: { id: NewRowId; text: string; isPrivate: boolean };
  joinCc: UserRecord[];
}

/**
 * The rules of attachments (Bugzilla 5.0 Bug.add_attachment, Bug.update_attachment): values checked by
 * attachment.rules.ts, the contents kept by the AttachmentStorage, flags by the bug module's one flag rule
 * (BugFlagsService), the comment through BUG_COMMENTS, history through the ChangeRecorder (rows carry
 * attachment_id) and the bug's mail and webhooks through BugEventsService, all in one transaction per request.
 */
@Injectable()
export class AttachmentService implements BugAttachments {
  constructor(
    private readonly db: Db,
    private readonly repository: AttachmentRepository,
    @Inject(ATTACHMENT_STORAGE) private readonly storage: AttachmentStorage,
    private readonly view: AttachmentViewService,
    private readonly visibility: BugVisibilityService,
    private readonly loader: BugLoaderService,
    private readonly bugs: BugEditsService,
    private readonly recorder: ChangeRecorderService,
    private readonly bugFlags: BugFlagsService,
    private readonly flagTypes: FlagTypeService,
    private readonly products: ProductService,
    private readonly users: UserService,
    @Inject(BUG_COMMENTS) private readonly comments: BugComments,
    private readonly bugEvents: BugEventsService,
  ) {}

  async privateAmong(sql: Sql, attachmentIds: readonly number[]): Promise<ReadonlySet<number>> {
    return new Set(await this.repository.privateAmong(sql, [...new Set(attachmentIds)]));
  }

  /**
   * Create Attachment: the same attachment, comment and flags on every bug named (REST names one, the path's), one
   * timestamp. Errors in Bugzilla's order: 50 without `data`; 100/101/102 for a bug, 109 for a product the caller
   * may not edit; then the values (53/606/600 data, 604 summary, 603 file name, 601 content type, 113 privacy) and
   * the flags (51, 129–134, 130). Answers the new ids, in the order of the bugs.
   */
  async create(ctx: RequestContext, bugRefs: readonly string[], input: AttachmentCreateInput): Promise<number[]> {
    const { caller } = ctx;
    const known = stampsKnownTo(ctx);
    if (input.data === undefined || input.data === null) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: CREATE, param: 'data' });
    const bugIds = await this.visibility.resolveVisible(caller, bugRefs, undefined, visibilityOfStamps(known));
    if (!bugIds.length) throw TrackerError.of(Errors.PARAM_REQUIRED, { function: CREATE, param: 'ids' });
    const details = await this.editableBugs(this.db.read, caller, bugIds, undefined, known);
    const data = decodeAttachmentData(input.data, maxAttachmentBytes(caller.parameters), CREATE);
    const isPatch = input.is_patch === true;
    const values = {
      summary: checkSummary(input.summary),
      fileName: checkFileName(input.file_name),
      contentType: checkContentType(input.content_type, isPatch),
      isPatch,
      isPrivate: input.is_private === true,
    };
    if (values.isPrivate) checkPrivacyRight(caller.isInsider);
    // Create takes only name/type_id, status and requestee: every flag is a new one (updates.md).
    const flags = parseFlagChanges(input.flags ?? [], CREATE).map((f) => ({ name: f.name, type_id: f.type_id, status: f.status, requestee: f.requestee, new: true }));
    const at = toDbDateTime(ctx.now);

    return this.db.transaction(async (tx) => {
      const users = await this.requestees(tx, flags);
      const ids: number[] = [];
      const changed: BugChange[] = [];
      for (const bugId of bugIds) {
        const id = await this.repository.insert(tx, {
          bugId, creationTime: at, lastChangeTime: at, ...values, isObsolete: false, creatorId: caller.id, size: data.length,
        });
        await this.storage.save(tx, id, data);
        const bug = details.get(bugId)!;
        const change: BugChange = { bugId, attachment: { id, isNew: true }, entries: [], joinCc: [] };
        if (flags.length) {
          await this.setFlags(tx, caller, at, {
            bug: { bugId, productId: bug.row.productId, componentId: bug.row.componentId }, attachment: { id, isPrivate: values.isPrivate },
            changes: flags, existing: [], functionName: CREATE,
          }, users, change);
        }
        // Its id only a webhook asks for: the row goes with the reads of the mail.
        const commentId = await this.comments.addLater(tx, {
          bugId, userId: caller.id, text: input.comment ?? '', isPrivate: values.isPrivate, at,
          type: CommentType.ATTACHMENT_CREATED, extraData: String(id), attachmentId: id,
        });
        change.comment = { id: commentId, text: input.comment ?? '', isPrivate: values.isPrivate };
        ids.push(id);
        changed.push(change);
      }
      await this.finish(tx, caller, at, changed);
      return ids;
    });
  }

  /**
   * Update Attachment (updates.md): every attachment is checked before anything is written (invalid_attach_id,
   * illegal_attachment_edit_bug, illegal_attachment_edit), then each gets its values, flags and comment. Answers
   * `{id, last_change_time, changes}` per attachment.
   */
  async update(ctx: RequestContext, refs: readonly string[], readInput: () => AttachmentUpdateInput) {
    const { caller } = ctx;
    const ids = refs.map((ref) => {
      if (!/^\s*\d+\s*$/.test(ref)) throw TrackerError.of(Errors.INVALID_ATTACH_ID, { attach_id: ref });
      return Number(ref);
    });
    const at = toDbDateTime(ctx.now);
    return this.db.transaction(async (tx) => {
      const rows = new Map((await this.repository.byIds(tx, ids)).map((a) => [a.id, a]));
      const missing = ids.find((id) => !rows.has(id));
      if (missing !== undefined) throw TrackerError.of(Errors.INVALID_ATTACH_ID, { attach_id: missing });
      const attachments = [...new Set(ids)].map((id) => rows.get(id)!);
      const details = await this.editableBugs(tx, caller, attachments.map((a) => a.bugId), (bugId) => TrackerError.of(Errors.ILLEGAL_ATTACHMENT_EDIT_BUG, { bug_id: bugId }));
      const input = readInput();
      const flagChanges = input.flags ? parseFlagChanges(input.flags, UPDATE) : undefined;
      const flagsBefore = await this.view.flagsOf(tx, attachments.map((a) => a.id));
      const users = await this.requestees(tx, flagChanges ?? []);

      const results = [];
      const changed: BugChange[] = [];
      for (const attachment of attachments) {
        const bug = details.get(attachment.bugId)!;
        const existing = flagsBefore.get(attachment.id) ?? [];
        const editsValues = UPDATABLE.some(([key]) => input[key] !== undefined);
        if (!this.canEdit(caller, attachment)) {
          // Bugzilla lets others answer flags they set or that are asked of them (with a comment), and nothing else.
          const onlyOwnFlags = !!flagChanges?.length && !editsValues && flagChanges.every((f) => this.isOwnFlag(caller, f, existing));
          if (!onlyOwnFlags) throw TrackerError.of(Errors.ILLEGAL_ATTACHMENT_EDIT, { attach_id: attachment.id });
        }
        const set = this.valuesToSet(caller, attachment, input);
        const change: BugChange = { bugId: attachment.bugId, attachment: { id: attachment.id, isNew: false }, entries: [], joinCc: [] };
        const changes: Record<string, { removed: string; added: string }> = {};
        for (const [key, property, field] of UPDATABLE) {
          const value = set[property];
          if (value === undefined || value === attachment[property]) continue;
          const entry = { removed: changeText(attachment[property]), added: changeText(value) };
          changes[key] = entry;
          change.entries.push({ bugId: attachment.bugId, userId: caller.id, at, field, ...entry, attachmentId: attachment.id });
        }
        const isPrivate = set.isPrivate ?? attachment.isPrivate;
        if (flagChanges) {
          const flagDiff = await this.setFlags(tx, caller, at, {
            bug: { bugId: attachment.bugId, productId: bug.row.productId, componentId: bug.row.componentId }, attachment: { id: attachment.id, isPrivate },
            changes: flagChanges, existing, functionName: UPDATE,
          }, users, change);
          if (flagDiff) changes['flagtypes.name'] = flagDiff;
        }
        const touched = Object.keys(changes).length > 0;
        if (touched) await this.repository.update(tx, attachment.id, { ...this.onlyChanged(set, attachment), lastChangeTime: at });
        const comment = input.comment?.trim();
        if (comment) {
          const commentId = await this.comments.addLater(tx, {
            bugId: attachment.bugId, userId: caller.id, text: comment, isPrivate, at,
            type: CommentType.ATTACHMENT_UPDATED, extraData: String(attachment.id), attachmentId: attachment.id,
          });
          change.comment = { id: commentId, text: comment, isPrivate };
        }
        if (touched || comment) changed.push(change);
        results.push({ id: attachment.id, last_change_time: toApiDateTime(touched ? at : attachment.lastChangeTime), changes });
      }
      await this.finish(tx, caller, at, changed);
      return results;
    });
  }

  /**
   * The bugs' rows with names, each visible (else `denied`, by default Bugzilla's 101/102) and of a product the
   * caller may edit (109).
   */
  private async editableBugs(tx: ReadSql, caller: Caller, bugIds: readonly number[], denied?: (bugId: number) => TrackerError, known?: KnownStamps) {
    const details = await this.loader.details([...new Set(bugIds)], { visibleTo: caller, sql: tx, known });
    for (const bugId of new Set(bugIds)) {
      const bug = details.get(bugId);
      if (!bug || !bug.visible) throw denied ? denied(bugId) : bug ? this.visibility.accessDenied(caller, bugId) : TrackerError.of(Errors.BUG_NOT_FOUND, { id: bugId });
      if (!(await this.products.catalogueAt(caller.settingsMark, tx).canEdit(caller, bug.row.productId))) {
        throw denied ? denied(bugId) : TrackerError.of(Errors.PRODUCT_EDIT_DENIED, { product: bug.product });
      }
    }
    return details;
  }

  /**
   * Bugzilla's validate_can_edit: the creator, or a member of editbugs (who must be an insider for a private
   * attachment).
   */
  private canEdit(caller: Caller, attachment: Attachment): boolean {
    return caller.id === attachment.creatorId || (caller.inGroup('editbugs') && (!attachment.isPrivate || caller.isInsider));
  }

  /** A change of an existing flag the caller set or that is asked of them (by id, or by its type when only one is set). */
  private isOwnFlag(caller: Caller, change: FlagChangeInput, existing: readonly AttachmentFlag[]): boolean {
    if (change.new) return false;
    const id = Number(change.id);
    const flag = change.id !== undefined ? existing.find((f) => f.id === id)
      : existing.filter((f) => f.typeId === Number(change.type_id) || f.name === change.name).at(0);
    return !!flag && (flag.setterId === caller.id || flag.requesteeId === caller.id);
  }

  /** The values the request sets, checked; is_patch forces text/plain; privacy needs the insider group (113). */
  private valuesToSet(caller: Caller, attachment: Attachment, input: AttachmentUpdateInput): AttachmentChanges {
    const set: AttachmentChanges = {};
    if (input.summary !== undefined) set.summary = checkSummary(input.summary);
    if (input.file_name !== undefined) set.fileName = checkFileName(input.file_name);
    if (input.is_patch !== undefined) set.isPatch = input.is_patch;
    const isPatch = set.isPatch ?? attachment.isPatch;
    if (input.content_type !== undefined || (set.isPatch && !attachment.isPatch)) {
      set.contentType = checkContentType(input.content_type ?? attachment.contentType, isPatch);
    }
    if (input.is_obsolete !== undefined) set.isObsolete = input.is_obsolete;
    if (input.is_private !== undefined && input.is_private !== attachment.isPrivate) {
      checkPrivacyRight(caller.isInsider);
      set.isPrivate = input.is_private;
    }
    return set;
  }

  private onlyChanged(set: AttachmentChanges, attachment: Attachment): AttachmentChanges {
    return Object.fromEntries(Object.entries(set).filter(([key, value]) => attachment[key as keyof Attachment] !== value));
  }

  /** Users named as requestees, by lower-cased login (one query). */
  private requestees(tx: Sql, flags: readonly FlagChangeInput[]): Promise<Map<string, UserRecord>> {
    const logins = flags.flatMap((f) => (typeof f.requestee === 'string' && f.requestee.trim() !== '' ? [f.requestee.trim()] : []));
    return this.users.findByLogins(logins, tx);
  }

  /**
   * The flag rule of bugs, on an attachment: the attachment flag types of the bug's product and component; the
   * `flagtypes.name` history row carries the attachment id. Answers the change, if any.
   */
  private async setFlags(tx: Sql, caller: Caller, at: string, request: FlagRequest, users: ReadonlyMap<string, UserRecord>, change: BugChange): Promise<{ removed: string; added: string } | null> {
    const { bug, attachment, changes, existing, functionName } = request;
    const types = await this.flagTypes.applicableTypes(bug.productId, bug.componentId, 'attachment', tx);
    const ccIds = await this.ccIds(tx, bug.bugId);
    const held: ExistingFlag[] = existing.map((f) => ({
      id: f.id, typeId: f.typeId, typeName: f.name, status: f.status as ExistingFlag['status'], requesteeLogin: f.requestee, setterLogin: f.setter,
    }));
    const { diff, joinCc } = await this.bugFlags.change(
      { tx, bugId: bug.bugId, attachment, caller, at, ccIds }, { changes, existing: held, types, users, functionName },
    );
    if (diff) change.entries.push({ bugId: bug.bugId, userId: caller.id, at, field: 'flagtypes.name', ...diff, attachmentId: attachment.id });
    change.joinCc.push(...joinCc.filter((u) => !change.joinCc.some((x) => x.id === u.id)));
    return diff;
  }

  private async ccIds(tx: Sql, bugId: number): Promise<number[]> {
    const { byBug } = await this.loader.relations([bugId], new Set(['cc']), { sql: tx });
    return (byBug.get(bugId)?.cc ?? []).map((u) => u.id);
  }

  /**
   * After the attachments of a request: requestees join the cc list (observed on 5.0.6), history is recorded, each
   * bug's last_change_time moves, and one bug mail per bug is queued (a flag request reaches its requestee there).
   */
  private async finish(tx: Sql, caller: Caller, at: string, changed: readonly BugChange[]): Promise<void> {
    const byBug = new Map<number, BugChange[]>();
    for (const c of changed) byBug.set(c.bugId, [...(byBug.get(c.bugId) ?? []), c]);
    if (!byBug.size) return;
    const bugIds = [...byBug.keys()];
    // The bugs' rows first: their UPDATE goes with the mail's reads and locks them. Those reads see the bugs' groups
    // in the transaction's snapshot, as the visibility statement would (a bug in no group then needs none); when they
    // are its first plain reads (a new attachment without flags), that snapshot is taken under the lock.
    await this.bugs.recordChange(tx, () => this.bugs.touch(tx, bugIds, at));
    const { details, byBug: relations } = await this.loader.currentStates(tx, bugIds, new Set(['cc', 'keywords', 'groups']));
    // The cc rows, the history and the mail need no answer: they go with the COMMIT.
    await this.bugs.recordChange(tx, async () => {
      for (const [bugId, changes] of byBug) {
        const bug = details.get(bugId)!;
        const ccIds = (relations.get(bugId)?.cc ?? []).map((u) => u.id);
        const joining = changes.flatMap((c) => c.joinCc).filter((u, i, all) => !ccIds.includes(u.id) && all.findIndex((x) => x.id === u.id) === i);
        const entries = changes.flatMap((c) => c.entries);
        if (joining.length) {
          await this.bugs.addCc(tx, bugId, joining.map((u) => u.id));
          entries.push({ bugId, userId: caller.id, at, field: 'cc', removed: '', added: joining.map((u) => u.login).join(', ') });
        }
        await this.recorder.record(tx, entries);
        const comment = changes.map((c) => c.comment).find((c) => c !== undefined);
        await this.bugEvents.publish(tx, {
          bugId, summary: bug.row.summary, product: bug.product, component: bug.component, productId: bug.row.productId, componentId: bug.row.componentId,
          changerId: caller.id, action: 'attachment', attachments: changes.map((c) => ({ ...c.attachment, commentId: c.comment?.id })),
          state: bugMailState(bug.row, bug.classification, relations.get(bugId)?.keywords ?? []),
          changes: entries.map((e) => ({ field: e.field, removed: e.removed, added: e.added, attachmentId: e.attachmentId ?? null })),
          ...(comment ? { comment } : {}),
          participants: {
            reporterId: bug.row.reporterId, assigneeId: bug.row.assignedToId, qaContactId: bug.row.qaContactId,
            ccIds: [...ccIds, ...joining.map((u) => u.id)], formerIds: [],
          },
          at,
          settingsMark: caller.settingsMark,
          canSee: (userIds) => this.visibility.usersWhoCanSee(bugId, userIds, caller, tx, relations.get(bugId)?.groups.length === 0),
        });
      }
    });
  }
}
