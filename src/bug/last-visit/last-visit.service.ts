import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.service.js';
import type { Caller } from '../../common/caller.js';
import type { RequestContext } from '../../common/http/request-context.js';
import { Errors, TrackerError } from '../../common/errors/index.js';
import { toApiDateTime, toDbDateTime } from '../../common/time/datetime.js';
import { BugVisibilityService } from '../bug-visibility.service.js';
import { BugLoaderService } from '../store/bug-loader.service.js';
import { LastVisitRepository } from './last-visit.repository.js';

export interface LastVisit {
  id: number;
  last_visit_ts: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * BugUserLastVisit.get / update (routes.md): the logged-in caller's last visits of bugs they can see (100/101/102
 * for the others). Recording one also needs the caller to be involved in the bug — reporter, assignee, QA contact
 * (with useqacontact) or on the cc list — else 1300. Visits older than `last_visit_keep_days` are not kept: reads
 * leave them out and a recording drops the caller's old ones.
 */
@Injectable()
export class LastVisitService {
  constructor(
    private readonly db: Db,
    private readonly visibility: BugVisibilityService,
    private readonly loader: BugLoaderService,
    private readonly repository: LastVisitRepository,
  ) {}

  /** The caller's visits of the bugs, in the order named; bugs never visited (or not for too long) are left out. */
  async get(ctx: Pick<RequestContext, 'caller' | 'now'>, references: readonly string[]): Promise<LastVisit[]> {
    const ids = await this.visibility.resolveVisible(ctx.caller, references);
    const visits = await this.repository.visits(this.db.read, ctx.caller.id, ids, this.keptSince(ctx));
    const at = new Map(visits.map((v) => [v.bugId, v.lastVisitTs]));
    return ids.filter((id) => at.has(id)).map((id) => ({ id, last_visit_ts: toApiDateTime(at.get(id))! }));
  }

  /** Records now as the caller's visit of each bug (all or nothing, one timestamp). */
  async update(ctx: Pick<RequestContext, 'caller' | 'now'>, references: readonly string[]): Promise<LastVisit[]> {
    const { caller } = ctx;
    const ids = await this.visibility.resolveVisible(caller, references);
    await this.checkInvolved(caller, ids);
    const at = toDbDateTime(ctx.now);
    await this.db.transaction(async (tx) => {
      await this.repository.forget(tx, caller.id, this.keptSince(ctx));
      await this.repository.record(tx, caller.id, ids, at);
    });
    return ids.map((id) => ({ id, last_visit_ts: toApiDateTime(at)! }));
  }

  private async checkInvolved(caller: Caller, ids: readonly number[]): Promise<void> {
    const details = await this.loader.details(ids);
    const { byBug } = await this.loader.relations(ids, new Set(['cc']));
    const useQaContact = caller.parameters.bool('useqacontact');
    for (const id of ids) {
      const { row } = details.get(id)!;
      const involved = caller.id === row.reporterId || caller.id === row.assignedToId
        || (useQaContact && caller.id === row.qaContactId)
        || (byBug.get(id)?.cc ?? []).some((u) => u.id === caller.id);
      if (!involved) throw TrackerError.of(Errors.USER_NOT_INVOLVED, { id });
    }
  }

  private keptSince(ctx: Pick<RequestContext, 'caller' | 'now'>): string {
    return toDbDateTime(new Date(ctx.now.getTime() - ctx.caller.parameters.int('last_visit_keep_days') * DAY_MS));
  }
}
