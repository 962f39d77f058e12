import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import type { Sql } from '../database/sql.js';
import { AuditService } from '../audit/audit.service.js';
import { ParametersService } from '../params/parameters.service.js';
import { PARAMETER_DEFINITIONS } from '../params/parameter-definitions.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import { toDbDateTime } from '../common/time/datetime.js';
import { FieldChanges, flag, textParam } from '../common/changes.js';
import { GroupGrant, GroupService, compileUserRegexp, type GroupRecord } from './group.service.js';
import { GroupRepository, type GroupChanges } from './group.repository.js';
import type { GroupInput } from './dto/group.dto.js';

export const GROUP_AUDIT_CLASS = 'Tracker::Group';

interface Actor {
  userId: number;
  now: Date;
}

/** Group-valued parameters follow a renamed group, as Bugzilla's Group::update does. */
const GROUP_PARAMETERS = PARAMETER_DEFINITIONS.filter((d) => d.kind === 'group').map((d) => d.name);

/** Create Group and Update Group (creategroups): validation, regexp members, audit, one transaction each. */
@Injectable()
export class GroupEditorService {
  constructor(
    private readonly db: Db,
    private readonly groups: GroupService,
    private readonly store: GroupRepository,
    private readonly audit: AuditService,
    private readonly parameters: ParametersService,
  ) {}

  /**
   * Creates a bug group (routes.md: Create Group always makes `is_bug_group` true and, without `is_active`, an
   * inactive group). The `admin` group gets membership, bless and visibility over it (defaults.md).
   */
  async create(input: GroupInput, actor: Actor): Promise<number> {
    const name = this.checkName(input.name);
    const description = this.checkDescription(input.description);
    const userRegexp = this.checkRegexp(input.user_regexp);
    const at = toDbDateTime(actor.now);
    return this.db.transaction(async (tx) => {
      await this.assertNameFree(tx, name);
      const id = await this.store.insert(tx, {
        name, description, isBugGroup: true, userRegexp,
        isActive: !!input.is_active,
        iconUrl: textParam(input.icon_url, 'icon_url') || null,
      });
      const admin = await this.store.findOneByName(tx, 'admin');
      if (admin) {
        await this.store.insertGrants(tx, [GroupGrant.MEMBERSHIP, GroupGrant.BLESS, GroupGrant.VISIBILITY].map((grantType) => ({
          memberId: admin.id, grantorId: id, grantType,
        })));
      }
      await this.groups.deriveRegexpMembersOfGroup(tx, id, userRegexp);
      await this.audit.recordCreate(tx, { userId: actor.userId, className: GROUP_AUDIT_CLASS, objectId: id, added: name, at });
      return id;
    });
  }

  /**
   * Updates the named groups (updates.md, "Update Group"); all or nothing. Setting `name` for several groups is
   * 801 (5.0.6 crashes; the seed wants an error). System groups keep their name and are always active.
   */
  async update(target: { ids: number[]; names: string[] }, values: GroupInput, actor: Actor): Promise<Array<{ id: number; changes: Record<string, unknown> }>> {
    if (!target.ids.length && !target.names.length) {
      throw TrackerError.of(Errors.PARAMS_REQUIRED, { function: 'Group.update', params: ['ids', 'names'] });
    }
    const at = toDbDateTime(actor.now);
    return this.db.transaction(async (tx) => {
      const groups = uniqueById(await this.groups.resolveRefs([...target.ids, ...target.names], tx));
      const name = values.name === undefined ? undefined : this.checkName(values.name);
      if (name !== undefined && groups.length > 1) throw TrackerError.of(Errors.GROUP_EXISTS, { name });
      const results = [];
      for (const group of groups) {
        const changes = await this.applyUpdate(tx, group, { ...values, name }, actor);
        await changes.audit(tx, this.audit, { userId: actor.userId, className: GROUP_AUDIT_CLASS, objectId: group.id, at });
        results.push({ id: group.id, changes: changes.toJSON() });
      }
      return results;
    });
  }

  private async applyUpdate(tx: Sql, group: GroupRecord, values: GroupInput, actor: Actor): Promise<FieldChanges> {
    const changes = new FieldChanges();
    const row: GroupChanges = {};
    if (values.name !== undefined && values.name !== group.name) {
      if (!group.isBugGroup) throw TrackerError.of(Errors.SYSTEM_GROUP_RENAME, { name: group.name });
      await this.assertNameFree(tx, values.name, group.id);
      row.name = values.name;
      changes.note('name', group.name, values.name);
    }
    if (values.description !== undefined) {
      row.description = this.checkDescription(values.description);
      changes.note('description', group.description, row.description);
    }
    if (values.user_regexp !== undefined) {
      row.userRegexp = this.checkRegexp(values.user_regexp);
      changes.note('user_regexp', group.userRegexp, row.userRegexp);
    }
    // Bugzilla's set_is_active: only bug groups can be deactivated; system groups silently stay active.
    if (values.is_active !== undefined && group.isBugGroup) {
      row.isActive = !!values.is_active;
      changes.note('is_active', flag(group.isActive), flag(row.isActive));
    }
    if (values.icon_url !== undefined) {
      row.iconUrl = textParam(values.icon_url, 'icon_url') || null;
      changes.note('icon_url', group.iconUrl, row.iconUrl);
    }
    if (changes.isEmpty) return changes;
    await this.store.update(tx, group.id, row);
    if (row.userRegexp !== undefined && changes.has('user_regexp')) await this.groups.deriveRegexpMembersOfGroup(tx, group.id, row.userRegexp);
    if (row.name !== undefined) await this.renameInParameters(tx, group.name, row.name, actor);
    return changes;
  }

  private async renameInParameters(tx: Sql, oldName: string, newName: string, actor: Actor): Promise<void> {
    const current = await this.parameters.load(tx);
    const renamed = Object.fromEntries(GROUP_PARAMETERS.filter((p) => current.get(p) === oldName).map((p) => [p, newName]));
    if (!Object.keys(renamed).length) return;
    await this.parameters.update(tx, renamed, {
      userId: actor.userId, now: toDbDateTime(actor.now), isGroupName: (name) => this.groups.existsByName(name, tx),
    });
  }

  private checkName(value: string | undefined): string {
    const name = textParam(value, 'name');
    if (!name) throw TrackerError.of(Errors.EMPTY_GROUP_NAME);
    return name;
  }

  private checkDescription(value: string | undefined): string {
    const description = textParam(value, 'description');
    if (!description) throw TrackerError.of(Errors.EMPTY_GROUP_DESCRIPTION);
    return description;
  }

  private checkRegexp(value: string | undefined): string {
    const regexp = textParam(value, 'user_regexp');
    if (regexp && !compileUserRegexp(regexp)) throw TrackerError.of(Errors.INVALID_REGEXP, { regexp });
    return regexp;
  }

  private async assertNameFree(tx: Sql, name: string, exceptId?: number): Promise<void> {
    const existing = (await this.groups.findByNames([name], tx)).get(name.toLowerCase());
    if (existing && existing.id !== exceptId) throw TrackerError.of(Errors.GROUP_EXISTS, { name });
  }
}

function uniqueById(groups: GroupRecord[]): GroupRecord[] {
  return [...new Map(groups.map((g) => [g.id, g])).values()];
}
