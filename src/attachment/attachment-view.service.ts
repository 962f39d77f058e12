import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { RequestContext } from '../common/http/request-context.js';
import { Db } from '../database/db.service.js';
import type { ReadSql } from '../database/sql.js';
import { BugVisibilityService } from '../bug/bug-visibility.service.js';
import { visibilityKnownTo } from '../bug/store/bug-visibility.companion.js';
import { emailFilter } from '../bug/bug.presenter.js';
import { FlagService } from '../flag/flag.service.js';
import { UserService } from '../user/user.service.js';
import { ATTACHMENT_STORAGE, type AttachmentStorage } from './attachment-storage.js';
import { presentAttachment, type AttachmentFlag } from './attachment.presenter.js';
import { AttachmentRepository } from './attachment.repository.js';
import type { Attachment } from './entities/attachment.entity.js';

/** Private attachments are for the insider group and their creator (service-spec.md "Attachment"). */
export function maySee(caller: Caller, attachment: Pick<Attachment, 'isPrivate' | 'creatorId'>): boolean {
  return !attachment.isPrivate || caller.isInsider || (caller.isLoggedIn && caller.id === attachment.creatorId);
}

/**
 * Get Attachment (Bugzilla 5.0 Bug.attachments): by bug (`ids`) and by attachment (`attachment_ids`), answered as
 * `{bugs: {id: [...]}, attachments: {id: {...}}}`. The rows, their flags and their creators are read in one query
 * each for the whole answer; the contents only when `data` is selected, in one more.
 */
@Injectable()
export class AttachmentViewService {
  constructor(
    private readonly db: Db,
    private readonly repository: AttachmentRepository,
    @Inject(ATTACHMENT_STORAGE) private readonly storage: AttachmentStorage,
    private readonly visibility: BugVisibilityService,
    private readonly flags: FlagService,
    private readonly users: UserService,
  ) {}

  /**
   * Errors: 100/101/102 for a bug that is unknown or hidden (its own, or the bug of a named attachment); 304 for a
   * private attachment named by id that the caller may not see. An unknown attachment id is skipped (5.0.6).
   */
  async get(ctx: RequestContext, bugRefs: readonly string[], attachmentRefs: readonly string[]) {
    const { caller } = ctx;
    // Get a bug's attachments brings the bugs' visibility with the caller (BugVisibilityCompanion); by id, none.
    const bugIds = await this.visibility.resolveVisible(caller, bugRefs, undefined, visibilityKnownTo(ctx));
    const attachmentIds = attachmentRefs.map((ref) => {
      if (!/^\s*\d+\s*$/.test(ref)) throw TrackerError.of(Errors.PARAM_MUST_BE_NUMERIC, { function: 'Bug.attachments', param: 'attachment_ids' });
      return Number(ref);
    });
    const named = await this.repository.byIds(this.db.read, attachmentIds);
    const hidden = named.find((a) => !maySee(caller, a));
    await this.visibility.resolveVisible(caller, named.map((a) => String(a.bugId)));
    if (hidden) throw TrackerError.of(Errors.AUTH_FAILURE, { group: 'insidergroup', action: 'access', object: 'attachment', attach_id: hidden.id });
    const ofBugs = (await this.repository.ofBugs(this.db.read, bugIds)).filter((a) => maySee(caller, a));

    const present = await this.presenter(this.db.read, caller, [...ofBugs, ...named], ctx.selection.wants('data'));
    const bugs: Record<string, unknown[]> = Object.fromEntries(bugIds.map((id) => [String(id), []]));
    for (const a of ofBugs) bugs[String(a.bugId)].push(ctx.selection.apply(present(a)));
    const attachments = Object.fromEntries(named.map((a) => [String(a.id), ctx.selection.apply(present(a))]));
    return { bugs, attachments };
  }

  /**
   * One attachment without its contents, as `caller` sees it through Get Attachment: 'hidden' when it is private and
   * not theirs to see, 'missing' when this read does not find it (a replica behind the primary). The caller must be
   * able to see its bug (the webhook checks that through Get Bug).
   */
  async seenBy(caller: Caller, attachmentId: number): Promise<Record<string, unknown> | 'hidden' | 'missing'> {
    const [attachment] = await this.repository.byIds(this.db.read, [attachmentId]);
    if (!attachment) return 'missing';
    if (!maySee(caller, attachment)) return 'hidden';
    const present = await this.presenter(this.db.read, caller, [attachment], false);
    return present(attachment);
  }

  /** The flags of some attachments with their people's logins, by attachment (one query for flags, one for users). */
  async flagsOf(sql: ReadSql, attachmentIds: readonly number[]): Promise<Map<number, AttachmentFlag[]>> {
    const rows = await this.flags.attachmentFlags(sql, attachmentIds);
    const people = await this.users.findByIds(rows.flatMap((r) => (r.requesteeId ? [r.setterId, r.requesteeId] : [r.setterId])), sql);
    const byAttachment = new Map<number, AttachmentFlag[]>(attachmentIds.map((id) => [id, []]));
    for (const r of rows) {
      byAttachment.get(r.attachmentId!)?.push({
        id: r.id, typeId: r.typeId, name: r.name, status: r.status, creationDate: r.creationDate, modificationDate: r.modificationDate,
        setter: people.get(r.setterId)?.login ?? '', requestee: r.requesteeId ? people.get(r.requesteeId)?.login ?? null : null,
        attachmentId: r.attachmentId!, setterId: r.setterId, requesteeId: r.requesteeId,
      });
    }
    return byAttachment;
  }

  /** Loads what the attachments' objects show (flags, creators, and the contents when `withData`). */
  private async presenter(sql: ReadSql, caller: Caller, attachments: readonly Attachment[], withData: boolean) {
    const ids = [...new Set(attachments.map((a) => a.id))];
    const [flags, creators, data] = await Promise.all([
      this.flagsOf(sql, ids),
      this.users.findByIds(attachments.map((a) => a.creatorId), sql),
      withData ? this.storage.read(sql, ids) : Promise.resolve(new Map<number, Buffer>()),
    ]);
    const email = emailFilter(caller);
    return (a: Attachment) => presentAttachment(a, {
      creator: creators.get(a.creatorId)?.login ?? '', flags: flags.get(a.id) ?? [], data: data.get(a.id), email,
    });
  }
}
