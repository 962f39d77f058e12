import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { Errors, TrackerError } from '../common/errors/index.js';
import type { ResourceFields } from '../common/fields/field-selection.js';
import { GroupService, type GroupMemberRecord, type GroupRecord } from './group.service.js';

/** Get Group's fields for include_fields/exclude_fields: `membership` holds member objects. */
export const GROUP_FIELDS: ResourceFields = { nested: { membership: {} } };

export interface PublicGroupMember {
  id: number;
  real_name: string;
  name: string;
  email: string;
  can_login: boolean;
  email_enabled: boolean;
  login_denied_text: string;
}

export interface PublicGroup {
  id: number;
  name: string;
  description: string;
  is_active?: boolean;
  is_bug_group?: boolean;
  user_regexp?: string;
  icon_url: string | null;
  membership?: PublicGroupMember[];
}

export interface GroupQuery {
  ids: number[];
  names: string[];
  membership: boolean;
}

/**
 * Get Group (routes.md, "Get Group facts"; seed "Groups"): who may look at all, which groups each caller gets,
 * and which fields and members they see.
 */
@Injectable()
export class GroupReaderService {
  constructor(private readonly groups: GroupService) {}

  async get(query: GroupQuery, caller: Caller): Promise<PublicGroup[]> {
    const seesAll = caller.inGroup('editusers') || caller.inGroup('creategroups');
    if (!seesAll && !caller.canBlessAny) throw TrackerError.of(Errors.GROUP_CANNOT_VIEW);

    const groups = await this.select(query, caller, seesAll);
    const members = query.membership ? await this.membersVisibleTo(caller, groups) : undefined;
    return groups.map((group) => this.present(group, caller, members?.get(group.id)));
  }

  /** By ids (unknown ones skipped) then names (unknown is 51); without either, all groups or the blessable ones. */
  private async select(query: GroupQuery, caller: Caller, seesAll: boolean): Promise<GroupRecord[]> {
    if (!query.ids.length && !query.names.length) {
      const all = await this.groups.findAll();
      return seesAll ? all : all.filter((g) => caller.canBless(g.id));
    }
    const byId = await this.groups.findByIds(query.ids);
    const byName = await this.groups.requireByNames(query.names);
    const seen = new Set(byId.map((g) => g.id));
    return [...byId, ...byName.filter((g) => !seen.has(g.id) && seen.add(g.id))];
  }

  /**
   * Members are shown to editusers, creategroups and blessers of the group; anyone else asking is refused
   * (group_not_visible). With `usevisibilitygroups` on, non-editusers see only the members visible to them.
   */
  private async membersVisibleTo(caller: Caller, groups: GroupRecord[]): Promise<Map<number, GroupMemberRecord[]>> {
    const editusers = caller.inGroup('editusers');
    for (const group of groups) {
      if (!editusers && !caller.inGroup('creategroups') && !caller.canBless(group.id)) {
        throw TrackerError.of(Errors.GROUP_NOT_VISIBLE, { name: group.name });
      }
    }
    const members = await this.groups.membersOf(groups.map((g) => g.id));
    if (editusers) return members;
    const visible = await this.groups.visibleUserIds(caller, [...new Set([...members.values()].flat().map((m) => m.id))]);
    return new Map([...members].map(([groupId, list]) => [groupId, list.filter((m) => visible.has(m.id))]));
  }

  /** creategroups members see the administrative fields; editusers and blessers only id, name, description. */
  private present(group: GroupRecord, caller: Caller, members: GroupMemberRecord[] | undefined): PublicGroup {
    const adminFields = caller.inGroup('creategroups')
      ? { is_active: group.isActive, is_bug_group: group.isBugGroup, user_regexp: group.userRegexp }
      : {};
    const result: PublicGroup = { id: group.id, name: group.name, description: group.description, ...adminFields, icon_url: group.iconUrl };
    if (members) {
      result.membership = members.map((m) => ({
        id: m.id, real_name: m.realName, name: m.login, email: m.email,
        can_login: m.loginDeniedText === '', email_enabled: m.emailEnabled, login_denied_text: m.loginDeniedText,
      }));
    }
    return result;
  }
}
