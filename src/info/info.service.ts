import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { GroupService } from '../group/group.service.js';
import { AuditService } from '../audit/audit.service.js';
import type { RequestContext } from '../common/http/request-context.js';
import { toApiDateTime, toDbDateTime } from '../common/time/datetime.js';
import { PARAMETER_DEFINITIONS } from '../params/parameter-definitions.js';
import type { Caller } from '../common/caller.js';

/** The installed version; clients detect capabilities through it (Bugzilla 5.0 compatible). */
export const TRACKER_VERSION = '5.0.6';

/** Audit classes are named `Tracker::Product` here; clients written for Bugzilla send `Bugzilla::Product`. */
const AUDIT_CLASS = /^(Bugzilla|Tracker)(::[A-Za-z0-9_]+)*$/;

@Injectable()
export class InfoService {
  constructor(
    private readonly db: Db,
    private readonly parameters: ParametersService,
    private readonly groups: GroupService,
    private readonly audit: AuditService,
  ) {}

  /** Applies parameter changes in one transaction (all or nothing); answers the changed names with their values. */
  async updateParameters(changes: Record<string, unknown>, ctx: RequestContext): Promise<Record<string, string>> {
    const changed = await this.db.transaction((tx) =>
      this.parameters.update(tx, changes, { userId: ctx.caller.id, now: toDbDateTime(ctx.now), isGroupName: (name) => this.groups.existsByName(name, tx) }),
    );
    const current = await this.parameters.load();
    return Object.fromEntries(changed.map((name) => [name, current.get(name)]));
  }

  /** `now`: the request's timestamp, the web server's time. */
  async time(now: Date) {
    const dbTime = await this.db.currentTime();
    const web = toApiDateTime(now);
    return {
      db_time: toApiDateTime(dbTime),
      web_time: web,
      web_time_utc: web,
      tz_name: 'UTC',
      tz_short_name: 'UTC',
      tz_offset: '+0000',
    };
  }

  /** Parameters the caller may see (service-spec.md, Information): anonymous, logged in, or tweakparams. */
  visibleParameters(caller: Caller): Record<string, string> {
    const level = caller.inGroup('tweakparams') ? 'tweakparams' : caller.isLoggedIn ? 'user' : 'anonymous';
    const visible = PARAMETER_DEFINITIONS.filter((d) =>
      (level === 'tweakparams' || d.visibleTo === 'anonymous' || (level === 'user' && d.visibleTo === 'user'))
      && (d.listedWith === undefined || caller.parameters.bool(d.listedWith)),
    );
    return Object.fromEntries(visible.map((d) => [d.name, caller.parameters.get(d.name)]));
  }

  async lastAuditTime(classes: string[]): Promise<string | null> {
    const valid = classes.filter((c) => AUDIT_CLASS.test(c));
    const both = valid.flatMap((c) => [c.replace(/^Bugzilla/, 'Tracker'), c.replace(/^Tracker/, 'Bugzilla')]);
    const at = await this.audit.lastChangeTime(both);
    return at ? toApiDateTime(at) : null;
  }
}
